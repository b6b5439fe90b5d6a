"""A rule set compiled for the batch engine: tables and mask expressions.

:func:`compile` asks the rule set's plan and parts once for a finite form of
each decision the batch engine makes, and checks it:

- **ranking** - the card order under each trump (the plan's
  :meth:`~backalley.rules.plan.Plan.card_order`, learned from the ranking
  part's ``trick_winner`` and checked on longer tricks): each card's
  strength within its suit and, per trick's best card, the cards that beat
  it; it must be a standard order (a ranking whose tricks no card order
  describes is refused), and the ranking part's ``highest`` and ``lowest``
  must agree with it;
- **lead and follow** - the parts' restrictions as expressions of the mask
  algebra (``restrictions_form``), per trump and card led;
- **breaking trump** - the lead part's ``breaks_trump_form``;
- **the opening** - the trump part's :class:`~backalley.rules.trump.OpeningForm`
  and its ``trump_for`` per deal, dealer and turn-up;
- **the dealing** - the kernel's ``receiver`` of each card of a deck order;
- **scoring** - the scoring part's ``score_key`` and ``score_reads_dealt``:
  points are remembered per key and tricks;
- **the calls** - the bidding tree as an automaton
  (:class:`~backalley.batch.calls.CallAutomaton`), met up front within
  :data:`CALL_BUDGET`;
- **per-deal decisions** (the trump choices, the first leader, the score
  key, the next dealer, the cards the opening shows) - which facts of a
  deal's context each reads (``context_reads``), so that the batch engine
  asks the plan once per distinct set of them.

``backalley.batch.compile`` then checks the tables on sample games
(:mod:`backalley.batch.verify`).

A part that declares no finite form makes :func:`compile` raise
:class:`~backalley.RuleSetError` naming the part and what it would have to
declare: never a silently different game.  The one-game engine keeps asking
such a part as always.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from backalley import variants
from backalley.adapters.encoding import Actions
from backalley.batch.calls import CallAutomaton
from backalley.batch.programs import Programs
from backalley.cards import CARDS, Suit
from backalley.cardset import CardSet
from backalley.engine import lowlevel
from backalley.engine.lowlevel import TRUMPS
from backalley.errors import RuleSetError
from backalley.masks import HAND, CardExpr, Cond, RestrictionForm
from backalley.rules import declared
from backalley.rules.context import DealContext
from backalley.rules.ruleset import RuleSet
from backalley.rules.trump import OpeningForm, declared_opening

__all__ = ["CALL_BUDGET", "EVERY_FIELD", "Tables", "compile"]

CALL_BUDGET = 100_000
"""The most calls :func:`compile` asks the plan about up front to meet the
points of the bidding (unless asked for the ``complete`` automaton); the rest
is met as games reach it."""

_CONTEXT_FIELDS = frozenset(DealContext._fields)

EVERY_FIELD = frozenset({"deal_index", "hand_size", "dealer", "trump", "outcome", "shown"})
"""The facts of a deal's context the batch engine keeps for each game."""

_PER_DEAL = (
    ("trump", "left_in_stock", False),
    ("trump", "choices", False),
    ("lead", "first_leader", False),
    ("scoring", "score_key", True),
    ("dealer", "dealer_after", True),
)
"""The decisions asked once per deal: (part, method, asked at the deal's end)."""

_ROW_OF: dict[Suit | None, int] = {trump: row for row, trump in enumerate(TRUMPS)}
"""The row of each trump in the tables kept per trump: its place in
:data:`backalley.engine.lowlevel.TRUMPS`."""


def _strength(ranking: Any, trump: Suit | None) -> np.ndarray[Any, Any]:
    """Each of the 54 cards' strength within its suit under ``trump``, as the
    ranking part's ``lowest`` orders the suit (0 its lowest card): what the
    mask algebra's highest and lowest cards are picked by.  Every card is
    ranked, the deck's or not, as the one-game engine asks the part about
    any set an expression makes (the trumps of a ranking hold both jokers,
    also where the deck has none: the lowest trump still out is never a
    joker the deck lacks under a ranking that puts them highest)."""
    strength = np.zeros(54, dtype=np.intp)
    seen = 0
    for index in range(54):
        if seen >> index & 1:
            continue
        left = ranking.suit_cards(CARDS[index], trump)
        seen |= int(left)
        rank = 0
        while left:
            low = ranking.lowest(left, trump)
            if low not in left:  # not a card of the set: the check below refuses the ranking
                break
            strength[low.index] = rank
            rank += 1
            left = left - CardSet.of((low,))
    return strength


