"""House rule "trump rotates each deal" (a trump part): clubs, diamonds,
hearts, spades, then no trump, and round again."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import attrs

from backalley.cards import SUITS, Card, Suit
from backalley.rules.base import has_jokers
from backalley.rules.context import DealContext
from backalley.rules.registry import register
from backalley.rules.trump import _TrumpPart

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

__all__ = ["RotatingTrump"]

_CYCLE: tuple[Suit | None, ...] = (*SUITS, None)
_NAMES = ("clubs", "diamonds", "hearts", "spades", "no trump")


@register
@attrs.frozen(slots=True, repr=False)
class RotatingTrump(_TrumpPart):
    """Nothing is turned up: the first deal of the schedule is played with
    clubs as trump, the second diamonds, then hearts, spades, no trump, and
    round again.  A thrown-in deal is dealt again with the same trump (it is
    the same deal of the schedule).  In a no-trump deal the jokers, if any,
    are the only trumps."""

    tag: ClassVar[str] = "rotating"
    part: ClassVar[str] = "trump"

    def trump_for(self, ctx: DealContext, turn_up: Card | None) -> Suit | None:
        return _CYCLE[ctx.deal_index % len(_CYCLE)]

    def describe(self) -> str:
        return self._describe() + " In a no-trump deal the jokers, if any, are the only trumps."

    def describe_in(self, rules: RuleSetFacts) -> str:
        if has_jokers(rules):
            return self._describe() + " In a no-trump deal the jokers are the only trumps."
        return self._describe()

    def _describe(self) -> str:
        return (
            "Nothing is turned up; trump rotates each deal: "
            + ", ".join(_NAMES)
            + ", and round again (a thrown-in deal keeps its trump)."
        )
