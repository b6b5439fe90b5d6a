"""DDS's move weights, for four seats in two partnerships (bridge's shape).

Bo Haglund's double-dummy solver orders the moves of each seat by weights
of the suit and the rank of each card, tuned over many bridge deals; this
module gives those weights (after DDS 2.9's ``Moves.cpp``, as its
``WeightAlloc...`` functions describe them) in terms of the plan's groups:
a *suit* is a group, its *rank* the card's strength plus 2 (so that a
13-card suit ranks 2..14), the *trump suit* the plan's trump group.  A move
is a class of equivalent cards, ranked by its highest card.

- at the lead: suits where the opponents have few cards to choose from,
  winners (cashed or reached in partner's hand), suits whose second and
  third cards the side holds, away from an opponent's high card on the
  leader's right or a ruff; the lead that last cut the search off with as
  many tricks left (a *killer*) and the table's stored lead weigh more;
- second hand: win cheaply when partner (fourth) cannot, else low; third
  hand: win above fourth hand, or force out its top card as cheaply as
  possible; fourth hand: win as cheaply as possible unless partner wins;
- discards from long suits, keeping a guarded king and a bare ace; ruffs
  weighed by whether partner already wins and whether they are overruffed.

The weights only order the moves: any order gives the same answers.

One module, one job: DDS's weights.  Each case of the lead and the follow
is a closure of its own, made by a builder function of its own
(``_make_...``); :func:`make_dds_weights` builds them all over the search's
constants (the closures read them as local variables, without lookups) and
returns the one function the move ordering calls, which picks the case.
"""

from __future__ import annotations

from collections.abc import Callable

from backalley.solver._classes import Classes, classes_of
from backalley.solver._context import Context
from backalley.solver._table import MEMO_LIMIT

__all__ = ["make_dds_weights"]

Weights = Callable[
    [Classes, tuple[int, ...], int, int, tuple[int, ...], int, int, int, int],
    list[tuple[int, int]],
]
"""weights(classes, hands, seat, leader, trick, win, rem, hint, killer) ->
[(sort key, move)]: the best move has the lowest key."""

Summary = tuple[int, int, int, int, int, tuple[int, int, int, int]]
"""A group's holding: the owners of its highest, second and third card (-1
for none), the ranks of the highest and second card (0 for none), and the
number of its cards in each hand."""

SummaryOf = Callable[[tuple[int, int, int, int]], Summary]
"""summary(parts) -> the :data:`Summary` of one group's cards in the four hands."""

Weighed = list[tuple[int, int]]
"""[(sort key, move)]: the best move has the lowest key."""

LeadWeights = Callable[[Classes, tuple[int, ...], int, int, int, int], Weighed]
"""lead(classes, hands, seat, rem, hint, killer) -> the weights of the leads."""

FollowWeights = Callable[[Classes, tuple[int, ...], int, int, tuple[int, ...], int, int], Weighed]
"""follow(moves, hands, seat, leader, trick, win, rem) -> the weights of
``moves`` (the classes, highest first) of the seat after ``trick``."""

Rank = Callable[[int], int]
Low = Callable[[Classes], Weighed]
Beat = Callable[[Classes, int, int, int], Weighed]
ForcesTop = Callable[[int, int, int, bool, Classes], int]
DiscardAdd = Callable[[int, int, int, int, int, int, int], int]


