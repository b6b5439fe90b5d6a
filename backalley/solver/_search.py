"""The search: a zero-window alpha-beta over the play, one card at a time.

``Search(position, seat, table)`` answers questions about one deal position
for one side (``seat``'s side, the *maximising* side; every other seat
minimises its tricks).  :meth:`Search.value` finds the number of tricks by
zero-window tests "can the side take at least ``t`` of the remaining
tricks?", which share one transposition table: the first one trick above a
guess (a playout of each seat's first-ordered card), the next ones a step
towards the answer.

The parts, each in a module of its own (after Bo Haglund's double-dummy
solver, DDS):

- :mod:`~backalley.solver._table` - the transposition table, consulted at
  the start of each trick, keyed by relative ranks, holding lower and upper
  bounds;
- :mod:`~backalley.solver._bounds` - quick tricks, sure trump tricks and
  later tricks at the start of a trick, sure winners of the current trick
  (and what their seat then cashes) during it;
- :mod:`~backalley.solver._order` and :mod:`~backalley.solver._weights` -
  rank equivalence and move ordering (DDS's weights for four seats in two
  partnerships, a killer lead per number of tricks left);
- this module - the search itself, "lowest win" (a refuted card refutes
  the lower cards of its hand and group whose rank the refutation did not
  depend on) and the node limit (:class:`~backalley.solver._limits.Budget`).

Every rule answer comes from the rule set's plan, through
:class:`~backalley.solver._context.Context`, which remembers them: the
legal plays (the lead and follow parts), the winner of every trick the
search completes (the ranking part's ``trick_winner``) and whether it
breaks trump (the lead part's ``breaks_trump``, with the deal's context at
that trick).  The card order of :mod:`backalley.solver._plan` only
*predicts* winners - for the card winning a trick so far, the relevant
cards, the bounds and the move ordering - and each completed trick checks
the prediction against the rule set's answer: a difference raises
:class:`~backalley.solver._plan.Refuted`, and :class:`Search` makes the
plan plain (:func:`~backalley.solver._plan.refute`), empties its table and
asks its question again.

One module, one job: the search's loop and the zero-window test it is built
from share their locals, which is what makes the search fast.
"""

from __future__ import annotations

from collections.abc import Callable

from backalley.cards import CARDS
from backalley.engine import lowlevel
from backalley.solver._bounds import (
    make_cash_after,
    make_later_tricks,
    make_quick,
    make_sure_trumps,
    make_trick_sure,
)
from backalley.solver._classes import Classes
from backalley.solver._context import Context
from backalley.solver._limits import Budget
from backalley.solver._order import make_order
from backalley.solver._plan import Refuted, SearchPlan, plan_for, predict, refute
from backalley.solver._table import TranspositionTable, holding, kept, store

__all__ = ["Search"]

_RESULT = 1 << 60
"""The bit of a search answer that says "the target is reached"; the bits
below it are the answer's relevant cards (see :func:`_make_test`)."""
_CARDS = (1 << 54) - 1

Test = Callable[[tuple[int, ...], int, bool, tuple[int, ...], int, int], bool]


