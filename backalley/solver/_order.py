"""Move ordering: the legal cards of a seat, one per class of equivalent
cards, best guesses first.

Cards of one group in one hand with no card of another hand (or on the
table) between them are one move (*rank equivalence*), except that a card
special on the lead is a move of its own, and each card of a group whose
plays read the history is one (see :mod:`backalley.solver._plan`).  The
guesses follow Haglund's DDS: at the lead, cash the side's winners, lead
towards a partner's winner or a partner's ruff, force out a single higher
card with a sequence, keep away from suits an opponent ruffs; later, when
the other side holds the trick, the cheapest card that surely wins it, then
the cheapest that takes it for now, then low cards; when a later partner
surely takes it, low cards; discard low cards of groups without winners.
"""

from __future__ import annotations

from collections.abc import Callable

from backalley.solver._classes import Classes, classes_of
from backalley.solver._context import Context
from backalley.solver._table import MEMO_LIMIT
from backalley.solver._weights import make_dds_weights

__all__ = ["make_order"]


Order = Callable[
    [int, tuple[int, ...], int, int, tuple[int, ...], int, int, int],
    tuple[list[int], Classes],
]
"""order(cards, hands, seat, leader, trick, win, rem, killer) -> (the moves,
best first; the classes of more than one card, as (lowest, highest)).
``win``: the trick's winning card so far, or at the lead the lead the table
stored as best (or -1); ``killer``: at the lead, the lead that last cut the
search off with as many tricks left (or -1)."""


