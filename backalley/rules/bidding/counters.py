"""The counters of the auction (see :ref:`rules-counters`): the options that
say how a side multiplies another side's contract (``counter_style``), who
holds a countered contract (``counter_holder``) and which numbers carry a
multiplier (``multiple``), and the words for the multipliers.
"""

from __future__ import annotations

from backalley.rules.base import Option

__all__ = ["CounterHolder", "CounterStyle", "Multiple", "counter_names"]


class CounterStyle(Option):
    """Option ``counter_style`` of the auction (see :ref:`rules-counters`): how a side
    multiplies the other side's contract."""

    STEP = "step"
    """``counter`` calls (double, then triple, then quadruple), one step at a
    time, each taking the contract over for the countering side."""
    DIRECT = "direct"
    """One call, ``counter x2``, ``x3`` or ``x4`` (double, triple or
    quadruple), answering an uncountered contract of another side; it cannot
    be answered: every later player may only pass."""
    MULTIPLE_BID = "multiple-bid"
    """No counter calls: a bid of at least 2, 3 or 4 times the other side's
    announcement carries the multiplier 2, 3 or 4 (3 then 7 is a double; with
    ``multiple = exact``, only exactly 2, 3 or 4 times)."""


class CounterHolder(Option):
    """Option ``counter_holder`` of the auction (see :ref:`rules-counters`): who holds
    a contract once it is countered (read with ``counter_style = step`` or
    ``direct``; under ``multiple-bid`` a multiplied number is simply the
    highest number)."""

    ANNOUNCER = "announcer"
    """The side that announced the number keeps the contract: a counter
    multiplies what that side wins and what it loses, as a double does in
    bridge, and (with step counters) the next counter answers the last one
    from the other side: the announcing side triples a double, the doubling
    side quadruples a triple."""
    COUNTERING_SIDE = "countering-side"
    """A counter takes the contract over at the same number for the countering
    side.  Since a contract scores every trick taken at its multiplier, a
    counter on a low number costs nothing, and the last side to speak takes
    every deal (bid 1, double, triple, quadruple)."""


class Multiple(Option):
    """Option ``multiple`` of the auction (see :ref:`rules-literal-auction`): which numbers
    carry a multiplier when ``counter_style = multiple-bid`` (ignored, and not
    in the rules sheet, under the other counter styles)."""

    AT_LEAST = "at-least"
    """A number of at least 2, 3 or 4 times the other side's announcement
    carries x2, x3 or x4 (3 then 7 is a double)."""
    EXACT = "exact"
    """Only exactly 2, 3 or 4 times the other side's announcement carries x2,
    x3 or x4 (3 then 6 is a double); any other higher number is a plain
    overbid (3 then 7 carries no multiplier)."""


_COUNTER_NAMES = (
    "double",
    "triple",
    "quadruple",
    "quintuple",
    "sextuple",
    "septuple",
    "octuple",
    "nonuple",
    "decuple",
)


def counter_names(counters: int) -> str:
    """The multipliers of ``counters`` steps as words: ``double, triple, quadruple``;
    past x10, ``double, triple, ... up to x12``."""
    if counters <= len(_COUNTER_NAMES):
        return ", ".join(_COUNTER_NAMES[:counters])
    return f"double, triple, quadruple and so on up to x{counters + 1}"