class Search:
    """Exact search of one position for the side of ``seat``.

    ``table``: the transposition table and memos to use (a new one by
    default); ``budget``: the node and time limit (none by default).
    """

    def __init__(
        self,
        position: lowlevel.RawPosition,
        seat: int,
        table: TranspositionTable | None = None,
        budget: Budget | None = None,
    ) -> None:
        rules = position.rules
        teams = rules.rules.seat_teams
        self.position = position
        self.players = len(teams)
        self.is_max = tuple(team == teams[seat] for team in teams)
        self.table = TranspositionTable() if table is None else table
        self.budget = Budget() if budget is None else budget
        self.lower = 0
        self.upper = 0
        """The bounds proved so far by :meth:`value` (for a limit's report)."""
        self.plan: SearchPlan
        self.test: Test
        self.guess: Callable[[tuple[int, ...], int, bool, tuple[int, ...]], int]
        self._prepare()

    def _prepare(self) -> None:
        """Ask for the plan of the position's rules and trump, and make the
        search's functions for it.  A table filled with another plan (the
        same rules before a refutation made their plan plain) is emptied:
        its entries may rest on what was refuted."""
        position = self.position
        plan = plan_for(position.rules, position.trump)
        self.plan = plan
        table = self.table
        mode = plan.standard
        if table.mode is not mode:
            if table.mode is not None:
                table.clear()
            table.mode = mode
        ctx = Context(position, plan, self.is_max, table)
        self.test, self.guess = _make_test(ctx, self.budget)

    def _refuted(self, error: Refuted) -> None:
        """The rule set answered something the plan's shortcuts contradict:
        make the plan plain, forget what the table learnt with it, and make
        the search's functions again (the caller starts its question over)."""
        refute(error.plan, error.order)
        self.table.clear()
        self._prepare()

    @property
    def nodes(self) -> int:
        """The positions searched (one per card tried) under this search's budget."""
        return self.budget.nodes

    @property
    def trick_nodes(self) -> int:
        """The positions at the start of a trick reached by playing a trick
        (what DDS counts as its nodes)."""
        return self.budget.tricks

    def release(self) -> None:
        """Empty the search's table (when no :class:`~backalley.solver.Solver`
        keeps it): its inner functions refer to each other, so without this
        only the garbage collector frees them."""
        self.table.clear()

    def value(
        self,
        hands: tuple[int, ...],
        leader: int,
        broken: bool,
        trick: tuple[int, ...],
        base: int = 0,
    ) -> int:
        """The side's tricks among the remaining ones (the current trick
        included); ``base`` tricks are added to the bounds it reports in
        :attr:`lower` and :attr:`upper` as it goes."""
        while True:
            try:
                return self._value(hands, leader, broken, trick, base)
            except Refuted as error:
                self._refuted(error)

    def _value(
        self,
        hands: tuple[int, ...],
        leader: int,
        broken: bool,
        trick: tuple[int, ...],
        base: int,
    ) -> int:
        n = self.players
        left = hands[(leader + len(trick)) % n].bit_count()
        lo, hi = 0, left
        self.lower, self.upper = base + lo, base + hi
        # test one above the guess first, then step by one towards the
        # answer.  (Starting at the guess searched 3 % fewer positions on
        # gamerules deals, where a failing test one above the answer is not
        # made cheaper by one two above it, but 5 % more on vietnam-nt deals,
        # where it is, and where the guess is often two or more too low.)
        target = min(self.guess(hands, leader, broken, trick) + 1, left)
        while lo < hi:
            if self.test(hands, leader, broken, trick, left, target):
                lo = target
                target += 1
            else:
                hi = target - 1
                target -= 1
            self.lower, self.upper = base + lo, base + hi
        return lo

    def after(
        self, hands: tuple[int, ...], leader: int, broken: bool, trick: tuple[int, ...], card: int
    ) -> int:
        """The side's tricks among the remaining ones once ``card`` is played now."""
        while True:
            try:
                return self._after(hands, leader, broken, trick, card)
            except Refuted as error:
                self._refuted(error)

    def _after(
        self, hands: tuple[int, ...], leader: int, broken: bool, trick: tuple[int, ...], card: int
    ) -> int:
        n = self.players
        seat = (leader + len(trick)) % n
        left = hands[seat].bit_count()
        new = list(hands)
        new[seat] ^= 1 << card
        hands = tuple(new)
        trick = (*trick, card)
        if len(trick) < n:
            return self._value(hands, leader, broken, trick, 0)
        position = self.position
        rules, trump = position.rules, position.trump
        plan = self.plan
        at = lowlevel.trick_winner(rules, trick, trump)
        if plan.standard and at != predict(plan.order, trick):
            raise Refuted(plan, True, _mispredicted(trick, at))
        winner = (leader + at) % n
        broken = broken or lowlevel.breaks_trump(
            rules, trick, trump, position.played, position.owners()
        )
        won = 1 if self.is_max[winner] else 0
        self.lower = self.upper = won
        if left == 1:
            return won
        return won + self._value(hands, winner, broken, (), won)


def _mispredicted(trick: tuple[int, ...], at: int) -> str:
    """Why a search gave up its card order: the trick and the rule set's winner."""
    cards = " ".join(str(CARDS[c]) for c in trick)
    return f"the rule set's trick winner of {cards} is the card at {at}, not the order's"