def make_order(ctx: Context) -> Order:
    """The move ordering of one search, as a closure over its constants."""
    n = ctx.n
    is_max = ctx.is_max
    fast = ctx.fast
    group = ctx.group
    strength = ctx.strength
    gmasks = ctx.gmasks
    tmask = ctx.tmask
    tgroup = ctx.tgroup
    lspecial = ctx.lspecial
    hmask = ctx.hmask
    class_memo = ctx.table.classes
    # four seats in two partnerships (bridge's shape): DDS's own weights
    dds4 = fast and n == 4 and is_max[0] == is_max[2] != is_max[1] == is_max[3]
    dds = make_dds_weights(ctx) if dds4 else None

    def split_special(classes: list[tuple[int, int]], cards: int) -> list[tuple[int, int]]:
        """``classes`` with each card special on the lead a class of its own."""
        out: list[tuple[int, int]] = []
        for lo, hi in classes:
            inside = cards & gmasks[group[lo]] & ((2 << hi) - (1 << lo))
            if lo == hi or not inside & lspecial:
                out.append((lo, hi))
                continue
            run = -1
            prev = -1
            while inside:
                low = inside & -inside
                inside ^= low
                c = low.bit_length() - 1
                if lspecial & low:
                    if run >= 0:
                        out.append((run, prev))
                        run = -1
                    out.append((c, c))
                else:
                    if run < 0:
                        run = c
                    prev = c
            if run >= 0:
                out.append((run, prev))
        return out

    def classes_in(mine: int, others: int) -> tuple[Classes, Classes]:
        """The classes of equivalent cards among ``mine`` (cards of one group;
        ``others``: the group's cards in the other hands and on the table),
        and of them those of more than one card."""
        if mine & hmask:  # the cards played decide what a lead forces: each card a move
            runs = tuple([(c, c) for c in range(54) if mine >> c & 1])
        else:
            runs = classes_of(mine, others)
        if mine & lspecial and not mine & hmask:
            # a special card is its own move, leading or not: which
            # of them is kept decides what a later lead of it forces
            runs = tuple(split_special(list(runs), mine))
        return runs, tuple([cl for cl in runs if cl[0] != cl[1]])

    def order(
        cards: int,
        hands: tuple[int, ...],
        seat: int,
        leader: int,
        trick: tuple[int, ...],
        win: int,
        rem: int,
        killer: int = -1,
    ) -> tuple[list[int], Classes]:
        """The legal cards, one per class of equivalent cards, best guesses
        first; and the classes of more than one card, as (lowest, highest).

        The guesses follow DDS: at the lead, cash the side's winners, lead
        towards a partner's winner or a partner's ruff, force out a single
        higher card with a sequence, avoid suits an opponent ruffs; later,
        when the other side holds the trick, the cheapest card that surely
        wins it, then the cheapest that takes it for now, then low cards;
        when the side holds it, a card that surely keeps it, else low cards;
        discard low cards of groups without winners.
        """
        if not fast:
            out = []
            while cards:
                low = cards & -cards
                cards ^= low
                out.append(low.bit_length() - 1)
            return out, ()
        hand = hands[seat]
        others = rem & ~hand
        classes: tuple[tuple[int, int], ...] = ()
        spans: tuple[tuple[int, int], ...] = ()
        for gm in gmasks:
            mine = cards & gm
            if not mine:
                continue
            ckey = (mine, others & gm)
            found = class_memo.get(ckey)
            if found is None:
                found = classes_in(mine, others & gm)
                if len(class_memo) >= MEMO_LIMIT:
                    class_memo.clear()
                class_memo[ckey] = found
            classes += found[0]
            spans += found[1]
        if len(classes) == 1:
            return [classes[0][0]], spans
        if dds is not None:
            if trick:
                scored = dds(classes, hands, seat, leader, trick, win, rem, -1, -1)
            else:
                scored = dds(classes, hands, seat, leader, trick, -1, rem, win, killer)
            scored.sort()
            return [c for _k, c in scored], spans
        side = is_max[seat]
        weighted: list[tuple[int, int]] = []
        if not trick:
            seen_group = -1
            for lo, hi in classes:
                g = group[lo]
                gm = gmasks[g]
                if g != seen_group:
                    seen_group = g
                    lowest = True
                    danger = False
                    ruff = False
                    opp_trumps = False
                    if tmask:
                        for s in range(n):
                            if s == seat:
                                continue
                            h = hands[s]
                            if h & tmask:
                                if is_max[s] != side:
                                    opp_trumps = True
                                    if g != tgroup and not h & gm:
                                        danger = True
                                elif g != tgroup and not h & gm:
                                    ruff = True
                else:
                    lowest = False
                higher = others & gm & ~((2 << hi) - 1)
                if not higher:
                    if g == tgroup:
                        w = 70 if opp_trumps else 5
                    else:
                        w = 5 if danger else 80
                else:
                    top = 1 << (higher.bit_length() - 1)
                    owner = 0
                    while not hands[owner] & top:
                        owner += 1
                    if is_max[owner] == side:
                        w = 60 if lowest else 20
                    elif higher == top and lo != hi:
                        w = 45
                    elif lowest:
                        w = 35
                    else:
                        w = 10
                    if danger:
                        w -= 30
                    elif ruff:
                        w += 30
                    if g == tgroup:
                        w -= 15
                weighted.append((-w * 64 + (-strength[lo] if not higher else strength[lo]), lo))
        else:
            pos = len(trick)
            wg = group[win]
            ws = strength[win]
            lg = group[trick[0]]
            lmask = gmasks[lg]
            wseat = (leader + trick.index(win)) % n
            ours = is_max[wseat] == side
            later = (hands + hands)[seat + 1 : seat + n - pos]
            # a card surely wins the trick when no later hand holds a higher
            # card of its group and follows (or, for the group led, may ruff)
            later_all = 0  # the later hands' cards
            later_void = 0  # the cards of later hands void in the group led
            for h in later:
                later_all |= h
                if not h & lmask:
                    later_void |= h
            lead_ruffed = lg != tgroup and later_void & tmask
            if ours:
                above = gmasks[wg] & ~((2 << win) - 1)
                if wg == lg:
                    partner_safe = not (later_all & above or lead_ruffed)
                else:
                    partner_safe = not later_void & above
            else:
                partner_safe = False
            if not partner_safe and wg == lg:
                # a later partner surely takes the trick (its top card of the
                # group led beats the card winning it so far and every later
                # opponent's card, and no later opponent can ruff): play low
                for k, h in enumerate(later):
                    if is_max[(seat + 1 + k) % n] != side:
                        continue
                    top = h & lmask
                    if not top:
                        continue
                    t = top.bit_length() - 1
                    if strength[t] <= ws:
                        continue
                    above_t = lmask & ~((2 << t) - 1)
                    for k2, h2 in enumerate(later):
                        if k2 == k or is_max[(seat + 1 + k2) % n] == side:
                            continue
                        if h2 & above_t or (lg != tgroup and not h2 & lmask and h2 & tmask):
                            break
                    else:
                        partner_safe = True
                        break
            for lo, hi in classes:
                g = group[lo]
                st = strength[lo]
                if g == wg:
                    beats = st > ws
                else:
                    beats = g == tgroup
                ruffing = g == tgroup and lg != tgroup
                if partner_safe:
                    w = -st - (100 if ruffing else 0)
                    if g != lg and not ruffing:
                        # a discard: keep the winners of a group and the
                        # length of long groups, throw from short ones
                        if not (others & gmasks[g] & ~((2 << hi) - 1)):
                            w -= 40
                        w -= 3 * (hand & gmasks[g]).bit_count()
                elif beats and (
                    not (later_all & gmasks[g] & ~((2 << hi) - 1) or lead_ruffed)
                    if g == lg
                    else not later_void & gmasks[g] & ~((2 << hi) - 1)
                ):
                    w = 200 - st  # surely wins the trick
                elif beats and not ours:
                    w = 150 - st
                else:
                    w = 60 - st - (50 if ruffing or g == tgroup else 0)
                    if g != lg and not (others & gmasks[g] & ~((2 << hi) - 1)):
                        w -= 40  # a winner of its group: keep it
                weighted.append((-w, lo))
        weighted.sort()
        moves = [c for _k, c in weighted]
        if not trick and win >= 0:
            # the stored lead first (it may stand for its class under another card)
            for i, c in enumerate(moves):
                if c == win or (
                    group[c] == group[win] and any(lo == c and lo <= win <= hi for lo, hi in spans)
                ):
                    moves.insert(0, moves.pop(i))
                    break
        return moves, spans

    return order
