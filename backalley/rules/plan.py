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
- **It remembers.**  The answers of the bidding part are kept in the plan's
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
from itertools import count as _count
from itertools import repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from backalley.cards import CARDS, Card, Suit
from backalley.cardset import CardSet
from backalley.errors import Reason, RuleSetError, SetupError
from backalley.moves import PLAYS, Move, NameTrump, Play
from backalley.rules.calltree import CallAnswers, CallNode, CallTree, trusted_answer_key
from backalley.rules.claims import checked_refusal, trusted_declaration
from backalley.rules.context import BiddingContext, DealContext
from backalley.rules.keys import PlayFact, PlayKey
from backalley.rules.order import CardOrder, learn
from backalley.rules.protocols import (
    DirectCounters,
    DrawsTrumpBeforeDeal,
    KeyedFollow,
    KeyedLead,
    Refusal,
    ShowsStock,
)
from backalley.values import BiddingOutcome

if TYPE_CHECKING:
    from backalley.rules.ruleset import RuleSet

__all__ = [
    "CHECK_KEYS",
    "PLAYS_LIMIT",
    "PLAY_ANSWERS_LIMIT",
    "CallAnswers",
    "CallNode",
    "Plan",
    "trusted_answer_key",
    "trusted_declaration",
]

PLAY_ANSWERS_LIMIT = 16_384
"""The most answers of the lead and follow parts a plan keeps by their keys;
the table starts afresh beyond."""

CHECK_KEYS: bool = os.environ.get("BACKALLEY_CHECK_KEYS", "").strip() not in ("", "0")
"""The checking mode of keys (``BACKALLEY_CHECK_KEYS=1`` in the environment,
read once, when the library is imported; a plan reads it when it is built):
every answer the plan would give from what it remembers by a part's key, it
asks the part again and compares, and raises
:class:`~backalley.RuleSetError` naming the part when they differ."""

PLAYS_LIMIT = 4_096
"""The most sets of legal plays spanning several suits a plan keeps whole (sets
within one suit, at most 5 x 8,191, are always kept)."""

_cardset = int.__new__  # a CardSet of the engine's own bit set (checked already)
_and = int.__and__  # the intersection of two bit sets as a plain int


_CARD_OF = CARDS.__getitem__
_INDEX_OF = attrgetter("index")


def _cards(trick: tuple[int, ...]) -> tuple[Card, ...]:
    """The cards of a trick (the engine keeps card indices)."""
    return tuple(map(_CARD_OF, trick))


_BITS: tuple[int, ...] = tuple(1 << i for i in range(54))


class _Spec(NamedTuple):
    """A lead or follow part's :class:`~backalley.rules.keys.PlayKey` for one
    situation, in bit sets: what the plan reads of a position for its key."""

    sid: int
    """The situation (one per key declared: a trump, and for a follow part a card led)."""
    holds: tuple[int, ...]
    holds_exactly: int
    trick_holds: tuple[int, ...]
    seat_played_holds: tuple[int, ...]
    flags: tuple[PlayFact, ...]
    """The facts that are true or false (a bit of the key each)."""
    sets: tuple[PlayFact, ...]
    """The facts that are sets of cards (the cards played, or shown)."""
    by_bits: list[_Answer | None] | None
    """The answers remembered by the key's bits, when the key is only bits
    (``holds`` and ``flags``): one place per value; ``None`` otherwise (the
    plan's table of answers by key)."""


_UNKEYED = _Spec(-1, (), 0, (), (), (), (), None)
_BITS_ONLY_WIDTH = 8
"""The widest key of bits alone that a plan keeps in a table of its own (256 places)."""
_SET_FACTS = frozenset({PlayFact.PLAYED, PlayFact.SHOWN})
_BROKEN, _BOARD_BIDDER, _FIRST_TRICK = PlayFact.BROKEN, PlayFact.BOARD_BIDDER, PlayFact.FIRST_TRICK
"""The spec of a situation the part declares no key for: the part is asked every time."""

