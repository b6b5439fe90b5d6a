"""What every part of one search knows about its deal, and the memo it keeps.

A :class:`Context` is built for one search (one root position, one
maximising side) from the rule set's plan (:mod:`backalley.solver._plan`):
the number of seats, which of them are on the maximising side, the groups
of cards and their strengths, the trump group, the cards special on the lead
and those whose plays read the history.  It asks the rule set (through
:mod:`backalley.engine.lowlevel`, the rule set's plan) every answer the
search needs and remembers them in the
:class:`~backalley.solver._table.TranspositionTable` the search uses, so a
:class:`~backalley.solver.Solver` that keeps its table keeps those answers
too:

- :attr:`Context.legal` (and :attr:`Context.legal_at`): the legal plays of
  a hand (the lead and follow parts' restrictions);
- :attr:`Context.winner`: the winner of a full trick (the ranking part's
  ``trick_winner``), by the trick;
- :attr:`Context.breaks`: whether a full trick breaks trump (the lead
  part's ``breaks_trump``), asked with the deal's real context at that
  trick (the cards played before it, by whom).

The bounds, the move ordering and the table of the search
(:mod:`~backalley.solver._bounds`, :mod:`~backalley.solver._order`,
:mod:`~backalley.solver._table`) read their constants from here, into
local variables of their closures.
"""

from __future__ import annotations

from collections.abc import Callable

from backalley.engine import lowlevel
from backalley.rules.context import DealContext
from backalley.solver._plan import Refuted, SearchPlan
from backalley.solver._table import MEMO_LIMIT, TranspositionTable

__all__ = ["Context"]


