"""What a rule set's plan remembers of the play: the lead and follow parts'
answers by the keys the parts declare, and the legal plays as shared tuples.

:class:`PlayMemory` is the part of :class:`~backalley.rules.plan.Plan` that
answers :meth:`~backalley.rules.plan.Plan.play_mask`: the hand narrowed by
each restriction of the lead part (leading) or the follow part (following).
Where a part declares a key (its ``restrictions_key``, a
:class:`~backalley.rules.keys.PlayKey`, asked once per trump and card led),
the position's key is computed here from the engine's bit sets and the
part's answer is remembered by it (asked the first time, and every time in
the checking mode, which compares the two and names the part when they
differ); a part that declares no key is asked every time.  Every answer is
checked: ``(allowed cards, Reason)`` pairs, never nothing to play from a
non-empty hand.  It asks no part anything the plan does not ask: the plan
is the one place that asks the parts; this is how it remembers the play.
"""

from __future__ import annotations

from itertools import count as _count
from typing import TYPE_CHECKING, Any, NamedTuple

from backalley.cards import CARDS, Card, Suit
from backalley.cardset import CardSet
from backalley.errors import Reason, RuleSetError
from backalley.moves import PLAYS, Play
from backalley.rules.claims import trusted_declaration
from backalley.rules.context import DealContext
from backalley.rules.keys import PlayFact, PlayKey
from backalley.rules.protocols import KeyedFollow, KeyedLead

if TYPE_CHECKING:
    from backalley.rules.ruleset import RuleSet

__all__ = ["CARD_BITS", "PLAYS_LIMIT", "PLAY_ANSWERS_LIMIT", "PlayMemory", "cards_of_trick"]

PLAY_ANSWERS_LIMIT = 16_384
"""The most answers of the lead and follow parts a plan keeps by their keys;
the table starts afresh beyond."""

PLAYS_LIMIT = 4_096
"""The most sets of legal plays spanning several suits a plan keeps whole (sets
within one suit, at most 5 x 8,191, are always kept)."""

_cardset = int.__new__  # a CardSet of the engine's own bit set (checked already)
_and = int.__and__  # the intersection of two bit sets as a plain int
_CARD_OF = CARDS.__getitem__


def cards_of_trick(trick: tuple[int, ...]) -> tuple[Card, ...]:
    """The cards of a trick (the engine keeps card indices)."""
    return tuple(map(_CARD_OF, trick))


CARD_BITS: tuple[int, ...] = tuple(1 << i for i in range(54))
"""Each card's bit, by card index."""


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


class PlayMemory:
    """The play answers of one rule set's plan (see the module docstring)."""

    __slots__ = (
        "_check",
        "_follow",
        "_follow_key",
        "_follow_specs",
        "_lead",
        "_lead_key",
        "_lead_specs",
        "_play_answers",
        "_plays",
        "_runs",
        "_specs",
        "rules",
    )

    rules: RuleSet

    def __init__(self, rules: RuleSet, check: bool) -> None:
        parts: Any = rules
        self._lead = parts.lead.restrictions
        self._follow = parts.follow.restrictions
        self._check = check
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
                answer = self._follow(
                    ctx, seat, _cardset(CardSet, hand), cards_of_trick(trick), leader
                )
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
            answer = self._follow(ctx, seat, _cardset(CardSet, hand), cards_of_trick(trick), leader)
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
            cards = sum(map(CARD_BITS.__getitem__, trick))  # distinct cards: the sum is the union
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
