"""A rule set's plan: where the engine asks the parts and remembers their answers.

The rules live in their parts, each decision in one protocol method; the plan
never restates one.  It is built once per :class:`~backalley.RuleSet`
(:attr:`RuleSet.plan`) and does four things:

- **It asks.**  Every decision the engine needs goes through one method here,
  which calls the part's protocol method: the plays through the lead and follow
  parts' ``restrictions`` (:meth:`Plan.play_mask`, :meth:`Plan.play_refusal`),
  the calls through the bidding part's ``calls``, ``refusal`` and ``speaker``
  (:meth:`Plan.legal_calls`, :meth:`Plan.call_refusal`, :meth:`Plan.known_calls`),
  the trick winner through the ranking part's ``trick_winner``, and so on.  A user's part, or a
  subclass overriding any one method, is therefore followed everywhere: legal
  moves, refusals, ``apply``, views, the solver and the bots.
- **It checks the answers.**  A part that answers something the engine cannot
  use (a seat that does not exist, a winner outside the trick, a number of
  points per side that is not one whole number for each side, no legal move
  for the seat to act) raises :class:`~backalley.RuleSetError` naming the part
  and the method.
- **It remembers.**  (The play's memory is its base class,
  :class:`~backalley.rules.play_memory.PlayMemory`, a module of its own; the
  rest of the plan asks the parts, one method per decision: one job, in one
  module of about 500 lines.)  The answers of the bidding part are kept in the plan's
  bidding tree (:attr:`Plan.call_tree`, a
  :class:`~backalley.rules.calltree.CallTree`): one
  :class:`~backalley.rules.calltree.CallNode` per bidding met and one set of
  legal calls per *answer key* the bidding part declares (``answer_key(ctx)``,
  trusted only from the class that decides; see
  :mod:`backalley.rules.calltree`).
  The lead and follow parts' restrictions are kept by the plan, per
  *play key*: what a part declares its answer reads (``restrictions_key``, a
  :class:`~backalley.rules.keys.PlayKey`, asked once per trump and card
  led), computed here from the engine's bit sets (:meth:`Plan.play_mask`).
- **It checks the keys.**  A key is the part's claim; with
  :data:`CHECK_KEYS` (``BACKALLEY_CHECK_KEYS=1``) the plan asks the part again
  wherever it would answer from what it remembers by a key, and raises
  :class:`~backalley.RuleSetError` naming the part when the answers differ.

The optional methods a part may give (the keys, ``direct_counters``,
``trump_before_deal``, ``left_in_stock``) are runtime-checkable protocols of
:mod:`backalley.rules.protocols`, found once, when the plan is built.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Sequence
from itertools import repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from backalley.cards import CARDS, Card, Suit
from backalley.cardset import CardSet
from backalley.errors import Reason, RuleSetError, SetupError
from backalley.moves import Move, NameTrump
from backalley.rules.calltree import CallAnswers, CallNode, CallTree, trusted_answer_key
from backalley.rules.claims import checked_refusal, trusted_declaration
from backalley.rules.context import BiddingContext, DealContext
from backalley.rules.order import CardOrder, learn
from backalley.rules.play_memory import (
    CARD_BITS,
    PLAY_ANSWERS_LIMIT,
    PLAYS_LIMIT,
    PlayMemory,
    cards_of_trick,
)
from backalley.rules.protocols import (
    DirectCounters,
    DrawsTrumpBeforeDeal,
    PricesOvertricks,
    Refusal,
    ShowsStock,
)
from backalley.values import BiddingOutcome, RawTrick

if TYPE_CHECKING:
    from backalley.rules.ruleset import RuleSet

__all__ = [
    "CHECK_KEYS",
    "PLAYS_LIMIT",
    "PLAY_ANSWERS_LIMIT",
    "RULED_OUT_LIMIT",
    "CallAnswers",
    "CallNode",
    "Plan",
    "trusted_answer_key",
    "trusted_declaration",
]

RULED_OUT_LIMIT = 8_192
"""The most positions (a public history and a seat) whose ruled-out cards a
plan keeps (:meth:`Plan.ruled_out`); the table starts afresh beyond."""

CHECK_KEYS: bool = os.environ.get("BACKALLEY_CHECK_KEYS", "").strip() not in ("", "0")
"""The checking mode of keys (``BACKALLEY_CHECK_KEYS=1`` in the environment,
read once, when the library is imported; a plan reads it when it is built):
every answer the plan would give from what it remembers by a part's key, it
asks the part again and compares, and raises
:class:`~backalley.RuleSetError` naming the part when they differ."""

_cardset = int.__new__  # a CardSet of the engine's own bit set (checked already)
_and = int.__and__  # the intersection of two bit sets as a plain int


_CARD_OF = CARDS.__getitem__
_INDEX_OF = attrgetter("index")


class Plan(PlayMemory):
    """Where the engine asks one :class:`~backalley.RuleSet`'s parts (see :attr:`RuleSet.plan`)."""

    __slots__ = (
        "_breaks_trump",
        "_orders",
        "_overtricks",
        "_overtricks_costs",
        "_parts",
        "_ruled_out",
        "_stock_shown",
        "_trick_winner",
        "_trump_drawn",
        "call_tree",
        "compiled",
        "deck_cards",
        "deck_mask",
        "direct_counters",
        "draws_before_deal",
        "first_bidders",
        "hand_sizes",
        "players",
        "score_key",
        "seat_teams",
        "shuffles_per_deal",
        "teams",
    )

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        parts: Any = rules  # (a local: mypy would narrow self._parts to RuleSet here)
        self._parts: Any = parts
        """The rule set again, typed ``Any``: the plan asks the parts through it,
        so that their answers reach its checks as they are, also in the compiled
        build (where mypyc would check an annotated answer's type first)."""
        self.players = rules.players
        self.seat_teams = rules.seat_teams
        self.teams = rules.teams
        mask = int(rules.deck.cards)
        self.deck_mask: int = mask
        self.deck_cards: tuple[int, ...] = tuple(i for i in range(54) if mask >> i & 1)
        self.hand_sizes: tuple[int, ...] = tuple(parts.schedule.hand_sizes)
        bidding = parts.bidding
        self.first_bidders: tuple[int, ...] = tuple(
            self._seat(bidding.first(dealer, self.players), "bidding", "first")
            for dealer in range(self.players)
        )
        """The seat that speaks first in the bidding, by dealer (the bidding part's ``first``)."""
        # the optional hooks (runtime-checkable protocols), found once
        self.direct_counters: tuple[int, ...] = (
            tuple(bidding.direct_counters()) if isinstance(bidding, DirectCounters) else ()
        )
        """The multipliers a direct counter call may name (the bidding part's ``direct_counters()``)."""
        trump = rules.trump
        self._trump_drawn = trump if isinstance(trump, DrawsTrumpBeforeDeal) else None
        self._stock_shown = trump if isinstance(trump, ShowsStock) else None
        self.draws_before_deal: bool = self._trump_drawn is not None
        """Whether the trump part draws trump from a shuffle of its own before each deal."""
        self.shuffles_per_deal: int = 2 if self.draws_before_deal else 1
        """How many shuffles of the deck each deal takes: the deal's own, after
        the one the trump is drawn from, if any."""
        self.score_key: Callable[[DealContext], Hashable] | None = trusted_declaration(
            rules.scoring, "score_key"
        )
        """What the scoring part declares its points read of a deal besides the
        tricks and the hands as dealt (its ``score_key(ctx)``), when trusted
        (:func:`trusted_declaration`); ``None`` otherwise.  A tool may remember
        points by it; the plan asks ``score`` for every deal."""
        scoring = rules.scoring
        self._overtricks = scoring if isinstance(scoring, PricesOvertricks) else None
        self._overtricks_costs: dict[int, bool] = {}
        self._trick_winner = parts.ranking.trick_winner
        self._breaks_trump = parts.lead.breaks_trump
        PlayMemory.__init__(self, rules, CHECK_KEYS)
        self.compiled: object = None
        """What a tool compiled of the rule set once (the batch engine's
        tables), kept with the plan so that it lives as long as the rule set."""
        self.call_tree = CallTree(rules, self._check)
        """The bidding tree: the bidding part's answers, asked and remembered
        (:class:`~backalley.rules.calltree.CallTree`)."""
        self._orders: dict[Suit | None, CardOrder] = {}
        self._ruled_out: dict[Hashable, tuple[int, int]] = {}

    # ------------------------------------------------------------- checking

    def _seat(self, seat: object, part: str, method: str) -> int:
        """``seat`` if it is a seat of this rule set, else a RuleSetError naming the part."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise RuleSetError(
                [
                    f"{part}: {type(getattr(self.rules, part)).__name__}.{method} answered "
                    f"{seat!r}, which is not a seat (0 to {self.players - 1})"
                ]
            )
        return seat

    # ------------------------------------------------------------- contexts

    def deal_context(
        self,
        deal_index: int,
        dealer: int,
        hand_size: int,
        outcome: BiddingOutcome | None = None,
        trump: Suit | None = None,
    ) -> DealContext:
        """The :class:`DealContext` of a deal of this rule set."""
        return DealContext(
            self.players,
            self.seat_teams,
            self.teams,
            deal_index,
            dealer,
            hand_size,
            outcome,
            trump,
            self.rules.ranking,
        )

    def bidding_context(self, ctx: DealContext, calls: tuple[Move, ...]) -> BiddingContext:
        """The bidding part's view of the deal, with ``calls`` so far."""
        return BiddingContext(
            ctx.hand_size,
            self.players,
            self.first_bidders[ctx.dealer],
            calls,
            self.teams,
            self.seat_teams,
        )

    # -------------------------------------------------------------- bidding

    def legal_calls(self, ctx: BiddingContext) -> tuple[Move, ...]:
        """The legal calls at ``ctx``: the bidding part's calls its ``refusal`` lets through."""
        return self.call_tree.legal_calls(ctx)

    def call_refusal(self, ctx: BiddingContext, move: Move) -> Refusal | None:
        """Why ``move`` may not be called at ``ctx`` (the bidding part's
        ``refusal``), or ``None`` if it may."""
        return self.call_tree.call_refusal(ctx, move)

    def known_calls(self, ctx: BiddingContext) -> tuple[Move, ...]:
        """Every call the bidding part knows at ``ctx`` (its ``calls``), legal
        or not, in its order; none once the bidding is over.  The legal ones
        are :meth:`legal_calls`, and :meth:`call_refusal` says why each other
        one is refused, so a user interface can show a button per call."""
        return self.call_tree.known_calls(ctx)

    def bidding_outcome(self, ctx: BiddingContext) -> BiddingOutcome:
        """The contracts of a complete bidding (the bidding part's ``outcome``)."""
        return self.call_tree.outcome(ctx)

    def call_node(self, ctx: DealContext, calls: tuple[Move, ...] = ()) -> CallNode:
        """The bidding node of a deal after ``calls`` (each a legal call at its turn)."""
        node = self.opening_node(ctx.hand_size, self.first_bidders[ctx.dealer])
        for call in calls:
            found = node.find(call)
            if found is None:
                raise SetupError(f"{call} is not a legal call after {node.ctx.calls}")
            node = node.after(found)
        return node

    def opening_node(self, hand_size: int, first: int) -> CallNode:
        """The bidding node of a deal of ``hand_size`` cards before any call,
        seat ``first`` to speak first (one node shared by every such deal)."""
        return self.call_tree.opening_node(hand_size, first)

    def redealer(self, dealer: int) -> int:
        """Who deals again after a thrown-in deal (the bidding part's ``redealer``)."""
        return self._seat(self._parts.bidding.redealer(dealer, self.players), "bidding", "redealer")

    # ----------------------------------------------------------------- play

    def trick_position(self, ctx: DealContext, trick: tuple[int, ...]) -> int:
        """The position in a completed trick (0 = the lead) of the card that
        wins it (the ranking part's ``trick_winner``, checked)."""
        return self._winner(ctx, cards_of_trick(trick), 0)

    def card_order(self, trump: Suit | None) -> CardOrder:
        """The card order under ``trump`` that the tools plan with (which cards
        are trumps, the suits, which card is higher, which cards would win a
        trick): learned once from the ranking part's ``trick_winner``, each
        answer checked as :meth:`trick_position` checks it, and remembered
        (see :mod:`backalley.rules.order`, which says how it is checked and
        what it falls back to)."""
        found = self._orders.get(trump)
        if found is None:
            ctx = self.deal_context(0, 0, 1, trump=trump)  # trick_winner reads the trump alone

            def win(trick: tuple[int, ...]) -> int:
                return self._winner(ctx, cards_of_trick(trick), 0)

            found = learn(trump, win, self.players, self.deck_cards, self.rules.ranking)
            self._orders[trump] = found
        return found

    def play_refusal(
        self,
        ctx: DealContext,
        seat: int,
        hand: int,
        trick: tuple[int, ...],
        leader: int,
        broken: bool,
        card: int,
    ) -> Refusal | None:
        """Why ``seat`` may not play ``card`` now, or ``None`` if it may: the
        first restriction that excludes it, explained by the same part (asked
        now, not remembered: a refusal is worked out only for a refused move)."""
        bit = 1 << card
        if not self.deck_mask & bit:
            return (Reason.NOT_IN_DECK, f"{CARDS[card]} is not in this game's deck")
        if not hand & bit:
            return (Reason.NOT_IN_HAND, f"you do not hold {CARDS[card]}")
        rules = self._parts
        found = self._restrictions(ctx, seat, hand, trick, leader, broken)
        if ctx.broken is not broken:
            ctx = ctx._replace(broken=broken)
        remaining = hand
        part = "follow" if trick else "lead"
        for allowed, reason in found:
            narrowed = allowed & remaining
            if not narrowed & bit:
                kept = _cardset(CardSet, narrowed)
                if trick:
                    text = rules.follow.explain(
                        ctx, reason, CARDS[card], kept, cards_of_trick(trick)
                    )
                else:
                    text = rules.lead.explain(ctx, reason, CARDS[card], kept)
                return checked_refusal(
                    (reason, text), f"{part}: {type(getattr(rules, part)).__name__}.explain"
                )
            remaining = narrowed
        return None

    def trick_end(
        self, ctx: DealContext, trick: tuple[int, ...], leader: int, broken: bool
    ) -> tuple[int, bool]:
        """The seat that wins a completed trick (the ranking part's
        ``trick_winner``) and whether trump is broken after it (the lead part's
        ``breaks_trump``, asked while it is not)."""
        cards = tuple(map(_CARD_OF, trick))
        position = self._trick_winner(cards, ctx.trump)
        if type(position) is not int or not 0 <= position < len(cards):
            self._winner(ctx, cards, leader)  # raises, naming the part
        if not broken:
            broken = bool(self._breaks_trump(ctx, cards))
        return (leader + position) % self.players, broken

    def _winner(self, ctx: DealContext, trick: tuple[Card, ...], leader: int) -> int:
        position = self._parts.ranking.trick_winner(trick, ctx.trump)
        if type(position) is not int or not 0 <= position < len(trick):
            raise RuleSetError(
                [
                    f"ranking: {type(self.rules.ranking).__name__}.trick_winner answered "
                    f"{position!r} for a {len(trick)}-card trick; it must be a position "
                    f"0 to {len(trick) - 1}"
                ]
            )
        return (leader + position) % self.players

    def breaks_trump(self, ctx: DealContext, trick: tuple[int, ...]) -> bool:
        """Whether a completed trick breaks trump (the lead part's ``breaks_trump``)."""
        return bool(self._parts.lead.breaks_trump(ctx, cards_of_trick(trick)))

    def ruled_out(
        self,
        ctx: DealContext,
        history: tuple[RawTrick, ...],
        trick: tuple[int, tuple[int, ...]],
        seat: int,
        candidates: int,
    ) -> int:
        """The cards of ``candidates`` that ``seat``'s plays of the deal so far
        (the completed tricks ``history``, then ``trick``: its leader and
        cards) show it does not hold: each play is asked of :meth:`play_mask`
        again, from a hand of the card played and the candidate, in that
        trick's position (the cards before it, whether trump was broken); a
        candidate the card would have been illegal beside is ruled out.  The
        answer depends on the public history alone, not on who asks: it is
        remembered per position and seat, with the candidates asked so far
        (at most :data:`RULED_OUT_LIMIT` positions; the table starts afresh
        beyond)."""
        key = (ctx, history, trick, seat)
        table = self._ruled_out
        asked, out = table.get(key, (0, 0))
        new = candidates & ~asked
        if new:
            out |= self._rule_out(ctx, (*history, (trick[0], trick[1], -1)), seat, new)
            asked |= new
            if len(table) >= RULED_OUT_LIMIT:
                table.clear()
            table[key] = (asked, out)
        return out & candidates

    def _rule_out(
        self, ctx: DealContext, tricks: tuple[RawTrick, ...], seat: int, candidates: int
    ) -> int:
        n = self.players
        broken = False
        played = 0  # the cards of the tricks before this one, as the trick's context has them
        played_by = [0] * n  # and seat by seat
        out = 0
        for lead, cards, win in tricks:
            if ctx.played != played:
                ctx = ctx._replace(played=CardSet(played), played_by=tuple(map(CardSet, played_by)))
            for k, card in enumerate(cards):
                if (lead + k) % n != seat:
                    continue
                before = cards[:k]
                bit = 1 << card
                left = candidates & ~out
                while left:
                    low = left & -left
                    left ^= low
                    if not self.play_mask(ctx, seat, bit | low, before, lead, broken) & bit:
                        out |= low
            if win >= 0:
                broken = broken or self.breaks_trump(ctx, cards)
                played |= sum(1 << c for c in cards)  # distinct cards: the sum is the union
                for k, card in enumerate(cards):
                    played_by[(lead + k) % n] |= 1 << card
        return out

    def first_leader(self, ctx: DealContext) -> int:
        """Who leads the first trick of a played deal (the lead part's ``first_leader``)."""
        return self._seat(self._parts.lead.first_leader(ctx), "lead", "first_leader")

    def opening(
        self, ctx: DealContext, hands: tuple[int, ...], stock: tuple[int, ...]
    ) -> tuple[tuple[int, ...], tuple[int, ...], int | None, int, Suit | None]:
        """The trump part's opening of a freshly dealt deal (its ``opening``), in
        the engine's raw forms: the hands, the stock, the turn-up, the discards
        and the opening trump; a setup that loses or invents cards is refused."""
        given = tuple(map(_cardset, repeat(CardSet), hands))
        setup = self._parts.trump.opening(ctx, given, tuple(map(_CARD_OF, stock)))
        name = type(self.rules.trump).__name__
        try:
            held = hands if setup.hands == given else tuple(map(int, setup.hands))
            left = tuple(map(_INDEX_OF, setup.stock))
            turn_up = None if setup.turn_up is None else setup.turn_up.index
            discards = int(setup.discards)
            trump = setup.trump
            # distinct cards: a sum of their bits is their union
            every = discards | sum(map(CARD_BITS.__getitem__, left))
        except (AttributeError, TypeError, ValueError, IndexError):
            raise RuleSetError(
                [f"trump: {name}.opening must answer a TrumpSetup of cards, not {setup!r}"]
            ) from None
        count = discards.bit_count() + len(left)
        if turn_up is not None:
            every |= 1 << turn_up
            count += 1
        size = ctx.hand_size
        for hand in held:
            every |= hand
            count += hand.bit_count()
        if (
            len(held) != self.players
            or every != self.deck_mask
            or count != len(self.deck_cards)
            or any(hand.bit_count() != size for hand in held)
            or not (trump is None or isinstance(trump, Suit))
        ):
            raise RuleSetError(
                [
                    f"trump: {name}.opening must keep every dealt card exactly once "
                    f"({ctx.hand_size} per hand, the rest in the stock, the turn-up or the "
                    f"discards) and answer a suit or None as trump, not {setup!r}"
                ]
            )
        return held, left, turn_up, discards, trump

    def trump_before_deal(self, ctx: DealContext, shuffle: tuple[int, ...]) -> Suit | None:
        """The trump the trump part draws from ``shuffle`` (the whole deck,
        shuffled before the deal; its ``trump_before_deal``)."""
        part = self._trump_drawn
        if part is None:
            raise SetupError("these rules draw no trump before the deal")
        trump = part.trump_before_deal(ctx, tuple(map(CARDS.__getitem__, shuffle)))
        if not (trump is None or isinstance(trump, Suit)):
            name = type(self.rules.trump).__name__
            raise RuleSetError(
                [f"trump: {name}.trump_before_deal must answer a suit or None, not {trump!r}"]
            )
        return trump

    def opening_trump(
        self, ctx: DealContext, turn_up: int | None, shown: Suit | None
    ) -> Suit | None:
        """The trump at the opening of a deal as a player sees it: the one the
        trump part makes of the turn-up, or, for a part that draws trump
        before the deal, the one ``shown`` (any suit may have been drawn)."""
        if self.draws_before_deal:
            return shown
        return self.rules.trump.trump_for(ctx, None if turn_up is None else CARDS[turn_up])

    def shown(self, ctx: DealContext, turn_up: int | None, discards: int) -> CardSet:
        """The cards a deal's opening shows to be in no hand (its context's
        ``shown``): the turn-up, the discards and those the trump part's
        ``left_in_stock`` shows."""
        bits = discards | self.left_in_stock(ctx, turn_up, discards)
        if turn_up is not None:
            bits |= 1 << turn_up
        return _cardset(CardSet, bits)

    def left_in_stock(self, ctx: DealContext, turn_up: int | None, discards: int) -> int:
        """The cards the deal's opening shows to be in no hand (the trump
        part's ``left_in_stock``; nothing for a part without it), as a bit set
        of the deck's cards."""
        part = self._stock_shown
        if part is None:
            return 0
        shown = part.left_in_stock(
            ctx, None if turn_up is None else CARDS[turn_up], _cardset(CardSet, discards)
        )
        if not isinstance(shown, int) or isinstance(shown, bool):
            name = type(self.rules.trump).__name__
            raise RuleSetError(
                [f"trump: {name}.left_in_stock must answer a CardSet, not {shown!r}"]
            )
        return _and(shown, self.deck_mask)

    def trump_choices(self, ctx: DealContext) -> tuple[Any, ...]:
        """What a declarer may name as trump (none: the deal is played at once)."""
        return tuple(self._parts.trump.choices(ctx))

    def trump_calls(self, ctx: DealContext) -> tuple[NameTrump, ...]:
        """The declarer's legal trump calls, in the trump part's order."""
        return tuple(NameTrump(suit) for suit in self.trump_choices(ctx))

    # ---------------------------------------------------------- end of deal

    def score(
        self, ctx: DealContext, tricks: tuple[int, ...], dealt: Sequence[int]
    ) -> tuple[int, ...]:
        """The points of each side (the scoring part's ``score``): one whole
        number per side, as a tuple."""
        points = self._parts.scoring.score(
            ctx, tricks, tuple([_cardset(CardSet, hand) for hand in dealt])
        )
        try:
            out = tuple(points)
        except TypeError:
            out = ()
        if len(out) != len(self.teams) or any(type(p) is not int for p in out):
            raise RuleSetError(
                [
                    f"scoring: {type(self.rules.scoring).__name__}.score must answer one whole "
                    f"number per side ({len(self.teams)}), not {points!r}"
                ]
            )
        return out

    def overtricks_cost(self, hand_size: int) -> bool:
        """Whether a trick beyond a made contract can cost points on the
        ``hand_size``-card deal (the scoring part's ``overtricks_cost``,
        asked once per hand size and remembered; a part that does not say:
        no)."""
        known = self._overtricks_costs.get(hand_size)
        if known is None:
            part = self._overtricks
            known = part is not None and bool(part.overtricks_cost(hand_size))
            self._overtricks_costs[hand_size] = known
        return known

    def game_winner(self, scores: tuple[int, ...]) -> int | None:
        """The winning side of a finished game, or ``None`` for a draw (the end
        part's ``winner``, checked to be a side)."""
        side = self._parts.end.winner(scores)
        if side is not None and (type(side) is not int or not 0 <= side < len(self.teams)):
            raise RuleSetError(
                [
                    f"end: {type(self.rules.end).__name__}.winner answered {side!r}; it must be "
                    f"a side 0 to {len(self.teams) - 1}, or None for a draw"
                ]
            )
        return side

    def dealer_after(self, ctx: DealContext, points: tuple[int, ...]) -> int:
        """The dealer of the next deal (the dealer part's ``dealer_after``)."""
        return self._seat(self._parts.dealer.dealer_after(ctx, points), "dealer", "dealer_after")
