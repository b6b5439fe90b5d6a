"""The search: a zero-window alpha-beta over the play, one card at a time.

``Search(position, seat)`` answers questions about one deal position for one
side (``seat``'s side, the *maximising* side; every other seat minimises its
tricks).  :meth:`Search.value` finds the number of tricks by zero-window
tests "can the side take at least ``t`` of the remaining tricks?", which
share one transposition table: the first one trick above a guess (a playout
of each seat's first-ordered card), the next ones a step towards the answer.

Techniques (after Bo Haglund's double-dummy solver):

- **Transposition table**, consulted at the start of each trick and keyed by
  the leader, whether trump is broken, and the hands with ranks made
  relative (for each group, the owners of its remaining cards in strength
  order), so positions that differ only in cards already played are one
  entry.  An entry holds a lower and an upper bound on the side's tricks;
  a bucket's entries are indexed by their mask, then their value, and the
  masks with the fewest relevant cards are probed first.
- **Rank equivalence**: cards of one group in one hand with no card of
  another hand (or on the table) between them are one move - except, at the
  lead, a card special on the lead (see :mod:`backalley.solver._plan`).
- **Quick tricks**: at the start of a trick, the leader's sure winners (top
  cards of a group, capped where an opponent could trump) give a lower bound
  for the leader's side, or an upper bound for the other.
- **Sure trump tricks** (DDS's "later tricks"): each side's trumps that the
  other side's higher trumps cannot all cover are tricks for it, whoever
  leads: a lower bound for that side, an upper bound for the other.
- **Move ordering**: winners and leads towards a partner's winner first; in
  second to last seat, the cheapest card that wins when the trick is not
  already the side's (low when a later partner surely wins it), else the
  cheapest card, keeping winners and long groups when discarding.

Legality always comes from the rule set (:func:`backalley.solver._rules.legal_mask`);
trick winners from the rule set's trick winner, through the groups of
:mod:`backalley.solver._plan` when those fit (else by asking it per trick).
"""

from __future__ import annotations

from collections.abc import Callable

from backalley.solver import _rules
from backalley.solver._plan import Plan, plan_for

__all__ = ["Search"]

_MEMO_LIMIT = 1 << 20
_RESULT = 1 << 60
"""The bit of a search answer that says "the target is reached"; the bits
below it are the answer's relevant cards (see :func:`_make_test`)."""
_CARDS = (1 << 54) - 1
_HOLDINGS: dict[tuple[int, ...], tuple[int, int, int]] = {}
"""Codes of one group's holdings (bounded; shared, pure): see :func:`_holding`."""


def _holding(parts: tuple[int, ...], bits: int) -> tuple[int, int, int]:
    """One group's cards in the hands ``parts``: (the owners of its remaining
    cards, highest first, ``bits`` bits each; ``bits`` times how many remain;
    the number of cards of each hand, packed 6 bits each)."""
    union = 0
    lengths = 0
    for part in parts:
        union |= part
        lengths = (lengths << 6) | part.bit_count()
    code = 0
    total = 0
    while union:
        top = 1 << (union.bit_length() - 1)
        union ^= top
        owner = 0
        while not parts[owner] & top:
            owner += 1
        code = (code << bits) | owner
        total += 1
    if len(_HOLDINGS) >= _MEMO_LIMIT:
        _HOLDINGS.clear()
    answer = (code, bits * total, lengths)
    _HOLDINGS[parts] = answer
    return answer


def _classes(mine: int, others: int) -> tuple[tuple[int, int], ...]:
    """The classes of equivalent cards among ``mine`` (cards of one group):
    runs with no card of ``others`` between them, as (lowest, highest)."""
    out = []
    rep = prev = -1
    while mine:
        low = mine & -mine
        mine ^= low
        c = low.bit_length() - 1
        if prev >= 0 and not others & (low - (2 << prev)):
            prev = c
            continue
        if rep >= 0:
            out.append((rep, prev))
        rep = prev = c
    out.append((rep, prev))
    return tuple(out)


