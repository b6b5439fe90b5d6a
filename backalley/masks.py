"""The mask algebra: what a lead or follow rule allows, as an expression.

A lead or follow part says what a seat may play as *restrictions*: pairs of
the cards a rule allows and the reason it refuses the others.  Written as
plain Python, such a rule can only be asked, one position at a time.  Written
as an expression of this small algebra, it can be *evaluated* - by the
one-game engine on one position (:func:`evaluate`, which is how the built-in
parts answer ``restrictions``), and by the batch engine on thousands of
positions at once (``backalley.batch``) - so that both engines follow the one
expression the part returns: the algebra is the one source of the rule, not a
copy of it.

Sets of cards (:class:`CardExpr`), combined with ``&``, ``|``, ``-`` and
``~`` (every card but):

- :class:`Cards` - a fixed set (the cards of a suit, the trumps);
- :data:`HAND` - the hand of the seat to play; :data:`TRICK` - the cards of
  the trick so far; :data:`PLAYED` - the cards played to the deal's earlier
  tricks; :data:`SHOWN` - the cards the deal's opening showed to be in no
  hand; :data:`SEAT_PLAYED` - the cards the seat played to earlier tricks;
- :class:`Highest`, :class:`Lowest` - the highest or lowest card of a set of
  cards of one suit under the deal's trump (the ranking part's order; empty
  for an empty set);
- :class:`Heads` - the cards of a set that would win the trick so far if
  played now (the ranking part's trick winner);
- :class:`Choose` - one set where a condition holds, else another.

Conditions (:class:`Cond`), combined with ``&``, ``|`` and ``~``:

- :class:`Some` - a set is not empty;
- :class:`Fact` - a fact of the position (:class:`PositionFact`: trump is
  broken, the first trick, the seat bid board, the seat is an opponent of
  the trick's leader);
- :data:`TRUE`, :data:`FALSE`.

A restriction's expression evaluates to every card (:data:`ALL`) where the
rule does not apply; :func:`restrictions` leaves those out, so a part answers
only the rules that narrow the position.

    >>> from backalley import CardSet
    >>> from backalley.masks import ALL, HAND, Cards, Choose, Some
    >>> hearts = Cards(CardSet.of("2H 3H AH".split()))
    >>> rule = Choose(Some(HAND & hearts), hearts, ALL)   # follow hearts if able
    >>> str(rule)
    'choose(some(hand & {2H 3H AH}), {2H 3H AH}, all)'
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum
from typing import TYPE_CHECKING, NamedTuple

import attrs

from backalley.cards import Card
from backalley.cardset import ALL_CARDS, CardSet
from backalley.errors import Reason, RuleSetError

if TYPE_CHECKING:
    from backalley.rules.context import DealContext

__all__ = [
    "ALL",
    "FALSE",
    "HAND",
    "NOTHING",
    "PLAYED",
    "SEAT_PLAYED",
    "SHOWN",
    "TRICK",
    "TRUE",
    "Both",
    "Bool",
    "CardExpr",
    "Cards",
    "Choose",
    "Cond",
    "Either",
    "Fact",
    "Heads",
    "Highest",
    "Join",
    "Lowest",
    "Meet",
    "Negate",
    "Position",
    "PositionFact",
    "PositionSet",
    "RestrictionForm",
    "Some",
    "Source",
    "Without",
    "decide",
    "evaluate",
    "holds",
    "restrictions",
    "walk",
]

_UNIVERSE = int(ALL_CARDS)


class CardExpr:
    """A set of cards, as an expression of the position (see the module's description)."""

    __slots__ = ()

    def __and__(self, other: CardExpr) -> CardExpr:
        return Meet(self, other)

    def __or__(self, other: CardExpr) -> CardExpr:
        return Join(self, other)

    def __sub__(self, other: CardExpr) -> CardExpr:
        return Without(self, other)

    def __invert__(self) -> CardExpr:
        return Without(ALL, self)


class Cond:
    """A condition on the position (see the module's description)."""

    __slots__ = ()

    def __and__(self, other: Cond) -> Cond:
        return Both(self, other)

    def __or__(self, other: Cond) -> Cond:
        return Either(self, other)

    def __invert__(self) -> Cond:
        return Negate(self)


def _card_set(value: object) -> CardSet:
    if isinstance(value, CardSet):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return CardSet(value)
    raise RuleSetError([f"a Cards expression holds a CardSet, not {value!r}"])


@attrs.frozen(slots=True)
class Cards(CardExpr):
    """A fixed set of cards."""

    cards: CardSet = attrs.field(converter=_card_set)

    def __str__(self) -> str:
        if int(self.cards) == _UNIVERSE:
            return "all"
        return "{" + str(self.cards) + "}" if self.cards else "{}"


class PositionSet(Enum):
    """A set of cards the position gives (:class:`Source`)."""

    HAND = "hand"
    """The hand of the seat to play."""
    TRICK = "trick"
    """The cards of the trick so far."""
    PLAYED = "played"
    """The cards played to the deal's earlier tricks."""
    SHOWN = "shown"
    """The cards the deal's opening showed to be in no hand."""
    SEAT_PLAYED = "seat-played"
    """The cards the seat to play played to the deal's earlier tricks."""


@attrs.frozen(slots=True)
class Source(CardExpr):
    """A set of cards of the position (:class:`PositionSet`)."""

    name: PositionSet

    def __str__(self) -> str:
        return self.name.value


@attrs.frozen(slots=True)
class Meet(CardExpr):
    """The cards in both sets."""

    left: CardExpr
    right: CardExpr

    def __str__(self) -> str:
        return f"{_inner(self.left)} & {_inner(self.right)}"


@attrs.frozen(slots=True)
class Join(CardExpr):
    """The cards in either set."""

    left: CardExpr
    right: CardExpr

    def __str__(self) -> str:
        return f"{_inner(self.left)} | {_inner(self.right)}"


@attrs.frozen(slots=True)
class Without(CardExpr):
    """The cards of the first set that are not in the second."""

    left: CardExpr
    right: CardExpr

    def __str__(self) -> str:
        return f"{_inner(self.left)} - {_inner(self.right)}"


@attrs.frozen(slots=True)
class Highest(CardExpr):
    """The highest card of a set of cards of one suit (the ranking part's
    ``highest`` under the deal's trump); nothing for an empty set."""

    of: CardExpr

    def __str__(self) -> str:
        return f"highest({self.of})"


@attrs.frozen(slots=True)
class Lowest(CardExpr):
    """The lowest card of a set of cards of one suit (the ranking part's
    ``lowest`` under the deal's trump); nothing for an empty set."""

    of: CardExpr

    def __str__(self) -> str:
        return f"lowest({self.of})"


@attrs.frozen(slots=True)
class Heads(CardExpr):
    """The cards of a set that would win the trick so far if played now (the
    ranking part's ``trick_winner``); nothing when no card has been led."""

    of: CardExpr

    def __str__(self) -> str:
        return f"heads({self.of})"


@attrs.frozen(slots=True)
class Choose(CardExpr):
    """``then`` where ``test`` holds, else ``other``."""

    test: Cond
    then: CardExpr
    other: CardExpr

    def __str__(self) -> str:
        return f"choose({self.test}, {self.then}, {self.other})"


class PositionFact(Enum):
    """A fact of the position, true or false (:class:`Fact`)."""

    BROKEN = "broken"
    """Trump is broken."""
    FIRST_TRICK = "first-trick"
    """The trick being played is the deal's first."""
    BOARD_BIDDER = "board-bidder"
    """The seat to play bid board this deal."""
    OPPONENT = "opponent"
    """The seat to play is an opponent of the trick's leader."""


@attrs.frozen(slots=True)
class Fact(Cond):
    """A fact of the position (:class:`PositionFact`)."""

    name: PositionFact

    def __str__(self) -> str:
        return self.name.value


@attrs.frozen(slots=True)
class Some(Cond):
    """The set is not empty."""

    of: CardExpr

    def __str__(self) -> str:
        return f"some({self.of})"


@attrs.frozen(slots=True)
class Both(Cond):
    """Both conditions hold."""

    left: Cond
    right: Cond

    def __str__(self) -> str:
        return f"({self.left} and {self.right})"


@attrs.frozen(slots=True)
class Either(Cond):
    """One condition or the other holds."""

    left: Cond
    right: Cond

    def __str__(self) -> str:
        return f"({self.left} or {self.right})"


@attrs.frozen(slots=True)
class Negate(Cond):
    """The condition does not hold."""

    of: Cond

    def __str__(self) -> str:
        return f"not {self.of}"


@attrs.frozen(slots=True)
class Bool(Cond):
    """A condition that always holds, or never."""

    value: bool

    def __str__(self) -> str:
        return "true" if self.value else "false"


def _inner(expr: CardExpr) -> str:
    return f"({expr})" if isinstance(expr, (Meet, Join, Without)) else str(expr)


ALL = Cards(ALL_CARDS)
"""Every card: what a restriction allows where its rule does not apply."""
NOTHING = Cards(CardSet())
"""No card."""
HAND = Source(PositionSet.HAND)
TRICK = Source(PositionSet.TRICK)
PLAYED = Source(PositionSet.PLAYED)
SHOWN = Source(PositionSet.SHOWN)
SEAT_PLAYED = Source(PositionSet.SEAT_PLAYED)
TRUE = Bool(True)
FALSE = Bool(False)

Expr = CardExpr | Cond
RestrictionForm = tuple[tuple[CardExpr, Reason], ...]
"""A part's restrictions as expressions: ``(the cards the rule allows, the
reason it refuses the others)``, in order."""


def holds(expr: CardExpr) -> Cond:
    """Whether the hand holds a card of ``expr`` (``Some(HAND & expr)``)."""
    return Some(HAND & expr)


def walk(expr: Expr) -> Iterator[Expr]:
    """``expr`` and every expression inside it, outermost first."""
    yield expr
    name: str
    for name in type(expr).__slots__:
        value = getattr(expr, name, None)
        if isinstance(value, (CardExpr, Cond)):
            yield from walk(value)


# ------------------------------------------------------------------ evaluation


class Position(NamedTuple):
    """One position to evaluate an expression on: the deal's context (its
    trump, ranking, the cards played and shown), the seat to play, its hand
    (a bit set), the trick so far, the trick's leader, and whether trump is
    broken for this question."""

    ctx: DealContext
    seat: int
    hand: int
    trick: tuple[Card, ...]
    leader: int
    broken: bool


def evaluate(expr: CardExpr, at: Position) -> int:
    """The set of cards ``expr`` stands for at the position ``at`` (a bit set)."""
    kind = type(expr)
    if kind is Cards:
        return int(expr.cards)  # type: ignore[attr-defined]
    if kind is Source:
        return _source(expr.name, at)  # type: ignore[attr-defined]
    if kind is Meet:
        return evaluate(expr.left, at) & evaluate(expr.right, at)  # type: ignore[attr-defined]
    if kind is Join:
        return evaluate(expr.left, at) | evaluate(expr.right, at)  # type: ignore[attr-defined]
    if kind is Without:
        return evaluate(expr.left, at) & ~evaluate(expr.right, at)  # type: ignore[attr-defined]
    if kind is Choose:
        chosen = expr.then if decide(expr.test, at) else expr.other  # type: ignore[attr-defined]
        return evaluate(chosen, at)
    if kind is Highest or kind is Lowest:
        cards = evaluate(expr.of, at)  # type: ignore[attr-defined]
        if not cards:
            return 0
        ctx = at.ctx
        pick = ctx.ranking.highest if kind is Highest else ctx.ranking.lowest
        return 1 << pick(CardSet(cards), ctx.trump).index
    if kind is Heads:
        cards = evaluate(expr.of, at)  # type: ignore[attr-defined]
        trick = at.trick
        if not trick or not cards:
            return 0
        ctx, position, found = at.ctx, len(trick), 0
        winner = ctx.ranking.trick_winner
        for card in CardSet(cards):
            if winner((*trick, card), ctx.trump) == position:
                found |= 1 << card.index
        return found
    raise RuleSetError([f"{expr!r} is not an expression of the mask algebra"])


def decide(cond: Cond, at: Position) -> bool:
    """Whether the condition ``cond`` holds at the position ``at``."""
    kind = type(cond)
    if kind is Some:
        return evaluate(cond.of, at) != 0  # type: ignore[attr-defined]
    if kind is Fact:
        return _fact(cond.name, at)  # type: ignore[attr-defined]
    if kind is Both:
        return decide(cond.left, at) and decide(cond.right, at)  # type: ignore[attr-defined]
    if kind is Either:
        return decide(cond.left, at) or decide(cond.right, at)  # type: ignore[attr-defined]
    if kind is Negate:
        return not decide(cond.of, at)  # type: ignore[attr-defined]
    if kind is Bool:
        return bool(cond.value)  # type: ignore[attr-defined]
    raise RuleSetError([f"{cond!r} is not a condition of the mask algebra"])


def _source(name: PositionSet, at: Position) -> int:
    if name is PositionSet.HAND:
        return at.hand
    if name is PositionSet.TRICK:
        found = 0
        for card in at.trick:
            found |= 1 << card.index
        return found
    if name is PositionSet.PLAYED:
        return int(at.ctx.played)
    if name is PositionSet.SHOWN:
        return int(at.ctx.shown)
    return int(at.ctx.seat_played(at.seat))


def _fact(name: PositionFact, at: Position) -> bool:
    ctx = at.ctx
    if name is PositionFact.BROKEN:
        return at.broken
    if name is PositionFact.FIRST_TRICK:
        return not ctx.played
    if name is PositionFact.BOARD_BIDDER:
        return at.seat in ctx.board_bidders
    return ctx.is_opponent(at.seat, at.leader)


def restrictions(form: RestrictionForm, at: Position) -> tuple[tuple[CardSet, Reason], ...]:
    """The restrictions a form makes at the position ``at``: each expression
    evaluated, those that allow every card (their rule does not apply) left out."""
    out = []
    for expr, reason in form:
        allowed = evaluate(expr, at)
        if allowed != _UNIVERSE:
            out.append((CardSet(allowed), reason))
    return tuple(out)