class Context:
    """The constants of one search and its legal-play memo."""

    __slots__ = (
        "bidders",
        "bits",
        "breaks",
        "context_at",
        "exact",
        "fast",
        "follows",
        "free",
        "free_of",
        "gmasks",
        "group",
        "history",
        "hmask",
        "is_max",
        "legal",
        "legal_at",
        "lspecial",
        "n",
        "owners",
        "plan",
        "played_root",
        "rem_root",
        "rules",
        "standard",
        "strength",
        "table",
        "tgroup",
        "tmask",
        "trump",
        "winner",
    )

    def __init__(
        self,
        position: lowlevel.RawPosition,
        plan: SearchPlan,
        is_max: tuple[bool, ...],
        table: TranspositionTable,
    ) -> None:
        self.rules = position.rules
        self.trump = position.trump
        self.bidders = position.board_bidders
        self.plan = plan
        self.table = table
        self.is_max = is_max
        self.n = len(is_max)
        self.standard = plan.standard
        # the fast techniques (rank equivalence, relative ranks in the table,
        # quick tricks) need the card order of the plan's model
        self.fast = plan.standard and plan.monotone
        self.follows = self.fast and plan.follows
        self.history = plan.history
        self.hmask = plan.history_mask
        self.group = plan.group
        self.strength = plan.strength
        self.gmasks = tuple(plan.group_masks)
        self.tgroup = plan.trump_group
        self.tmask = plan.trump_mask
        self.lspecial = plan.lead_special
        # the cards whose presence is part of the table's key
        self.exact = plan.lead_special | plan.history_mask
        self.bits = max(1, (self.n - 1).bit_length())
        # the cards played before the root's trick, and those still to play
        # then: the cards played before a later trick are those and the ones
        # gone since
        self.played_root = position.played
        rem = 0
        for h in position.hands:
            rem |= h
        for c in position.trick:
            rem |= 1 << c
        self.rem_root = rem
        # who held each card when the deal opened: the cards played before a
        # trick, seat by seat, are each seat's share of them
        self.owners = position.owners()
        free: dict[tuple[int, bool], bool] = {}
        self.free = free
        """The plan's claims that following a group is free, by (group,
        trump broken), as the search's shortcuts have asked them."""
        # the deal's context for each set of cards played before a trick and
        # trump broken or not (every question of a trick's subtree shares one)
        contexts: dict[tuple[int, bool], DealContext] = {}
        rules, trump, owners = self.rules, self.trump, self.owners

        def context_at(played: int, broken: bool) -> DealContext:
            """The deal's context at a trick: ``played`` (a bit set) played
            before it, by the seats that held them, and trump ``broken`` or not."""
            key = (played, broken)
            ctx = contexts.get(key)
            if ctx is None:
                if len(contexts) >= 4096:
                    contexts.clear()
                ctx = contexts[key] = lowlevel.context(rules, trump, played, broken, owners)
            return ctx

        self.context_at = context_at
        self.legal, self.legal_at = self._make_legal()
        self.winner, self.breaks = self._make_trick_end()

        def free_of(g: int, broken: bool) -> bool:
            """The plan's :meth:`~backalley.solver._plan.SearchPlan.free_follow`, remembered."""
            known = free.get((g, broken))
            if known is None:
                known = free[(g, broken)] = plan.free_follow(g, broken)
            return known

        self.free_of = free_of

    def _make_legal(
        self,
    ) -> tuple[
        Callable[[int, tuple[int, ...], int, bool, int, int], int],
        Callable[[int, tuple[int, ...], int, bool, int, int], int],
    ]:
        rules = self.rules
        legal_in = lowlevel.legal_in
        memo = self.table.legal
        history = self.history
        played_root, rem_root = self.played_root, self.rem_root
        context_at = self.context_at
        # what the shortcuts take from the plan about following, checked
        # against every legal set the rule set answers to a following seat
        plan = self.plan
        checking = self.follows
        group, gmasks = self.group, self.gmasks
        unfree = self.lspecial | self.hmask
        free = self.free

        def ask(
            hand: int, trick: tuple[int, ...], leader: int, broken: bool, seat: int, played: int
        ) -> int:
            cards = legal_in(rules, context_at(played, broken), hand, trick, broken, seat, leader)
            if checking and trick:
                lead = trick[0]
                g = group[lead]
                held = hand & gmasks[g]
                if held and cards & ~held:
                    raise Refuted(plan, False, "a seat holding the group led may play another")
                if (
                    played
                    and not history
                    and not unfree >> lead & 1
                    and free.get((g, broken))
                    and cards != (held or hand)
                ):
                    raise Refuted(plan, False, "following the group led is not free")
            return cards

        def legal_of(
            hand: int, trick: tuple[int, ...], leader: int, broken: bool, seat: int, rem: int
        ) -> int:
            """The rule set's legal plays, memoised (``rem``: the cards in the
            hands and on the table, which tell the cards played before the
            trick: part of the key when the play reads the history; else
            they can only tell the first trick, whose hands are longer than
            any later trick's)."""
            played = played_root | (rem_root & ~rem)
            key = (
                (hand, trick, leader, broken, played) if history else (hand, trick, leader, broken)
            )
            cards = memo.get(key, -1)
            if cards < 0:
                cards = ask(hand, trick, leader, broken, seat, played)
                if len(memo) >= MEMO_LIMIT:
                    memo.clear()
                memo[key] = cards
            return cards

        def legal_at(
            hand: int, trick: tuple[int, ...], leader: int, broken: bool, seat: int, rem: int
        ) -> int:
            """:func:`legal_of` for a seat that is not the one to play to
            ``trick`` (a partner asked ahead of its turn): remembered under
            a key of its own, with the seat."""
            played = played_root | (rem_root & ~rem)
            key = (
                (hand, trick, leader, broken, seat, played)
                if history
                else (hand, trick, leader, broken, seat)
            )
            cards = memo.get(key, -1)
            if cards < 0:
                cards = ask(hand, trick, leader, broken, seat, played)
                if len(memo) >= MEMO_LIMIT:
                    memo.clear()
                memo[key] = cards
            return cards

        return legal_of, legal_at

    def _make_trick_end(
        self,
    ) -> tuple[Callable[[tuple[int, ...]], int], Callable[[tuple[int, ...], int], bool]]:
        rules, trump = self.rules, self.trump
        table = self.table
        winners = table.winners
        ask_winner = lowlevel.trick_winner
        ask_breaks = lowlevel.breaks_in
        context_at = self.context_at

        def winner(trick: tuple[int, ...]) -> int:
            """The position in the full ``trick`` of the card that wins it:
            the ranking part's ``trick_winner`` (given the trick and the
            trump), remembered by the trick."""
            at = winners.get(trick, -1)
            if at < 0:
                at = ask_winner(rules, trick, trump)
                if len(winners) >= MEMO_LIMIT:
                    winners.clear()
                winners[trick] = at
            return at

        def breaks(trick: tuple[int, ...], played: int) -> bool:
            """Whether the full ``trick`` breaks trump, ``played`` (a bit set)
            having been played to the deal's earlier tricks: the lead part's
            ``breaks_trump``, asked (while trump is not broken, as the engine
            asks it) with the deal's context at that trick - the one the
            trick's legal plays were asked with.  Not remembered: the same
            trick after the same cards hardly comes back (about 1 in 100)."""
            return ask_breaks(rules, context_at(played, False), trick)

        return winner, breaks