def _row(bits: int) -> np.ndarray[Any, np.dtype[np.bool_]]:
    return np.array([bits >> i & 1 for i in range(54)], dtype=bool)


def _name(rules: RuleSet, part: str) -> str:
    return declared.part_class_name(rules, part)


class Memory:
    """What batches of one rule set remember of the plan's answers per deal
    (shared by every batch of the rule set: see :mod:`backalley.batch.engine`)."""

    def __init__(self) -> None:
        self.answers: dict[str, dict[Any, Any]] = {}
        """Per decision, the answers by the facts of the context they read."""
        self.shown_sets: list[CardSet] = [CardSet()]
        self.shown_bits: list[int] = [0]
        self.shown_ids: dict[int, int] = {0: 0}
        self.score_keys: dict[Hashable, int] = {}
        self.score_dealt: list[bool] = []


class Tables:
    """One rule set's tables (see the module's description); built by :func:`compile`."""

    def __init__(self, rules: RuleSet) -> None:
        problems: list[str] = []
        self.rules = rules
        plan = self.plan = rules.plan
        self.players: int = plan.players
        self.sides: int = len(plan.teams)
        self.seat_teams = np.array(plan.seat_teams, dtype=np.intp)
        self.hand_sizes: tuple[int, ...] = plan.hand_sizes
        self.deals: int = len(self.hand_sizes)
        self.actions = Actions.for_rules(rules)
        self.deck_cards = np.array(plan.deck_cards, dtype=np.intp)
        self.first_bidders: tuple[int, ...] = plan.first_bidders
        self.receiver = self._receivers()
        self._check_trump(problems)
        self._orders(problems)
        lead = self._lead_programs(problems)
        follow = self._follow_programs(problems)
        breaks = self._breaks_programs(problems)
        self._scoring(problems)
        self._reads: dict[tuple[str, str], frozenset[str]] = {}
        self._arguments: dict[tuple[str, str], frozenset[str] | None] = {}
        for part, method, at_end in _PER_DEAL:
            self._reads[(part, method)] = self._declared_reads(part, method, at_end, problems)
        if problems or lead is None or follow is None or breaks is None:
            raise RuleSetError(problems)
        self.lead: Programs = lead
        """The lead part's expressions, per trump."""
        self.follow: Programs = follow
        """The follow part's expressions, per trump and card led (trump x 54 + card)."""
        self.breaks: Programs = breaks
        """The lead part's breaking of trump, per trump and card led."""
        self.redealer = np.array(
            [plan.redealer(dealer) for dealer in range(self.players)], dtype=np.intp
        )
        self.calls = CallAutomaton(plan, self.actions)
        self.roots = np.zeros((max(self.hand_sizes) + 1, self.players), dtype=np.intp)
        for h in sorted(set(self.hand_sizes)):
            for first in sorted(set(self.first_bidders)):
                self.roots[h, first] = self.calls.root(h, first)
        self.memory = Memory()
        self.verified = False
        """Whether the tables were checked on a sample (:mod:`backalley.batch.verify`)."""
        self.complete = self.calls.fill(CALL_BUDGET)
        """Whether every point of the bidding was met when compiled (else the
        rest is met as games reach it)."""

    def reads(self, part: str, method: str) -> frozenset[str]:
        """The facts of a deal's context that the batch engine remembers
        ``part``'s ``method`` answers by (what the part declares it reads;
        every fact the batch keeps where it declares nothing)."""
        return self._reads[(part, method)]

    def reads_argument(self, part: str, method: str, name: str) -> bool:
        """Whether ``part``'s ``method`` reads its argument ``name`` (as it
        declares; ``True`` where it declares nothing)."""
        found = self._arguments[(part, method)]
        return found is None or name in found

    def _declared_reads(
        self, part: str, method: str, at_end: bool, problems: list[str]
    ) -> frozenset[str]:
        reads = declared.reads(self.rules, part, method)
        if reads is None:
            self._arguments[(part, method)] = None
            return EVERY_FIELD
        self._arguments[(part, method)] = reads - _CONTEXT_FIELDS
        later = set(reads) & {"played", "broken", "played_by"}
        if at_end and later:
            problems.append(
                f"{part}: {_name(self.rules, part)}.{method} reads {', '.join(sorted(later))} of "
                "the deal's context, which the batch engine does not keep for it"
            )
        return frozenset(reads) & EVERY_FIELD

    # ---------------------------------------------------------------- dealing

    def _receivers(self) -> np.ndarray[Any, np.dtype[np.intp]]:
        """``(largest hand + 1, players, deck size)``: the seat each card of a
        deck order goes to (-1: the stock), by hand size and dealer (the
        kernel's ``receiver``)."""
        size = len(self.deck_cards)
        out = np.full((max(self.hand_sizes) + 1, self.players, size), -1, dtype=np.intp)
        for h in set(self.hand_sizes):
            for dealer in range(self.players):
                for k in range(size):
                    seat = lowlevel.receiver(k, dealer, self.players, h)
                    out[h, dealer, k] = -1 if seat is None else seat
        return out

    # ----------------------------------------------------------------- trump

    def _check_trump(self, problems: list[str]) -> None:
        rules, plan = self.rules, self.plan
        trump = rules.trump
        name = _name(rules, "trump")
        if plan.draws_before_deal:
            problems.append(
                f"trump: {name} draws trump from a shuffle of its own before each deal, which "
                "the batch engine does not deal; it would have to declare an OpeningForm instead"
            )
            return
        form = declared_opening(trump)
        if form is None:
            problems.append(
                f"trump: {name} gives an opening of its own and declares no opening_form "
                "(an OpeningForm that its opening carries out), so the batch engine cannot "
                "open its deals"
            )
            return
        self.opening: OpeningForm = form
        self.passes = _row(int(form.passes))
        self.swap_bits = np.array([int(cards) for cards in form.swap], dtype=np.uint64)
        # the trump (its row, see _ROW_OF) per deal, dealer and turn-up (54: none turned)
        self.trump_of = np.zeros((self.deals, self.players, 55), dtype=np.intp)
        for k, h in enumerate(self.hand_sizes):
            for dealer in range(self.players):
                ctx = plan.deal_context(k, dealer, h)
                for index in range(55):
                    card = CARDS[index] if index < 54 else None
                    answer = trump.trump_for(ctx, card)
                    if not (answer is None or isinstance(answer, Suit)):
                        problems.append(
                            f"trump: {name}.trump_for must answer a suit or None, not {answer!r}"
                        )
                        return
                    self.trump_of[k, dealer, index] = _ROW_OF[answer]

    # --------------------------------------------------------------- ranking

    def _orders(self, problems: list[str]) -> None:
        plan, rules = self.plan, self.rules
        ranking = rules.ranking
        name = _name(rules, "ranking")
        self.strength = np.zeros((5, 54), dtype=np.intp)
        self.beats = np.zeros((5, 54, 54), dtype=bool)
        self.beat_bits = np.zeros((5, 54), dtype=np.uint64)
        """Per trump and best card of a trick so far, the cards that beat it (bit sets)."""
        self.trumps = np.zeros((5, 54), dtype=bool)
        rng = random.Random(20261207)
        for t, trump in enumerate(TRUMPS):
            order = plan.card_order(trump)
            if not order.standard:
                problems.append(
                    f"ranking: {name}'s trick winners fit no card order under "
                    f"{'no trump' if trump is None else trump.plural}, so the batch engine has "
                    "no table of them (a ranking whose tricks are won by the highest trump, "
                    "else the highest card of the suit led, compiles)"
                )
                return
            self.strength[t] = _strength(ranking, trump)
            self.trumps[t] = _row(order.trumps)
            for best in plan.deck_cards:
                self.beats[t, best] = _row(order.beaters((best,)))
                self.beat_bits[t, best] = order.beaters((best,))
            # the ranking part's highest and lowest must be the order's
            for suit in set(order.suit):
                if not suit:
                    continue
                members = [c for c in plan.deck_cards if suit >> c & 1]
                for _ in range(4):
                    sample = rng.sample(members, rng.randint(1, len(members)))
                    cards = CardSet(sum(1 << c for c in sample))
                    strongest = max(sample, key=lambda c: order.strength[c])
                    weakest = min(sample, key=lambda c: order.strength[c])
                    if (
                        ranking.highest(cards, trump).index != strongest
                        or ranking.lowest(cards, trump).index != weakest
                    ):
                        problems.append(
                            f"ranking: {name}.highest or lowest of {cards} disagrees with the "
                            "order its trick winners give, so the batch engine cannot rank "
                            "with one table"
                        )
                        return

    # ---------------------------------------------------------- lead, follow

    def _form(self, part: str, problems: list[str]) -> Callable[..., RestrictionForm] | None:
        found = declared.declaration(self.rules, part, "restrictions_form")
        if found is None:
            name = _name(self.rules, part)
            problems.append(
                f"{part}: {name} declares no restrictions_form (its restrictions as "
                "expressions of the mask algebra, backalley.masks), so the batch engine "
                f"cannot evaluate its rule; {name}.restrictions is asked by the one-game "
                "engine only"
            )
        return found

    def _legal_expr(self, form: RestrictionForm, part: str) -> CardExpr:
        """The cards a form leaves the hand: the hand narrowed by every restriction."""
        out: CardExpr = HAND
        try:
            for expr, _reason in form:
                out = out & expr
        except (TypeError, ValueError):
            name = _name(self.rules, part)
            raise RuleSetError(
                [f"{part}: {name}.restrictions_form must answer (expression, Reason) pairs"]
            ) from None
        return out

    def _lead_programs(self, problems: list[str]) -> Programs | None:
        form = self._form("lead", problems)
        if form is None:
            return None
        ranking = self.rules.ranking
        return Programs([self._legal_expr(form(ranking, trump), "lead") for trump in TRUMPS])

    def _follow_programs(self, problems: list[str]) -> Programs | None:
        form = self._form("follow", problems)
        if form is None:
            return None
        ranking = self.rules.ranking
        exprs: list[CardExpr | Cond] = []
        for trump in TRUMPS:
            for index in range(54):
                exprs.append(self._legal_expr(form(ranking, trump, CARDS[index]), "follow"))
        return Programs(exprs)

    def _breaks_programs(self, problems: list[str]) -> Programs | None:
        breaking = declared.declaration(self.rules, "lead", "breaks_trump_form")
        if breaking is None:
            problems.append(
                f"lead: {_name(self.rules, 'lead')} declares no breaks_trump_form (whether a "
                "completed trick breaks trump, as a condition of the mask algebra)"
            )
            return None
        ranking = self.rules.ranking
        conds: list[CardExpr | Cond] = []
        for trump in TRUMPS:
            for index in range(54):
                conds.append(breaking(ranking, trump, CARDS[index]))
        return Programs(conds)

    # --------------------------------------------------------------- scoring

    def _scoring(self, problems: list[str]) -> None:
        key = declared.declaration(self.rules, "scoring", "score_key")
        reads = declared.declaration(self.rules, "scoring", "score_reads_dealt")
        if key is None or reads is None:
            problems.append(
                f"scoring: {_name(self.rules, 'scoring')} declares no score_key and "
                "score_reads_dealt (what its points read of a deal besides the tricks, and "
                "whether they read the hands as dealt), so the batch engine cannot remember "
                "its points"
            )
            return
        self.score_key: Callable[[DealContext], Hashable] = key
        self.score_reads_dealt: Callable[[DealContext], bool] = reads


def compile(rules: RuleSet | str) -> Tables:
    """The batch engine's tables of ``rules`` (a rule set, or a registered
    variant's name), built once per rule set and kept with its plan (freed
    with the rule set);
    :class:`~backalley.RuleSetError` naming each part that declares no finite
    form."""
    if isinstance(rules, str):
        rules = variants.get(rules)
    if not isinstance(rules, RuleSet):
        raise RuleSetError(
            [f"batch.compile takes a RuleSet or a variant's name (e.g. 'gamerules'), not {rules!r}"]
        )
    plan = rules.plan
    found = plan.compiled
    if not isinstance(found, Tables):
        found = Tables(rules)
        plan.compiled = found
    return found