class Search:
    """Exact search of one position for the side of ``seat``."""

    def __init__(self, position: _rules.Position, seat: int) -> None:
        rules = position.rules
        trump = position.trump
        plan = plan_for(rules, trump)
        teams = _rules.seat_teams(rules)
        self.position = position
        self.players = len(teams)
        self.is_max = tuple(team == teams[seat] for team in teams)
        self.nodes = 0
        self.test: Callable[[tuple[int, ...], int, bool, tuple[int, ...], int, int], bool]
        self.guess: Callable[[tuple[int, ...], int, bool, tuple[int, ...]], int]
        self.release: Callable[[], None]
        """Empty the search's tables (its inner functions refer to each other,
        so without this only the garbage collector frees them, and until then
        every collection walks them)."""
        self.test, self.guess, self.release = _make_test(position, plan, self.is_max, self)

    def value(
        self, hands: tuple[int, ...], leader: int, broken: bool, trick: tuple[int, ...]
    ) -> int:
        """The side's tricks among the remaining ones (the current trick included)."""
        n = self.players
        left = hands[(leader + len(trick)) % n].bit_count()
        lo, hi = 0, left
        # test one above the guess first (the playout tends to fall short of
        # the answer by a trick or so; over 50 deals this makes the fewest
        # tests), then step by one towards the answer
        target = min(self.guess(hands, leader, broken, trick) + 1, left)
        while lo < hi:
            if self.test(hands, leader, broken, trick, left, target):
                lo = target
                target += 1
            else:
                hi = target - 1
                target -= 1
        return lo

    def after(
        self, hands: tuple[int, ...], leader: int, broken: bool, trick: tuple[int, ...], card: int
    ) -> int:
        """The side's tricks among the remaining ones once ``card`` is played now."""
        n = self.players
        seat = (leader + len(trick)) % n
        left = hands[seat].bit_count()
        new = list(hands)
        new[seat] ^= 1 << card
        hands = tuple(new)
        trick = (*trick, card)
        if len(trick) < n:
            return self.value(hands, leader, broken, trick)
        position = self.position
        rules, trump = position.rules, position.trump
        winner = (leader + _rules.trick_winner(rules, trick, trump)) % n
        broken = broken or _rules.breaks_trump(rules, trick, trump)
        won = 1 if self.is_max[winner] else 0
        if left == 1:
            return won
        return won + self.value(hands, winner, broken, ())