_Answer = tuple[int, tuple[tuple[int, Reason], ...]]
"""A remembered answer of a lead or follow part: the cards every restriction
allows together, and the restrictions (allowed cards, reason) in order."""


def _effect(
    hand: int, restrictions: tuple[tuple[int, Reason], ...]
) -> tuple[int, tuple[tuple[int, Reason, int], ...]]:
    """What restrictions make of ``hand``: the legal cards, and for each
    restriction that refuses cards of it, those cards, its reason and what it
    keeps (what the part's ``explain`` is told): all a player can see of them."""
    remaining = hand
    refused = []
    for allowed, reason in restrictions:
        narrowed = remaining & allowed
        if narrowed != remaining:
            refused.append((remaining & ~narrowed, reason, narrowed))
        remaining = narrowed
    return remaining, tuple(refused)


class Plan:
    """Where the engine asks one :class:`~backalley.RuleSet`'s parts (see :attr:`RuleSet.plan`)."""

    __slots__ = (
        "_breaks_trump",
        "_check",
        "_follow",
        "_follow_key",
        "_follow_specs",
        "_lead",
        "_lead_key",
        "_lead_specs",
        "_orders",
        "_parts",
        "_play_answers",
        "_plays",
        "_runs",
        "_specs",
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
        "rules",
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
        self._lead = parts.lead.restrictions
        self._follow = parts.follow.restrictions
        self._trick_winner = parts.ranking.trick_winner
        self._breaks_trump = parts.lead.breaks_trump
        self._check = CHECK_KEYS
        lead, follow = rules.lead, rules.follow
        self._lead_key = (
            trusted_declaration(lead, "restrictions_key") if isinstance(lead, KeyedLead) else None
        )
        self._follow_key = (
            trusted_declaration(follow, "restrictions_key")
            if isinstance(follow, KeyedFollow)
            else None
        )
        self._lead_specs: dict[Suit | None, _Spec] = {}
        self._follow_specs: dict[Suit | None, list[_Spec | None]] = {}
        self._specs = _count()  # a number per situation (next() is atomic: threads share plans)
        self._play_answers: dict[tuple[object, ...], _Answer] = {}
        self._plays: dict[int, tuple[Play, ...]] = {}
        self._runs: tuple[dict[int, tuple[Play, ...]], ...] = tuple({} for _ in range(5))
        self.compiled: object = None
        """What a tool compiled of the rule set once (the batch engine's
        tables), kept with the plan so that it lives as long as the rule set."""
        self.call_tree = CallTree(rules, self._check)
        """The bidding tree: the bidding part's answers, asked and remembered
        (:class:`~backalley.rules.calltree.CallTree`)."""
        self._orders: dict[Suit | None, CardOrder] = {}

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

    def play_mask(
        self,
        ctx: DealContext,
        seat: int,
        hand: int,
        trick: tuple[int, ...],
        leader: int,
        broken: bool,
    ) -> int:
        """The cards ``seat`` may play from ``hand`` (a bit set): the hand
        narrowed by each restriction of the lead part (leading) or the follow
        part (following).  A rule that leaves a non-empty hand nothing to play
        raises :class:`~backalley.RuleSetError` naming the part.  The parts see
        ``broken`` as given here, also as ``ctx.broken``.

        Where the part declares a key (:class:`~backalley.rules.keys.PlayKey`)
        the answer is the one remembered for the position's key (asked of the
        part the first time, and every time in the checking mode)."""
        if trick:
            specs = self._follow_specs.get(ctx.trump)
            spec = None if specs is None else specs[trick[0]]
            if spec is None:
                spec = self._follow_spec(ctx.trump, trick[0])
        else:
            spec = self._lead_specs.get(ctx.trump) or self._lead_spec(ctx.trump)
        if spec is not _UNKEYED:
            sid, holds, exact, trick_holds, seat_holds, flags, sets, by_bits = spec
            bits = 0
            for m in holds:  # whether the hand holds a card of each set: one bit each
                bits += bits + (1 if hand & m else 0)
            for fact in flags:  # a fact that is true or false: one bit each
                if fact is _BROKEN:
                    on = broken
                elif fact is _BOARD_BIDDER:
                    outcome = ctx.outcome
                    on = outcome is not None and seat in outcome.board_bidders
                elif fact is _FIRST_TRICK:
                    on = not ctx.played
                else:  # the seat's side against the leader's
                    teams = ctx.seat_teams
                    on = teams[seat] != teams[leader]
                bits += bits + (1 if on else 0)
            if by_bits is not None:  # the key is its bits: the answer's place
                known = by_bits[bits]
                if known is None:
                    found = by_bits[bits] = self._ask(ctx, seat, hand, trick, leader, broken)
                else:
                    found = known
                    if self._check:
                        self._check_answer(found, ctx, seat, hand, trick, leader, broken)
            else:
                if trick_holds or seat_holds or sets:
                    key: tuple[object, ...] = self._long_key(spec, bits, ctx, seat, hand, trick)
                else:
                    key = (sid, bits, hand & exact)
                known = self._play_answers.get(key)
                if known is None:
                    found = self._remember(key, ctx, seat, hand, trick, leader, broken)
                else:
                    found = known
                    if self._check:
                        self._check_answer(found, ctx, seat, hand, trick, leader, broken)
            mask = hand & found[0]
        else:
            if ctx.broken is not broken:
                ctx = ctx._replace(broken=broken)
            if trick:
                answer = self._follow(ctx, seat, _cardset(CardSet, hand), _cards(trick), leader)
            else:
                answer = self._lead(ctx, seat, _cardset(CardSet, hand), broken)
            mask = hand
            try:
                for allowed, _reason in answer:
                    mask = _and(mask, allowed)
            except (TypeError, ValueError):
                raise self._bad_restrictions(trick, answer) from None
            if type(mask) is not int:  # an ``allowed`` that is not a set of cards
                raise self._bad_restrictions(trick, answer)
        if not mask and hand:
            raise self._nothing_to_play(ctx, seat, trick)
        return mask

    def _restrictions(
        self,
        ctx: DealContext,
        seat: int,
        hand: int,
        trick: tuple[int, ...],
        leader: int,
        broken: bool,
    ) -> tuple[tuple[int, Reason], ...]:
        """The lead or follow part's restrictions at this position, asked now
        and checked: ``(allowed cards, reason)`` pairs of bit sets."""
        if ctx.broken is not broken:
            ctx = ctx._replace(broken=broken)
        if trick:
            answer = self._follow(ctx, seat, _cardset(CardSet, hand), _cards(trick), leader)
        else:
            answer = self._lead(ctx, seat, _cardset(CardSet, hand), broken)
        try:
            out = tuple([(_and(allowed, -1), reason) for allowed, reason in answer])
        except (TypeError, ValueError):
            raise self._bad_restrictions(trick, answer) from None
        if not all(type(a) is int and isinstance(r, Reason) for a, r in out):
            raise self._bad_restrictions(trick, answer)
        return out

    def _lead_spec(self, trump: Suit | None) -> _Spec:
        """The lead part's key under ``trump`` (its ``restrictions_key``), compiled once."""
        declare = self._lead_key
        spec = (
            _UNKEYED if declare is None else self._spec("lead", declare(self.rules.ranking, trump))
        )
        self._lead_specs[trump] = spec
        return spec

    def _follow_spec(self, trump: Suit | None, led: int) -> _Spec:
        """The follow part's key for a trick led with card ``led`` under
        ``trump`` (its ``restrictions_key``), compiled once."""
        declare = self._follow_key
        spec = (
            _UNKEYED
            if declare is None
            else self._spec("follow", declare(self.rules.ranking, trump, CARDS[led]))
        )
        self._follow_specs.setdefault(trump, [None] * 54)[led] = spec
        return spec

    def _spec(self, part: str, key: object) -> _Spec:
        """A part's :class:`~backalley.rules.keys.PlayKey` in the plan's raw form."""
        if key is None:
            return _UNKEYED
        if not isinstance(key, PlayKey):
            name = type(getattr(self.rules, part)).__name__
            raise RuleSetError(
                [f"{part}: {name}.restrictions_key must answer a PlayKey or None, not {key!r}"]
            )
        facts = [fact for fact in PlayFact if fact in key.facts]
        flags = tuple(fact for fact in facts if fact not in _SET_FACTS)
        sets = tuple(fact for fact in facts if fact in _SET_FACTS)
        bits_only = not (key.holds_exactly or key.trick_holds or key.seat_played_holds or sets)
        width = len(key.holds) + len(flags)
        spec = _Spec(
            next(self._specs),
            tuple(int(s) for s in key.holds),
            int(key.holds_exactly),
            tuple(int(s) for s in key.trick_holds),
            tuple(int(s) for s in key.seat_played_holds),
            flags,
            sets,
            [None] * (1 << width) if bits_only and width <= _BITS_ONLY_WIDTH else None,
        )
        return spec

    def _long_key(
        self,
        spec: _Spec,
        bits: int,
        ctx: DealContext,
        seat: int,
        hand: int,
        trick: tuple[int, ...],
    ) -> tuple[object, ...]:
        """The key of a position under a spec that also reads the trick, the
        seat's earlier plays or the cards played or shown (see :class:`PlayKey`)."""
        sid, _holds, exact, trick_holds, seat_holds, _flags, sets, _by_bits = spec
        if trick_holds:
            cards = sum(map(_BITS.__getitem__, trick))  # distinct cards: the sum is the union
            for m in trick_holds:
                bits += bits + (1 if cards & m else 0)
        if seat_holds:
            played = ctx.seat_played(seat)
            for m in seat_holds:
                bits += bits + (1 if played & m else 0)
        values: list[object] = [sid, bits, hand & exact]
        for fact in sets:
            values.append(int(ctx.played) if fact is PlayFact.PLAYED else int(ctx.shown))
        return tuple(values)

    def _remember(
        self,
        key: tuple[object, ...],
        ctx: DealContext,
        seat: int,
        hand: int,
        trick: tuple[int, ...],
        leader: int,
        broken: bool,
    ) -> _Answer:
        """Ask the part at a position whose key is not remembered yet, and remember its answer."""
        answer = self._ask(ctx, seat, hand, trick, leader, broken)
        table = self._play_answers
        if len(table) >= PLAY_ANSWERS_LIMIT:  # bounded: start afresh
            table.clear()
        table[key] = answer
        return answer

    def _ask(
        self,
        ctx: DealContext,
        seat: int,
        hand: int,
        trick: tuple[int, ...],
        leader: int,
        broken: bool,
    ) -> _Answer:
        """The part's answer at a position, as the plan remembers it: the cards
        every restriction allows together, and the restrictions."""
        found = self._restrictions(ctx, seat, hand, trick, leader, broken)
        every = -1
        for allowed, _reason in found:
            every &= allowed
        return (every, found)

    def _check_answer(
        self,
        found: _Answer,
        ctx: DealContext,
        seat: int,
        hand: int,
        trick: tuple[int, ...],
        leader: int,
        broken: bool,
    ) -> None:
        """The checking mode: ask the part again and compare what its answer
        makes of this hand (the legal cards, and each refused card's reason
        and what the refusing restriction allows) with the remembered one's."""
        fresh = self._restrictions(ctx, seat, hand, trick, leader, broken)
        now, before = _effect(hand, fresh), _effect(hand, found[1])
        if now == before:
            return
        part = "follow" if trick else "lead"
        name = type(getattr(self.rules, part)).__name__
        where = f"following {' '.join(str(CARDS[c]) for c in trick)}" if trick else "leading"
        raise RuleSetError(
            [
                f"{part}: {name}.restrictions_key gives a position ({where}, seat {seat}, "
                f"hand {CardSet(hand)}, deal {ctx.deal_index + 1}) the key of an earlier one, "
                f"but {name}.restrictions answers it differently (it allows "
                f"{CardSet(now[0]) or 'nothing'}, the remembered answer "
                f"{CardSet(before[0]) or 'nothing'}; or it refuses a card for another "
                "reason): the key leaves out something the rule reads, or an allowed set "
                "depends on the rest of the hand"
            ]
        )

    def trick_position(self, ctx: DealContext, trick: tuple[int, ...]) -> int:
        """The position in a completed trick (0 = the lead) of the card that
        wins it (the ranking part's ``trick_winner``, checked)."""
        return self._winner(ctx, _cards(trick), 0)

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
                return self._winner(ctx, _cards(trick), 0)

            found = learn(trump, win, self.players, self.deck_cards, self.rules.ranking)
            self._orders[trump] = found
        return found

    def _bad_restrictions(self, trick: tuple[int, ...], found: object) -> RuleSetError:
        part = "follow" if trick else "lead"
        return RuleSetError(
            [
                f"{part}: {type(getattr(self.rules, part)).__name__}.restrictions must answer "
                f"(allowed cards, Reason) pairs, not {found!r} (a reason of a rule of your own "
                "is registered with backalley.rules.register_reason)"
            ]
        )

    def _nothing_to_play(self, ctx: DealContext, seat: int, trick: tuple[int, ...]) -> RuleSetError:
        part = "follow" if trick else "lead"
        return RuleSetError(
            [
                f"{part}: {type(getattr(self.rules, part)).__name__}.restrictions leave seat "
                f"{seat} nothing to play from a non-empty hand "
                f"({'following ' + ' '.join(str(CARDS[c]) for c in trick) if trick else 'leading'}"
                f", deal {ctx.deal_index + 1})"
            ]
        )

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
                    text = rules.follow.explain(ctx, reason, CARDS[card], kept, _cards(trick))
                else:
                    text = rules.lead.explain(ctx, reason, CARDS[card], kept)
                return checked_refusal(
                    (reason, text), f"{part}: {type(getattr(rules, part)).__name__}.explain"
                )
            remaining = narrowed
        return None

    def plays(self, mask: int) -> tuple[Play, ...]:
        """The plays of the cards in ``mask``, in card order: shared tuples,
        joined from the remembered plays of each suit's cards (and the jokers').
        Every set within one suit is remembered (a seat following suit meets
        them again and again), other sets while the table is small."""
        found = self._plays.get(mask)
        if found is not None:
            return found
        r0, r1, r2, r3, r4 = self._runs
        a, b, c, d, e = (
            mask & 0x1FFF,
            mask >> 13 & 0x1FFF,
            mask >> 26 & 0x1FFF,
            mask >> 39 & 0x1FFF,
            mask >> 52,
        )
        # concatenation, not unpacking: a set within one suit is the suit's own tuple
        out = (
            ((r0.get(a) or self._run(0, a)) if a else ())
            + ((r1.get(b) or self._run(1, b)) if b else ())
            + ((r2.get(c) or self._run(2, c)) if c else ())
            + ((r3.get(d) or self._run(3, d)) if d else ())
            + ((r4.get(e) or self._run(4, e)) if e else ())
        )
        if len(self._plays) < PLAYS_LIMIT or (a > 0) + (b > 0) + (c > 0) + (d > 0) + (e > 0) == 1:
            self._plays[mask] = out
        return out

    def _run(self, group: int, bits: int) -> tuple[Play, ...]:
        base = 13 * group
        run = self._runs[group][bits] = tuple(PLAYS[base + i] for i in range(13) if bits >> i & 1)
        return run

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
        return bool(self._parts.lead.breaks_trump(ctx, _cards(trick)))

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
            every = discards | sum(map(_BITS.__getitem__, left))
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