def _make_test(ctx: Context, budget: Budget) -> tuple[Test, Callable[..., int]]:
    """The zero-window test and a first guess, as closures over the
    position's constants.

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
    n = ctx.n
    is_max = ctx.is_max
    plan = ctx.plan
    order_of = plan.order
    # the rule set's answers at the end of a trick, remembered (see Context)
    trick_winner = ctx.winner
    trick_breaks = ctx.breaks
    winners = ctx.table.winners
    # the card order's model: the search predicts each trick's winner by it
    # and checks every full trick's prediction against the rule set's answer
    standard = ctx.standard
    # the groups whose legal plays read the cards played before the trick:
    # their cards are each a move of their own, never refuted by another's
    # refutation, and stored exactly in the table (which cards remain, and
    # their owners), so no two positions that differ in them share an entry
    history = ctx.history
    hmask = ctx.hmask
    fast = ctx.fast
    quick_ok = ctx.follows
    group = ctx.group
    strength = ctx.strength
    gmasks = ctx.gmasks
    tgroup = ctx.tgroup
    tmask = ctx.tmask
    exact = ctx.exact
    exact_shift = 5 + 6 * n * len(gmasks)  # past the bits of a bucket's lengths, leader, broken
    table_obj = ctx.table
    tt = table_obj.buckets
    holdings = table_obj.holdings
    tops = table_obj.tops
    legal_memo = table_obj.legal
    bits = ctx.bits
    RESULT = _RESULT
    CARDS = _CARDS
    legal_of = ctx.legal
    played_root = ctx.played_root
    rem_root = ctx.rem_root
    quick, entries_to_partner = make_quick(ctx)
    sure_trumps = make_sure_trumps(ctx)
    trick_sure = make_trick_sure(ctx)
    cash_after = make_cash_after(ctx)
    later_tricks = make_later_tricks(ctx)
    order = make_order(ctx)
    lead_found = [-1]
    # the lead that last cut the search off, by the number of tricks left
    # (DDS's "best move" of a depth, a killer move)
    killers = [-1] * 64

    def start(hands: tuple[int, ...], leader: int, broken: bool, left: int, target: int) -> int:
        """Can the side take ``target`` of the ``left`` tricks, ``leader`` to lead?"""
        if target <= 0:
            return RESULT
        if target > left:
            return 0
        if left == 1:
            trick = tuple([hands[(leader + i) % n].bit_length() - 1 for i in range(n)])
            at = trick_winner(trick)
            w = trick[at]
            rel = 0
            if standard:
                if at != predict(order_of, trick):
                    raise Refuted(plan, True, _mispredicted(trick, at))
                g = group[w]
                for c in trick:
                    if c != w and group[c] == g:
                        rel = 1 << w
                        break
            return (RESULT | rel) if is_max[(leader + at) % n] else rel
        side_sure: tuple[int, int] | list[int] = (0, 0)
        side_rel: tuple[int, int] | list[int] = (0, 0)
        if fast:
            if n == 4:
                h0, h1, h2, h3 = hands
                rem = h0 | h1 | h2 | h3
            else:
                rem = 0
                for h in hands:
                    rem |= h
            if tmask and rem & tmask:
                # each side's sure trump tricks (remembered per trump
                # holding): cheaper than the table's key, so asked first
                if n == 4:
                    tparts: tuple[int, ...] = (h0 & tmask, h1 & tmask, h2 & tmask, h3 & tmask)
                else:
                    tparts = tuple([h & tmask for h in hands])
                side_sure, side_rel = sure_trumps(tparts)
                if side_sure[1] >= target:
                    return RESULT | side_rel[1]
                if left - side_sure[0] < target:
                    return side_rel[0]
            full = 0
            lengths = 0
            if n == 4:
                for gm in gmasks:
                    parts: tuple[int, ...] = (h0 & gm, h1 & gm, h2 & gm, h3 & gm)
                    held = holdings.get(parts)
                    if held is None:
                        held = holding(holdings, parts, bits)
                    full = (full << held[1]) | held[0]
                    lengths = (lengths << 24) | held[2]
            else:
                for gm in gmasks:
                    parts = tuple(map(gm.__and__, hands))
                    held = holdings.get(parts)
                    if held is None:
                        held = holding(holdings, parts, bits)
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
            for m, keep_m, entries in slots:
                e = entries.get(full & m)
                if e is not None:
                    if e & 63 >= target:
                        return RESULT | kept(tops, rem, keep_m)
                    if e >> 6 & 63 < target:
                        return kept(tops, rem, keep_m)
                    if best < 0:
                        best = (e >> 12) - 1
        else:
            slots = []
            masks = {}
            tt[bucket] = (slots, masks)
        if quick_ok:
            lm = is_max[leader]
            need = target if lm else left - target + 1
            if need == left:
                lost = later_tricks(hands, leader, broken, left, rem)
                if lost >= 0:
                    return lost if lm else RESULT | lost
            q, used, plain = quick(hands, leader, broken, left, rem)
            if q < need and side_sure[lm] > q - plain:
                # the tricks cashed in plain groups use no trump: the side's
                # sure trump tricks come on top
                q = plain + side_sure[lm]
                used |= side_rel[lm]
            if q < need and n > 2:
                q2, used2 = entries_to_partner(hands, leader, broken, left, rem, need)
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
        store(
            table_obj,
            slots,
            masks,
            full,
            rem,
            gmasks,
            hmask,
            bits,
            answer & CARDS,
            bool(answer & RESULT),
            target,
            left,
            best,
            fast,
        )
        return answer

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
        budget.nodes += 1
        if budget.nodes >= budget.check_at:
            budget.check()
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
        if quick_ok and pos and not last:
            # DDS's quick tricks in second hand: a side that surely wins this
            # trick takes one trick; without trumps, its winner then leads
            # and cashes its top cards
            first = not (played_root or rem_root & ~rem)
            if target == left or target == 1:
                # the side that needs every trick left loses one if the
                # other side surely wins this one
                if target == left:
                    sure = trick_sure(hands, leader, trick, win, cards, False, broken, first)
                    if sure:
                        return sure
                if target == 1:
                    sure = trick_sure(hands, leader, trick, win, cards, True, broken, first)
                    if sure:
                        return RESULT | sure
            elif pos == 1:
                # without a trump in any hand, or with every trump left in
                # one hand: the one whose card surely wins, it turns out
                holder = -1
                if rem & tmask:
                    for s in range(n):
                        if hands[s] & tmask:
                            if holder >= 0:
                                holder = -2
                                break
                            holder = s
                if holder < -1:
                    sure = 0
                else:
                    sure = trick_sure(hands, leader, trick, win, cards, maximising, broken, first)
                    if holder >= 0 and not hands[holder] & sure:
                        sure = 0
                if sure:
                    need = target if maximising else left - target + 1
                    more, rel = cash_after(hands, sure, rem, broken, need - 1)
                    if more >= need - 1:
                        return goal | sure | rel
        deferred = fast and last
        if deferred:
            # the last seat: try the obvious card first (the cheapest that
            # takes the trick from the other side, else the lowest, keeping
            # trumps), and order the rest only when it does not settle it
            spans: Classes = ()
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
        elif pos:
            moves, spans = order(cards, hands, seat, leader, trick, win, rem, -1)
        elif fast and win >= 0 and cards >> win & 1:
            # at the lead, the lead the table stored as best is tried before
            # the others are ordered (it settles most such positions, and
            # DDS's lead weights are the dearest ordering)
            deferred = True
            spans = ()
            moves = [win]
        else:
            moves, spans = order(cards, hands, seat, leader, trick, win, rem, killers[left])
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
                at = winners.get(played, -1)  # the rule set's answer, remembered
                if at < 0:
                    at = trick_winner(played)
                if standard and at != (pos if w == c else win_at):
                    raise Refuted(plan, True, _mispredicted(played, at))
                winner = (leader + at) % n
                now = broken or trick_breaks(played, played_root | (rem_root & ~rem))
                budget.tricks += 1
                answer = start(after, winner, now, left - 1, target - is_max[winner])
                if standard and (table | 1 << c) & gmasks[group[w]] & ~(1 << w):
                    # the winning card beat a card of its group: its rank counts
                    answer |= 1 << w
            else:
                answer = play(after, leader, broken, played, left, target, w, rem)
            if answer & RESULT == goal:
                if pos == 0:
                    lead_found[0] = c
                    killers[left] = c
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
                rest, spans = order(
                    cards, hands, seat, leader, trick, win, rem, -1 if pos else killers[left]
                )
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
            win = trick[predict(order_of, trick)]  # the card winning the trick so far
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
                win = trick[predict(order_of, trick)] if trick and standard else -1
                c = order(cards, after, seat, leader, trick, win, rem, -1)[0][0]
                held[seat] ^= 1 << c
                trick = (*trick, c)
            at = trick_winner(trick)
            if standard and at != predict(order_of, trick):
                raise Refuted(plan, True, _mispredicted(trick, at))
            winner = (leader + at) % n
            broken = broken or trick_breaks(trick, played_root | (rem_root & ~rem))
            won += is_max[winner]
            leader = winner
            trick = ()

    return test, guess