def _make_test(
    position: _rules.Position, plan: Plan, is_max: tuple[bool, ...], counter: Search
) -> tuple[
    Callable[[tuple[int, ...], int, bool, tuple[int, ...], int, int], bool],
    Callable[[tuple[int, ...], int, bool, tuple[int, ...]], int],
    Callable[[], None],
]:
    """The zero-window test, a first guess and a release of the tables, as
    closures over the position's constants.

    The inner functions answer with an int: bit 60 (``_RESULT``) set when the
    side reaches the target, and below it the *relevant cards* of the answer
    (partition search): the answer holds for every position with the same
    leader, trump broken or not, the same number of cards of each group in
    each hand, and the same owners of each group's cards from its lowest
    relevant card up.  A card is relevant when it won a trick by rank (a card
    of its own group was beaten in that trick), when it was counted as a
    quick trick, and (at a node where no move reached the goal) when it
    stands for a class of equivalent cards that reaches above a relevant card.
    """
    rules = position.rules
    trump = position.trump
    bidders = position.board_bidders
    n = len(is_max)
    legal = _rules.legal_mask
    rule_winner = _rules.trick_winner
    rule_breaks = _rules.breaks_trump
    standard = plan.standard
    # the groups whose legal plays read the cards played before the trick:
    # their cards are each a move of their own, never refuted by another's
    # refutation, and stored exactly in the table (which cards remain, and
    # their owners), so no two positions that differ in them share an entry
    history = plan.history
    hmask = plan.history_mask
    fast = plan.standard and plan.monotone
    # the cards played before the root's trick, and those still to play then:
    # the cards played before a later trick are those and the ones gone since
    played_root = position.played
    rem_root = 0
    for h in position.hands:
        rem_root |= h
    for c in position.trick:
        rem_root |= 1 << c
    quick_ok = fast and plan.follows
    group = plan.group
    strength = plan.strength
    gmasks = tuple(plan.group_masks)
    tgroup = plan.trump_group
    tmask = plan.trump_mask
    lspecial = plan.lead_special
    exact = lspecial | hmask  # cards whose presence is part of the table's key
    exact_shift = 5 + 6 * n * len(gmasks)  # past the bits of a bucket's lengths, leader, broken
    holdings = _HOLDINGS
    holding = _holding
    bits = max(1, (n - 1).bit_length())
    RESULT = _RESULT
    CARDS = _CARDS
    # bucket -> (slots, mask -> slot); a slot: (mask, keep, value -> entry):
    # an entry is one int, lo | hi << 6 | (best + 1) << 12 (the side's
    # tricks are at least lo and at most hi; best: the lead found best, or
    # -1), so that the tables hold no object the garbage collector must
    # visit; it applies to a position of the bucket whose
    # code & mask == value; keep: for each group, how many of its remaining
    # cards are relevant (one keep per mask).  A lookup costs one dict probe
    # per distinct mask of the bucket, not one test per entry, the masks
    # with the fewest relevant cards first (the most general entries: the
    # likeliest to match, and an answer that depends on the fewest cards).
    Slot = tuple[int, tuple[tuple[int, int], ...], dict[int, int]]
    tt: dict[object, tuple[list[Slot], dict[int, Slot]]] = {}
    top_memo: dict[tuple[int, int], int] = {}
    lead_found = [-1]
    # (cards of a group in the hand, in the other hands) -> (the classes,
    # those of more than one card)
    class_memo: dict[
        tuple[int, int], tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]
    ] = {}
    group_order = sorted(range(len(gmasks)), key=lambda g: g != tgroup)
    legal_memo: dict[tuple[object, ...], int] = {}
    sure_memo: dict[tuple[int, ...], tuple[list[int], list[int]]] = {}

    def legal_of(
        hand: int, trick: tuple[int, ...], leader: int, broken: bool, seat: int, rem: int
    ) -> int:
        """The rule set's legal plays, memoised (``rem``: the cards in the
        hands and on the table, which tell the cards played before the trick:
        part of the key when the play reads the history; else they can only
        tell the first trick, whose leader's hand no later trick has)."""
        played = played_root | (rem_root & ~rem)
        lkey = (hand, trick, leader, broken, played) if history else (hand, trick, leader, broken)
        cards = legal_memo.get(lkey, -1)
        if cards < 0:
            cards = legal(rules, hand, trick, trump, broken, seat, leader, bidders, played)
            if len(legal_memo) >= _MEMO_LIMIT:
                legal_memo.clear()
            legal_memo[lkey] = cards
        return cards

    def sure_trumps(tparts: tuple[int, ...]) -> tuple[list[int], list[int]]:
        """The sure trump tricks of the minimising and the maximising side
        (``tparts``: each hand's trumps), and the trumps whose rank they
        depend on.

        Each trump of a hand lies in a trick of its own, which the other side
        takes only with a higher trump, each trump of the other side in one
        trick: the hand's trumps that the other side's higher trumps cannot
        all cover win tricks for its side.
        """
        side_sure = [0, 0]
        side_rel = [0, 0]
        max_trumps = 0
        min_trumps = 0
        for s in range(n):
            if is_max[s]:
                max_trumps |= tparts[s]
            else:
                min_trumps |= tparts[s]
        trumps = max_trumps | min_trumps
        for s in range(n):
            mine = tparts[s]
            if not mine:
                continue
            m = is_max[s]
            theirs = max_trumps if not m else min_trumps
            above = theirs.bit_length()
            top = (mine >> above).bit_count()
            # cover the hand's trumps from the top, each with one of the
            # other side's trumps above it
            covered = free = seen = 0
            rest = mine
            while rest:
                t = rest.bit_length() - 1
                rest ^= 1 << t
                higher = (theirs >> t).bit_count()
                free += higher - seen
                seen = higher
                if free:
                    covered += 1
                    free -= 1
            sure = mine.bit_count() - covered
            if sure > side_sure[m]:
                side_sure[m] = sure
                if sure == top:
                    side_rel[m] = trumps & ~((1 << above) - 1)
                else:
                    side_rel[m] = trumps & ~((mine & -mine) - 1)
        return side_sure, side_rel

    def quick(hands: tuple[int, ...], leader: int, broken: bool, left: int) -> tuple[int, int, int]:
        """Tricks the leader surely takes by cashing cards from the lead, and
        the cards whose rank that depends on.

        The leader leads each group's cards from the top; a round counts when
        no opponent still holding the group has a higher card, no opponent
        (or partner) already void in it holds a trump, and no partner still
        holding the group has a higher card (it could be made to overtake).
        Opponents keep their highest cards as long as they can, partners
        play their lowest, so the count holds whatever they do; rounds past
        the opponents' length are the leader's long cards.  Trumps are
        cashed first: a hand whose trumps are all drawn by then cannot ruff.
        Also returned:
        how many of the tricks are not won with trumps (no trump is played
        in those).
        """
        hand = hands[leader]
        others = [h for s, h in enumerate(hands) if s != leader and h]
        union = hand
        for h in others:
            union |= h
        leads = legal_of(hand, (), leader, broken, leader, union)
        total = 0
        plains = 0
        used = 0
        # trumps first: once the others' trumps are drawn, nobody ruffs
        ruffers = [bool(h & tmask) for h in others]
        for g in group_order:
            gm = gmasks[g]
            mine = hand & gm
            if not mine or not (leads >> (mine.bit_length() - 1)) & 1:
                continue
            plain = g != tgroup
            k = 0
            last = 0
            while mine:
                top = 1 << (mine.bit_length() - 1)
                for i, h in enumerate(others):
                    held = h & gm
                    if held.bit_count() > k:
                        if held > top:
                            break
                    elif plain and ruffers[i]:
                        break
                else:
                    k += 1
                    last = top
                    mine ^= top
                    continue
                break
            if k:
                total += k
                if plain:
                    plains += k
                else:
                    ruffers = [(h & tmask).bit_count() > k for h in others]
                used |= union & gm & ~(last - 1)
        return (total if total < left else left), used, plains

    def entries_to_partner(
        hands: tuple[int, ...], leader: int, broken: bool, left: int
    ) -> tuple[int, int]:
        """Tricks the leader's side surely takes by leading low to a partner's
        top card of a group and cashing the partner's quick tricks from there."""
        hand = hands[leader]
        rem = 0
        for h in hands:
            rem |= h
        leads = legal_of(hand, (), leader, broken, leader, rem)
        best, best_used = 0, 0
        side = is_max[leader]
        for p in range(n):
            if p == leader or is_max[p] != side:
                continue
            partner = hands[p]
            for g, gm in enumerate(gmasks):
                mine = hand & gm & leads
                theirs = partner & gm
                if not mine or not theirs:
                    continue
                others = 0
                for s in range(n):
                    if s != p:
                        others |= hands[s] & gm
                top = 1 << (theirs.bit_length() - 1)
                if others > top:
                    continue
                if g != tgroup and any(
                    hands[s] & tmask and not hands[s] & gm
                    for s in range(n)
                    if s != p and s != leader
                ):
                    continue
                low = mine & -mine
                c = low.bit_length() - 1
                if not legal_of(partner, (c,), leader, broken, p, rem) & top:
                    continue
                after = list(hands)
                for s in range(n):
                    held = hands[s] & gm
                    if s == leader:
                        after[s] ^= low
                    elif s == p:
                        after[s] ^= top
                    elif held:
                        after[s] ^= held & -held
                q, used, _plain = quick(tuple(after), p, broken, left - 1)
                if q + 1 > best:
                    best, best_used = q + 1, used | top
        return best, best_used

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

    def order(
        cards: int,
        hands: tuple[int, ...],
        seat: int,
        leader: int,
        trick: tuple[int, ...],
        win: int,
        rem: int,
    ) -> tuple[list[int], list[tuple[int, int]]]:
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
            return out, []
        hand = hands[seat]
        others = rem & ~hand
        classes: list[tuple[int, int]] = []
        spans: list[tuple[int, int]] = []
        for gm in gmasks:
            mine = cards & gm
            if not mine:
                continue
            ckey = (mine, others & gm)
            found = class_memo.get(ckey)
            if found is None:
                if gm & hmask:  # the cards played decide what a lead forces: each card a move
                    runs = tuple((c, c) for c in range(54) if mine >> c & 1)
                else:
                    runs = _classes(mine, others & gm)
                if mine & lspecial and not gm & hmask:
                    # a special card is its own move, leading or not: which
                    # of them is kept decides what a later lead of it forces
                    runs = tuple(split_special(list(runs), mine))
                found = (runs, tuple([cl for cl in runs if cl[0] != cl[1]]))
                if len(class_memo) >= _MEMO_LIMIT:
                    class_memo.clear()
                class_memo[ckey] = found
            classes += found[0]
            spans += found[1]
        if len(classes) == 1:
            return [classes[0][0]], spans
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
        return [c for _k, c in weighted], spans

    def start(hands: tuple[int, ...], leader: int, broken: bool, left: int, target: int) -> int:
        """Can the side take ``target`` of the ``left`` tricks, ``leader`` to lead?"""
        if target <= 0:
            return RESULT
        if target > left:
            return 0
        if left == 1:
            trick = tuple(hands[(leader + i) % n].bit_length() - 1 for i in range(n))
            if standard:
                w = trick[0]
                for c in trick:
                    gc, gw = group[c], group[w]
                    if (strength[c] > strength[w]) if gc == gw else gc == tgroup:
                        w = c
                at = trick.index(w)
            else:
                at = rule_winner(rules, trick, trump)
                w = trick[at]
            rel = 0
            if standard:
                g = group[w]
                for c in trick:
                    if c != w and group[c] == g:
                        rel = 1 << w
                        break
            return (RESULT | rel) if is_max[(leader + at) % n] else rel
        if fast:
            full = 0
            lengths = 0
            if n == 4:
                h0, h1, h2, h3 = hands
                rem = h0 | h1 | h2 | h3
                for gm in gmasks:
                    parts: tuple[int, ...] = (h0 & gm, h1 & gm, h2 & gm, h3 & gm)
                    held = holdings.get(parts)
                    if held is None:
                        held = holding(parts, bits)
                    full = (full << held[1]) | held[0]
                    lengths = (lengths << 24) | held[2]
            else:
                rem = 0
                for h in hands:
                    rem |= h
                for gm in gmasks:
                    parts = tuple(map(gm.__and__, hands))
                    held = holdings.get(parts)
                    if held is None:
                        held = holding(parts, bits)
                    full = (full << held[1]) | held[0]
                    lengths = (lengths << (6 * n)) | held[2]
            bucket: object = (
                ((rem & exact) << exact_shift) | (lengths << 5) | (leader << 1) | broken
            )
        else:
            full = 0
            bucket = (leader, broken, *hands)
            rem = 0
            for h in hands:
                rem |= h
        known = tt.get(bucket)
        best = -1
        if known is not None:
            slots, masks = known
            for m, keep_m, table in slots:
                e = table.get(full & m)
                if e is not None:
                    if e & 63 >= target:
                        return RESULT | kept(rem, keep_m)
                    if e >> 6 & 63 < target:
                        return kept(rem, keep_m)
                    if best < 0:
                        best = (e >> 12) - 1
        else:
            slots = []
            masks = {}
            tt[bucket] = (slots, masks)
        side_sure: tuple[int, int] | list[int] = (0, 0)
        side_rel: tuple[int, int] | list[int] = (0, 0)
        if fast and tmask and rem & tmask:
            if n == 4:
                tparts: tuple[int, ...] = (h0 & tmask, h1 & tmask, h2 & tmask, h3 & tmask)
            else:
                tparts = tuple([h & tmask for h in hands])
            sure = sure_memo.get(tparts)
            if sure is None:
                sure = sure_trumps(tparts)
                if len(sure_memo) >= _MEMO_LIMIT:
                    sure_memo.clear()
                sure_memo[tparts] = sure
            side_sure, side_rel = sure
            if side_sure[1] >= target:
                return RESULT | side_rel[1]
            if left - side_sure[0] < target:
                return side_rel[0]
        if quick_ok:
            q, used, plain = quick(hands, leader, broken, left)
            lm = is_max[leader]
            need = target if lm else left - target + 1
            if q < need and side_sure[lm] > q - plain:
                # the tricks cashed in plain groups use no trump: the side's
                # sure trump tricks come on top
                q = plain + side_sure[lm]
                used |= side_rel[lm]
            if q < need and n > 2:
                q2, used2 = entries_to_partner(hands, leader, broken, left)
                if q2 > q:
                    q, used = q2, used2
            if q >= need:
                return (RESULT | used) if lm else used
        hint = -1
        if best >= 0:
            # the best lead found before, stored as (group, how many of the
            # leader's cards of that group lie above it)
            mine = hands[leader] & gmasks[best >> 6]
            for _ in range(best & 63):
                mine ^= 1 << (mine.bit_length() - 1)
            if mine:
                hint = mine.bit_length() - 1
        answer = play(hands, leader, broken, (), left, target, hint, rem)
        found = lead_found[0]
        if found >= 0:
            g = group[found]
            above = hands[leader] & gmasks[g] & ~((2 << found) - 1)
            best = g * 64 + above.bit_count()
        else:
            best = -1
        # the entry: for each group, its cards from the lowest relevant one up
        rel = answer & CARDS
        mask = 0
        keep: list[tuple[int, int]] = []
        if fast:
            union = 0
            for h in hands:
                union |= h
            for gm in gmasks:
                rem = union & gm
                total = rem.bit_count()
                r = rel & gm
                k = (rem & ~((r & -r) - 1)).bit_count() if r else 0
                if gm & hmask:
                    k = total  # every owner of the group's cards counts
                if k:
                    keep.append((gm, k))
                width = bits * total
                mask = (mask << width) | (((1 << (bits * k)) - 1) << (width - bits * k))
        value = full & mask
        had = masks.get(mask)
        if had is None:
            slot: Slot = (mask, tuple(keep), {})
            masks[mask] = slot
            # the slots stay in order of their masks' sizes
            size = mask.bit_count()
            i = len(slots)
            while i and slots[i - 1][0].bit_count() > size:
                i -= 1
            slots.insert(i, slot)
        else:
            slot = had
        table = slot[2]
        e = table.get(value)
        if e is not None:
            # the same class of positions: narrow its bounds
            lo, hi, hint = e & 63, e >> 6 & 63, e >> 12
            if answer & RESULT:
                if target > lo:
                    lo = target
            elif target - 1 < hi:
                hi = target - 1
            if best >= 0:
                hint = best + 1
            table[value] = lo | hi << 6 | hint << 12
        elif answer & RESULT:
            table[value] = target | left << 6 | (best + 1) << 12
        else:
            table[value] = (target - 1) << 6 | (best + 1) << 12
        return answer

    def kept(union: int, keep: tuple[tuple[int, int], ...]) -> int:
        """The relevant cards of an entry, in this position (``union``: the
        remaining cards): for each (group, k) of ``keep``, the group's ``k``
        highest remaining cards (remembered per holding)."""
        out = 0
        for gm, k in keep:
            rem = union & gm
            key = (rem, k)
            top = top_memo.get(key)
            if top is None:
                top = rem
                for _ in range(rem.bit_count() - k):
                    top &= top - 1
                if len(top_memo) >= _MEMO_LIMIT:
                    top_memo.clear()
                top_memo[key] = top
            out |= top
        return out

    def play(
        hands: tuple[int, ...],
        leader: int,
        broken: bool,
        trick: tuple[int, ...],
        left: int,
        target: int,
        win: int,
        rem: int,
    ) -> int:
        """The same test with ``trick`` on the table (``win``: its winning
        card so far; at the lead, a card to try first or -1)."""
        counter.nodes += 1
        pos = len(trick)
        seat = (leader + pos) % n
        hand = hands[seat]
        if history:
            cards = legal_of(hand, trick, leader, broken, seat, rem)
        else:
            cards = legal_memo.get((hand, trick, leader, broken), -1)
            if cards < 0:
                cards = legal_of(hand, trick, leader, broken, seat, rem)
        maximising = is_max[seat]
        goal = RESULT if maximising else 0
        last = pos + 1 == n
        deferred = fast and last
        if deferred:
            # the last seat: try the obvious card first (the cheapest that
            # takes the trick from the other side, else the lowest, keeping
            # trumps), and order the rest only when it does not settle it
            spans: list[tuple[int, int]] = []
            pick = -1
            if is_max[(leader + trick.index(win)) % n] != maximising:
                wg = group[win]
                beat = cards & gmasks[wg] & ~((2 << win) - 1)
                if not beat and wg != tgroup:
                    beat = cards & tmask
                if beat:
                    pick = (beat & -beat).bit_length() - 1
            if pick < 0:
                pool = cards & ~tmask or cards
                low_strength = 99
                for gm in gmasks:
                    x = pool & gm
                    if x:
                        c = (x & -x).bit_length() - 1
                        if strength[c] < low_strength:
                            low_strength = strength[c]
                            pick = c
            moves = [pick]
        else:
            moves, spans = order(cards, hands, seat, leader, trick, win, rem)
        if pos == 0 and win >= 0:
            # the hint may stand for its class under another card
            for i, c in enumerate(moves):
                if c == win or (
                    group[c] == group[win] and any(lo == c and lo <= win <= hi for lo, hi in spans)
                ):
                    moves.insert(0, moves.pop(i))
                    break
        union = 0
        skip: list[int] | None = None
        unswappable = exact
        if last and standard:
            win_at = trick.index(win)
            table = 0  # the cards on the table
            for x in trick:
                table |= 1 << x
        for c in moves:
            if skip is not None:
                bound = skip[group[c]]
                if bound and (1 << c) < bound and not unswappable >> c & 1:
                    continue  # answered by a lower card already refuted
            new = list(hands)
            new[seat] = hand ^ (1 << c)
            after = tuple(new)
            played = (*trick, c)
            if standard:
                if pos == 0:
                    w = c
                else:
                    gc, gw = group[c], group[win]
                    if gc == gw:
                        w = c if strength[c] > strength[win] else win
                    else:
                        w = c if gc == tgroup else win
            else:
                w = -1
            if last:
                if standard:
                    winner = (leader + (pos if w == c else win_at)) % n
                else:
                    winner = (leader + rule_winner(rules, played, trump)) % n
                now = broken or rule_breaks(rules, played, trump)
                answer = start(after, winner, now, left - 1, target - is_max[winner])
                if standard and (table | 1 << c) & gmasks[group[w]] & ~(1 << w):
                    # the winning card beat a card of its group: its rank counts
                    answer |= 1 << w
            else:
                answer = play(after, leader, broken, played, left, target, w, rem)
            if answer & RESULT == goal:
                if pos == 0:
                    lead_found[0] = c
                return answer
            union |= answer
            if fast and not unswappable >> c & 1:
                # DDS's "lowest win": the refutation of ``c`` did not depend
                # on any card of its group below the lowest relevant one, so
                # it refutes each of this hand's cards of the group below
                # that one too (swap the two cards' names; not a card
                # special on the lead, whose name matters there)
                g = group[c]
                if skip is None:
                    skip = [0] * len(gmasks)
                if not skip[g]:
                    r = union & gmasks[g]
                    low = r & -r if r else 1 << 54
                    if (1 << c) < low:
                        skip[g] = low
            if deferred:
                deferred = False
                rest, spans = order(cards, hands, seat, leader, trick, win, rem)
                for lo, hi in spans:
                    if lo <= c <= hi and group[lo] == group[c]:
                        c = lo
                        break
                moves.extend(x for x in rest if x != c)
        if pos == 0:
            lead_found[0] = -1
        rel = union & CARDS
        for lo, hi in spans:
            r = rel & gmasks[group[lo]]
            low = r & -r
            if low and (1 << lo) < low <= (1 << hi):
                rel |= 1 << lo
        return (RESULT ^ goal) | rel

    def test(
        hands: tuple[int, ...],
        leader: int,
        broken: bool,
        trick: tuple[int, ...],
        left: int,
        target: int,
    ) -> bool:
        if not trick:
            return bool(start(hands, leader, broken, left, target) & RESULT)
        if target <= 0:
            return True
        if target > left:
            return False
        win = -1
        if standard:
            win = trick[rule_winner(rules, trick, trump)]
        rem = 0
        for h in hands:
            rem |= h
        for c in trick:
            rem |= 1 << c
        return bool(play(hands, leader, broken, trick, left, target, win, rem) & RESULT)

    def guess(hands: tuple[int, ...], leader: int, broken: bool, trick: tuple[int, ...]) -> int:
        """The side's tricks when every seat plays the first card of its move
        ordering to the end of the deal: a first guess for the search."""
        held = list(hands)
        won = 0
        while True:
            rem = 0
            for h in held:
                rem |= h
            for c in trick:
                rem |= 1 << c
            if not rem:
                return won
            while len(trick) < n:
                seat = (leader + len(trick)) % n
                after = tuple(held)
                cards = legal_of(held[seat], trick, leader, broken, seat, rem)
                win = trick[rule_winner(rules, trick, trump)] if trick and standard else -1
                c = order(cards, after, seat, leader, trick, win, rem)[0][0]
                held[seat] ^= 1 << c
                trick = (*trick, c)
            winner = (leader + rule_winner(rules, trick, trump)) % n
            broken = broken or rule_breaks(rules, trick, trump)
            won += is_max[winner]
            leader = winner
            trick = ()

    def release() -> None:
        tt.clear()
        top_memo.clear()
        class_memo.clear()
        legal_memo.clear()
        sure_memo.clear()

    return test, guess, release