def make_dds_weights(ctx: Context) -> Weights:
    """DDS's weights as a closure over the search's constants (four seats,
    seats 0 and 2 against 1 and 3): the lead's (with trumps left or
    without), second hand's, third hand's (following suit or not) and
    fourth hand's, each from a builder of its own."""
    group = ctx.group
    gmasks = ctx.gmasks
    tmask = ctx.tmask
    rank = [s + 2 for s in ctx.strength]
    summary = _make_summary(ctx, rank)
    top, bottom, low, beat, forces_top = _make_rank_helpers(rank)
    lead_no_trump = _make_lead_no_trump(ctx, rank, summary)
    lead_trumps = _make_lead_trumps(ctx, rank, summary)
    second_follows = _make_second_follows(ctx, rank, top, bottom, low)
    second_discards = _make_second_discards(ctx, rank, summary)
    third_follows = _make_third_follows(ctx, rank, top, bottom, low, beat, forces_top)
    third_discards = _make_third_discards(ctx, rank, summary, top)
    fourth = _make_fourth(ctx, rank, summary, low, beat)

    def weights(
        classes: Classes,
        hands: tuple[int, ...],
        seat: int,
        leader: int,
        trick: tuple[int, ...],
        win: int,
        rem: int,
        hint: int,
        killer: int,
    ) -> list[tuple[int, int]]:
        if not trick:
            if rem & tmask:
                return lead_trumps(classes, hands, seat, rem, hint, killer)
            return lead_no_trump(classes, hands, seat, rem, hint, killer)
        pos = len(trick)
        # the moves, highest first (as DDS generates them)
        moves = classes[::-1]
        if pos == 1:
            if hands[seat] & gmasks[group[trick[0]]]:
                return second_follows(moves, hands, seat, leader, trick, win, rem)
            return second_discards(moves, hands, seat, leader, trick, win, rem)
        if pos == 2:
            if hands[seat] & gmasks[group[trick[0]]]:
                return third_follows(moves, hands, seat, leader, trick, win, rem)
            return third_discards(moves, hands, seat, leader, trick, win, rem)
        return fourth(moves, hands, seat, leader, trick, win, rem)

    return weights


def _make_summary(ctx: Context, rank: list[int]) -> SummaryOf:
    """The :data:`Summary` of a group's holding, remembered in the table's
    ``summaries``: who holds its top three cards, how high its top two are,
    and its length in each hand."""
    memo: dict[tuple[int, int, int, int], Summary] = ctx.table.summaries

    def summary(parts: tuple[int, int, int, int]) -> Summary:
        """The :data:`Summary` of one group's cards in the four hands."""
        known = memo.get(parts)
        if known is not None:
            return known
        cards = parts[0] | parts[1] | parts[2] | parts[3]
        owners = [-1, -1, -1]
        ranks = [0, 0]
        for i in range(3):
            if not cards:
                break
            c = cards.bit_length() - 1
            t = 1 << c
            cards ^= t
            owners[i] = 0 if parts[0] & t else 1 if parts[1] & t else 2 if parts[2] & t else 3
            if i < 2:
                ranks[i] = rank[c]
        lengths = (
            parts[0].bit_count(),
            parts[1].bit_count(),
            parts[2].bit_count(),
            parts[3].bit_count(),
        )
        known = (owners[0], owners[1], owners[2], ranks[0], ranks[1], lengths)
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[parts] = known
        return known

    return summary


def _make_rank_helpers(rank: list[int]) -> tuple[Rank, Rank, Low, Beat, ForcesTop]:
    """What only reads the ranks of cards: the top and the bottom rank of a
    set of cards, the weights of moves lowest first or the winning ones
    first, and DDS's "force out the ace"."""

    def top(mask: int) -> int:
        """The rank of the highest card of ``mask`` (0 for none)."""
        return rank[mask.bit_length() - 1] if mask else 0

    def bottom(mask: int) -> int:
        """The rank of the lowest card of ``mask`` (0 for none)."""
        return rank[(mask & -mask).bit_length() - 1] if mask else 0

    def forces_top(theirs: int, others: int, win_r: int, second_wins: bool, moves: Classes) -> int:
        """DDS's "force out the ace": the index in ``moves`` (highest first)
        of the cheapest move that forces out the fourth hand's top cards
        (``theirs``; ``others``: the other cards of the group at the trick's
        start), else of the cheapest that beats second hand's winning card
        (``second_wins``; ``win_r``: the rank of the trick's winning card),
        or -1."""
        runs = classes_of(theirs, others)
        if len(runs) < 2:
            return -1
        second = rank[runs[-2][1]]
        if second > win_r:
            bar = second
        elif second_wins:
            bar = win_r
        else:
            return -1
        k = 0
        while k < len(moves) and rank[moves[k][1]] > bar:
            k += 1
        return k - 1

    def low(moves: Classes) -> list[tuple[int, int]]:
        """Weight ``-rank``: the lowest move first."""
        return [(rank[hi], lo) for lo, hi in moves]

    def beat(moves: Classes, w: int, above: int, also: int) -> list[tuple[int, int]]:
        """Weight ``w - rank`` for the moves above ``above`` and ``also``, else ``-rank``."""
        return [
            (rank[hi] - w if rank[hi] > above and rank[hi] > also else rank[hi], lo)
            for lo, hi in moves
        ]

    return top, bottom, low, beat, forces_top


