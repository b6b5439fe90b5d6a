"""The end part: who wins when the last deal is scored (see :ref:`rules-end`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

import attrs

from backalley.rules.base import Option, Part, side_word
from backalley.rules.registry import register

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

__all__ = ["EndPolicy", "TieBreak"]


class TieBreak(Option):
    """Option ``tie_break``: what equal top scores make (see :ref:`rules-end`)."""

    DRAW = "draw"
    """Equal top scores are a draw (``winner`` is ``None``)."""


@register
@attrs.frozen(slots=True, repr=False)
class EndPolicy(Part):
    """The game ends after the schedule's last deal; the side with the most
    points wins; equal top scores are settled by ``tie_break``."""

    tag: ClassVar[str] = "end"
    part: ClassVar[str] = "end"

    tie_break: TieBreak = attrs.field(default=TieBreak.DRAW, converter=TieBreak)

    def winner(self, scores: Sequence[int]) -> int | None:
        best = max(scores)
        leaders = [side for side, points in enumerate(scores) if points == best]
        return leaders[0] if len(leaders) == 1 else None

    def describe(self) -> str:
        return self._describe("side")

    def describe_in(self, rules: RuleSetFacts) -> str:
        return self._describe(side_word(rules))

    def _describe(self, side: str) -> str:
        return (
            f"After the last deal the {side} with the most points wins; equal top scores are a "
            "draw."
        )