def _discard_add(
    hand_len: int, seat: int, owner1: int, owner2: int, per: int, kx: int, ace: int
) -> int:
    """DDS's discard weight: long suits first, but not from a guarded
    second card (``kx``) or a bare top card (``ace``)."""
    add = (hand_len << 6) // per
    if hand_len == 2 and owner2 == seat:
        add -= kx
    elif hand_len == 1 and owner1 == seat:
        add -= ace
    return add


def _make_lead_no_trump(ctx: Context, rank: list[int], summary: SummaryOf) -> LeadWeights:
    """The leads' weights when no trump is left: cash a winner (the side's
    own or partner's top card), else lead a suit partner's second and third
    cards stand up in, away from the right-hand opponent's high card, and
    from long suits the opponents hold few cards of."""
    group = ctx.group
    gmasks = ctx.gmasks

    def lead_no_trump(
        classes: Classes,
        hands: tuple[int, ...],
        seat: int,
        rem: int,
        hint: int,
        killer: int,
    ) -> list[tuple[int, int]]:
        lh, pd, rh = (seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3
        h0, h1, h2, h3 = hands
        left = hands[seat].bit_count()
        out: list[tuple[int, int]] = []
        seen = -1
        for lo, hi in classes:
            g = group[lo]
            if g != seen:
                seen = g
                gm = gmasks[g]
                cards = rem & gm
                w_hand, s_hand, t_hand, w_rank, s_rank, lengths = summary(
                    (h0 & gm, h1 & gm, h2 & gm, h3 & gm)
                )
                len_lh = lengths[lh]
                len_rh = lengths[rh]
                len_pd = lengths[pd]
                count = ((len_lh or left) + (len_rh or left)) << 7
                pd_tops = (hands[pd] & gm) > ((hands[lh] | hands[rh]) & gm)
                base = -(count // 19) - (0 if len_pd else 9)
                win_delta = base
                if s_hand == rh:
                    if len_rh != 1:
                        win_delta -= 1
                elif s_hand == lh:
                    win_delta += 22 if len_lh != 1 else 16
                win_top = (
                    45 if (s_hand != lh or len_lh == 1) and (s_hand != rh or len_rh == 1) else 18
                )
                delta = base
                if w_hand == rh or s_hand == rh:
                    if len_rh != 1:
                        delta -= 10
                elif w_hand == lh and s_hand == pd and len_pd != 1:
                    delta += 31
                if s_hand == pd and t_hand == pd:
                    delta += 35
                elif len_pd > 1 and (
                    (s_hand == seat and t_hand == pd) or (s_hand == pd and t_hand == seat)
                ):
                    delta += 25
                stiff_top = (len_lh == 1 and w_hand == lh) or (len_rh == 1 and w_hand == rh)
            r = rank[hi]
            rr = (cards >> (hi + 1)).bit_count() + 1
            seq = lo != hi
            is_killer = killer >= 0 and lo <= killer <= hi and group[killer] == g
            is_hint = hint >= 0 and lo <= hint <= hi and group[hint] == g
            if w_rank == r or pd_tops:
                w = win_delta + win_top + rr
                if is_killer:
                    w += 126
                elif is_hint:
                    w += 32
            else:
                if stiff_top:
                    w = delta + 28 + rr
                elif w_hand == seat:
                    w = delta - 17 + rr
                elif not seq:
                    w = delta + 12 + rr
                elif r == s_rank:
                    w = delta + 48
                else:
                    w = delta + 29 - rr
                if is_killer:
                    w += 47
                elif is_hint:
                    w += 19
            out.append((-w, lo))
        return out

    return lead_no_trump


def _make_lead_trumps(ctx: Context, rank: list[int], summary: SummaryOf) -> LeadWeights:
    """The leads' weights while trumps are left: a lead that wins the trick
    (a top card nobody ruffs, partner's top card, partner's ruff) by the
    kind of winner, else by how little it gives away; leads the opponents
    ruff weigh less, leads that give partner a ruff (now or on the return)
    more."""
    group = ctx.group
    gmasks = ctx.gmasks
    tgroup = ctx.tgroup
    tmask = ctx.tmask

    def lead_trumps(
        classes: Classes,
        hands: tuple[int, ...],
        seat: int,
        rem: int,
        hint: int,
        killer: int,
    ) -> list[tuple[int, int]]:
        lh, pd, rh = (seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3
        h0, h1, h2, h3 = hands
        left = hands[seat].bit_count()
        t_me = hands[seat] & tmask
        t_lh = hands[lh] & tmask
        t_rh = hands[rh] & tmask
        t_pd = hands[pd] & tmask
        out: list[tuple[int, int]] = []
        seen = -1
        for lo, hi in classes:
            g = group[lo]
            if g != seen:
                seen = g
                gm = gmasks[g]
                cards = rem & gm
                w_hand, s_hand, t_hand, w_rank, s_rank, lengths = summary(
                    (h0 & gm, h1 & gm, h2 & gm, h3 & gm)
                )
                len_me = lengths[seat]
                len_lh = lengths[lh]
                len_rh = lengths[rh]
                len_pd = lengths[pd]
                count = ((len_lh or left) + (len_rh or left)) << 7
                pd_tops = (hands[pd] & gm) > ((hands[lh] | hands[rh]) & gm)
                plain = g != tgroup
                bonus = 0
                if plain and ((not len_lh and t_lh) or (not len_rh and t_rh)):
                    bonus = -12  # an opponent ruffs
                if plain and not len_pd and t_pd and len_rh:
                    bonus += 17  # partner ruffs
                if w_hand == rh or s_hand == rh:
                    if len_rh != 1:
                        bonus -= 12
                elif w_hand == lh and s_hand == pd and len_pd != 1:
                    bonus += 27
                if plain and len_me == 1 and t_me and len_pd > 1 and w_hand == pd:
                    bonus += 19  # partner wins and returns the suit for a ruff
                delta = bonus - count // 13
                lose_delta = delta
                if s_hand == pd and t_hand == pd:
                    lose_delta += 20
                elif len_pd > 1 and (
                    (s_hand == seat and t_hand == pd) or (s_hand == pd and t_hand == seat)
                ):
                    lose_delta += 13
                stiff_top = (len_lh == 1 and w_hand == lh) or (len_rh == 1 and w_hand == rh)
                # a winner of the suit led surely wins when no opponent ruffs
                safe = (len_lh or not t_lh) and (len_rh or not t_rh)
                if not plain:
                    top_wins = pd_wins = True
                else:
                    if len_pd or not t_pd:
                        top_wins = bool(safe)
                    else:
                        top_wins = bool((len_lh or t_pd > t_lh) and (len_rh or t_pd > t_rh))
                    pd_wins = bool(safe)
                ruff_wins = False
                if plain and not len_pd and t_pd:
                    if not len_lh and t_lh and not len_rh and t_rh:
                        ruff_wins = t_pd > (t_lh | t_rh)
                    elif not len_lh and t_lh:
                        ruff_wins = t_pd > t_lh
                    elif not len_rh and t_rh:
                        ruff_wins = t_pd > t_rh
                    else:
                        ruff_wins = True
            r = rank[hi]
            rr = (cards >> (hi + 1)).bit_count() + 1
            seq = lo != hi
            is_killer = killer >= 0 and lo <= killer <= hi and group[killer] == g
            is_hint = hint >= 0 and lo <= hint <= hi and group[hint] == g
            if top_wins if w_rank == r else pd_wins if pd_tops else ruff_wins:
                if stiff_top:
                    w = delta + 35 + rr
                elif w_hand == seat:
                    if s_hand == pd:
                        w = delta + 48 + rr
                    elif w_rank == r:
                        w = delta + 31
                    else:
                        w = delta - 3 + rr
                elif w_hand == pd:
                    w = delta + (42 if s_hand == seat else 28) + rr
                elif seq and r == s_rank:
                    w = delta + 40
                elif seq:
                    w = delta + 22 + rr
                else:
                    w = delta + 11 + rr
                if is_killer:
                    w += 55
                elif is_hint:
                    w += 18
            else:
                if stiff_top:
                    w = lose_delta + rr + 2
                elif w_hand == seat:
                    if s_hand == pd:
                        w = lose_delta + 33 + rr
                    elif w_rank == r:
                        w = lose_delta + 38
                    else:
                        w = lose_delta - 14 + rr
                elif w_hand == pd:
                    w = lose_delta + 34 + rr
                elif seq and r == s_rank:
                    w = lose_delta + 35
                else:
                    w = lose_delta + 17 - r
                if is_killer:
                    w += 18
            out.append((-w, lo))
        return out

    return lead_trumps


def _make_second_follows(
    ctx: Context, rank: list[int], top: Rank, bottom: Rank, low: Low
) -> FollowWeights:
    """Second hand's weights when it follows suit: low when partner (fourth
    hand) wins the trick anyway, else win it cheaply above third hand (with
    trumps left: when nobody after it ruffs it, or partner does), else give
    away the lowest card."""
    group = ctx.group
    gmasks = ctx.gmasks
    tgroup = ctx.tgroup
    tmask = ctx.tmask

    def second_follows(
        moves: Classes,
        hands: tuple[int, ...],
        seat: int,
        leader: int,
        trick: tuple[int, ...],
        win: int,
        rem: int,
    ) -> list[tuple[int, int]]:
        lead = trick[0]
        lg = group[lead]
        lmask = gmasks[lg]
        lead_r = rank[lead]
        out: list[tuple[int, int]] = []
        third, pd = (leader + 2) & 3, (leader + 3) & 3
        max3 = top(hands[third] & lmask)
        maxpd = top(hands[pd] & lmask)
        min3 = bottom(hands[third] & lmask)
        minpd = bottom(hands[pd] & lmask)
        if not rem & tmask:
            if maxpd > lead_r and maxpd > max3:
                return low(moves)  # partner wins: play low
            for lo, hi in moves:
                r = rank[hi]
                if r > lead_r and r > max3:
                    w = 81 - r
                elif min3 > r or minpd > r:
                    w = -3 + ((rem & lmask) >> (hi + 1)).bit_count() + 1
                elif r < lead_r:
                    w = -11 + ((rem & lmask) >> (hi + 1)).bit_count() + 1
                elif lo != hi:
                    w = 10 + ((rem & lmask) >> (hi + 1)).bit_count() + 1
                else:
                    w = 13 - r
                out.append((-w, lo))
            return out
        lead_trump = lg == tgroup
        t3 = hands[third] & tmask
        tpd = hands[pd] & tmask
        pd_over = maxpd > lead_r and maxpd > max3
        lead_over = maxpd > 0 and (hands[leader] & lmask) > (hands[pd] & lmask)
        for lo, hi in moves:
            r = rank[hi]
            rr = ((rem & lmask) >> (hi + 1)).bit_count() + 1
            if lead_trump:
                win_move = pd_over or (r > lead_r and r > max3)
            elif r > lead_r and r > max3:
                win_move = bool(max3 or not t3 or (not maxpd and tpd and tpd > t3))
            elif pd_over:
                win_move = bool(max3 or not t3)
            elif lead_r > maxpd and lead_r > max3 and lead_r > r:
                win_move = bool(not maxpd and tpd and (max3 or not t3 or tpd > t3))
            else:
                win_move = bool(not maxpd and tpd)
            if win_move:
                if min3 > r:
                    w = 40 + rr
                elif maxpd > lead_r and lead_over:
                    w = 41 + rr
                elif r > lead_r:
                    if r < maxpd:
                        w = 78 - r
                    elif r > max3:
                        w = 73 - r
                    elif lo != hi:
                        w = 62 - r
                    else:
                        w = 49 - r
                elif maxpd > 0:
                    w = 47 - r
                else:
                    w = 40 - r
            elif r < min3 or r < minpd:
                w = -9 + rr
            elif r < lead_r:
                w = -16 + rr
            elif lo != hi:
                w = 22 - r
            else:
                w = 10 - r
            out.append((-w, lo))
        return out

    return second_follows


def _make_second_discards(ctx: Context, rank: list[int], summary: SummaryOf) -> FollowWeights:
    """Second hand's weights when void in the suit led: discards from long
    suits (keeping a guarded king and a bare ace), and ruffs, above all when
    third hand follows suit or partner (fourth hand) cannot win the trick."""
    group = ctx.group
    gmasks = ctx.gmasks
    tgroup = ctx.tgroup
    tmask = ctx.tmask
    discard_add = _discard_add

    def second_discards(
        moves: Classes,
        hands: tuple[int, ...],
        seat: int,
        leader: int,
        trick: tuple[int, ...],
        win: int,
        rem: int,
    ) -> list[tuple[int, int]]:
        lead = trick[0]
        lg = group[lead]
        lmask = gmasks[lg]
        trumps = rem & tmask
        lead_trump = lg == tgroup
        h0, h1, h2, h3 = hands
        out: list[tuple[int, int]] = []
        third, pd = (leader + 2) & 3, (leader + 3) & 3
        pd_wins = (hands[pd] & lmask) > ((hands[third] & lmask) | (1 << lead))
        seen = -1
        for lo, hi in moves:
            g = group[lo]
            if g != seen:
                seen = g
                gm = gmasks[g]
                w_hand, s_hand, _t, _w, _s, lengths = summary((h0 & gm, h1 & gm, h2 & gm, h3 & gm))
                count = lengths[seat]
                if not trumps:
                    if pd_wins:
                        add = discard_add(count, seat, w_hand, s_hand, 23, 2, 3)
                    else:
                        add = discard_add(count, seat, w_hand, s_hand, 33, 6, 8)
                elif lead_trump:
                    if pd_wins:
                        add = (count << 6) // 44
                    else:
                        add = discard_add(count, seat, -2, s_hand, 36, 4, 0)
                elif g != tgroup:
                    if hands[third] & lmask:
                        sure = pd_wins or (not hands[pd] & lmask and hands[pd] & tmask)
                    elif not hands[pd] & lmask and (hands[pd] & tmask) > (hands[third] & tmask):
                        sure = True
                    else:
                        sure = not hands[third] & tmask and (hands[pd] & lmask) > (1 << lead)
                    if sure:
                        add = 60 + (count << 6) // 44
                    else:
                        add = -2 + discard_add(count, seat, -2, s_hand, 36, 4, 0)
                else:
                    add = 0
            r = rank[hi]
            if not trumps or lead_trump or g != tgroup:
                out.append((r - add, lo))
                continue
            # a ruff
            t3 = hands[third] & tmask
            if (
                hands[third] & lmask
                or (not hands[pd] & lmask and hands[pd] & tmask and (hands[pd] & tmask) > t3)
                or (1 << hi) > t3
            ):
                w = 24 - r + (count << 6) // 44
            else:
                w = 15 - r + discard_add(count, seat, -2, s_hand, 36, 4, 0)
            out.append((-w, lo))
        return out

    return second_discards


def _make_third_follows(
    ctx: Context,
    rank: list[int],
    top: Rank,
    bottom: Rank,
    low: Low,
    beat: Beat,
    forces_top: ForcesTop,
) -> FollowWeights:
    """Third hand's weights when it follows suit: low when partner's card
    (the lead) wins or nothing can win, overtaking a singleton lead to run a
    suit that stands up; else win above fourth hand as cheaply as possible,
    or force out fourth hand's top card as cheaply as possible."""
    group = ctx.group
    gmasks = ctx.gmasks
    tgroup = ctx.tgroup
    tmask = ctx.tmask

    def third_follows(
        moves: Classes,
        hands: tuple[int, ...],
        seat: int,
        leader: int,
        trick: tuple[int, ...],
        win: int,
        rem: int,
    ) -> list[tuple[int, int]]:
        lead = trick[0]
        lg = group[lead]
        lmask = gmasks[lg]
        lead_r = rank[lead]
        win_r = rank[win]
        fourth = (leader + 3) & 3
        theirs = hands[fourth] & lmask
        max4 = top(theirs)
        min4 = bottom(theirs)
        max3 = rank[moves[0][1]]
        partner_wins = win == lead
        others = rem & lmask & ~theirs
        bonus = -1
        if not rem & tmask:
            if partner_wins and lead_r > max4:
                out = low(moves)
                mine = hands[seat] & lmask
                if not hands[leader] & lmask and mine > (rem & lmask & ~mine):
                    # partner led a singleton below our top cards:
                    # overtake to run the suit when it stands up
                    opp = max(
                        theirs.bit_count() - 1,
                        (hands[(leader + 1) & 3] & lmask).bit_count(),
                    )
                    runs = classes_of(mine, rem & lmask & ~mine & ~(1 << lead))
                    t_lo, t_hi = runs[-1]
                    top_number = (mine & ((2 << t_hi) - (1 << t_lo))).bit_count() - 1
                    if opp <= top_number:
                        mno = 0
                        while mno < len(moves) - 1 and rank[moves[mno + 1][1]] > lead_r:
                            mno += 1
                        out[mno] = (out[mno][0] - 20, out[mno][1])
                return out
            if max3 < min4 or max3 < win_r:
                return low(moves)
            if max4 > max3 and max4 > win_r:
                bonus = forces_top(theirs, others, win_r, not partner_wins, moves)
        elif lg == tgroup:
            if (partner_wins and lead_r > max4) or max3 < min4 or max3 < win_r:
                return low(moves)
            if max3 > max4:
                return beat(moves, 58, max4, win_r)
            out = low(moves)
            bonus = forces_top(theirs, others, win_r, not partner_wins, moves)
            if bonus >= 0:
                out[bonus] = (out[bonus][0] - 20, out[bonus][1])
            return out
        elif group[win] == tgroup:
            return low(moves)  # second hand ruffed: follow low
        elif partner_wins:
            if not max4 or lead_r > max4 or max3 < min4 or max3 < win_r:
                return low(moves)
            if max3 > max4:
                return beat(moves, 58, max4, 0)
            bonus = forces_top(theirs, others, win_r, False, moves)
        else:
            if not max4:
                return beat(moves, 20, win_r, 0)
            if max3 < min4 or max3 < win_r:
                return low(moves)
            if max3 > max4:
                return beat(moves, 58, win_r, max4)
            bonus = forces_top(theirs, others, win_r, True, moves)
        out = beat(moves, 60, win_r, max4)
        if bonus >= 0:
            out[bonus] = (out[bonus][0] - 20, out[bonus][1])
        return out

    return third_follows


def _make_third_discards(
    ctx: Context, rank: list[int], summary: SummaryOf, top: Rank
) -> FollowWeights:
    """Third hand's weights when void in the suit led: discards from long
    suits; ruffs unless partner's lead surely wins, overruffs, and
    underruffs last."""
    group = ctx.group
    gmasks = ctx.gmasks
    tgroup = ctx.tgroup
    tmask = ctx.tmask
    discard_add = _discard_add

    def third_discards(
        moves: Classes,
        hands: tuple[int, ...],
        seat: int,
        leader: int,
        trick: tuple[int, ...],
        win: int,
        rem: int,
    ) -> list[tuple[int, int]]:
        lead = trick[0]
        lg = group[lead]
        lmask = gmasks[lg]
        lead_r = rank[lead]
        win_r = rank[win]
        wg = group[win]
        trumps = rem & tmask
        lead_trump = lg == tgroup
        h0, h1, h2, h3 = hands
        out: list[tuple[int, int]] = []
        fourth = (leader + 3) & 3
        max4 = top(hands[fourth] & lmask)
        t4 = hands[fourth] & tmask
        seen = -1
        for lo, hi in moves:
            g = group[lo]
            if g != seen:
                seen = g
                gm = gmasks[g]
                w_hand, s_hand, _t, _w, _s, lengths = summary((h0 & gm, h1 & gm, h2 & gm, h3 & gm))
                count = lengths[seat]
            r = rank[hi]
            if not trumps:
                out.append((r - discard_add(count, seat, w_hand, s_hand, 24, 4, 4), lo))
                continue
            if lead_trump or g != tgroup:
                w = -r + (count << 6) // 40
            elif win == lead and lead_r > max4 and (max4 or not t4):
                w = -r - 50  # do not ruff partner's sure winner
            elif wg == tgroup and r < win_r:
                w = -32 + ((rem & gm) >> (hi + 1)).bit_count() + 1
                w += (count << 6) // 40  # an underruff
            elif win == lead:
                if max4:
                    s_lead = summary((h0 & lmask, h1 & lmask, h2 & lmask, h3 & lmask))[1]
                    w = (36 if s_lead == leader else 48) - r + (count << 6) // 50
                elif (1 << hi) > t4:
                    w = 48 - r + (count << 6) // 50
                else:
                    w = -12 - r + (count << 6) // 50
            elif max4:
                w = 72 - r + (count << 6) // 50
            elif (1 << hi) > t4:
                w = 48 - r + (count << 6) // 50
            else:
                w = 36 - r + (count << 6) // 50
            out.append((-w, lo))
        return out

    return third_discards


def _make_fourth(
    ctx: Context, rank: list[int], summary: SummaryOf, low: Low, beat: Beat
) -> FollowWeights:
    """Fourth hand's weights: following suit, win as cheaply as possible
    unless partner wins (or second hand ruffed), else low; void, ruff (or
    overruff) cheaply unless partner wins, else discard from long suits."""
    group = ctx.group
    gmasks = ctx.gmasks
    tgroup = ctx.tgroup
    tmask = ctx.tmask
    discard_add = _discard_add

    def fourth(
        moves: Classes,
        hands: tuple[int, ...],
        seat: int,
        leader: int,
        trick: tuple[int, ...],
        win: int,
        rem: int,
    ) -> list[tuple[int, int]]:
        lg = group[trick[0]]
        win_r = rank[win]
        wg = group[win]
        lead_trump = lg == tgroup
        partner_wins = win == trick[1]
        if hands[seat] & gmasks[lg]:
            if partner_wins or (not lead_trump and wg == tgroup):
                return low(moves)
            return beat(moves, 30, win_r, 0)
        trumps = rem & tmask
        h0, h1, h2, h3 = hands
        out: list[tuple[int, int]] = []
        seen = -1
        for lo, hi in moves:
            g = group[lo]
            if g != seen:
                seen = g
                gm = gmasks[g]
                w_hand, s_hand, _t, _w, _s, lengths = summary((h0 & gm, h1 & gm, h2 & gm, h3 & gm))
                count = lengths[seat]
            r = rank[hi]
            if not trumps:
                out.append((r - discard_add(count, seat, w_hand, s_hand, 27, 6, 8), lo))
                continue
            add = discard_add(count, seat, -2, s_hand, 24, 2, 0)
            if lead_trump:
                w = -r + add
            elif partner_wins:
                w = (2 if g == tgroup else 25) - r + add
            elif wg == tgroup:
                if g == tgroup:
                    rr = ((rem & gm) >> (hi + 1)).bit_count() + 1
                    w = 33 + rr if r > win_r else -13 + rr
                else:
                    w = 14 - r + add
            elif g == tgroup:
                w = 33 + ((rem & gm) >> (hi + 1)).bit_count() + 1
            else:
                w = 14 - r + add
            out.append((-w, lo))
        return out

    return fourth
