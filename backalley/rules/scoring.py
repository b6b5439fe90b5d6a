"""The scoring part: points per side at the end of a deal (see :ref:`rules-scoring`)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from typing import Any, ClassVar

import attrs

from backalley.cards import Suit
from backalley.cardset import CardSet
from backalley.reprs import fields_repr
from backalley.rules.base import Part, has_board_bids, side_word
from backalley.rules.context import DealContext
from backalley.rules.registry import register
from backalley.rules.validators import boolean, instance_or_none, whole
from backalley.values import Contract

__all__ = ["AuctionScoring", "ContractScoring", "Rainbow"]


@attrs.frozen(slots=True, repr=False)
class Rainbow:
    """A bonus for each player dealt one card of every suit on the deal of
    ``hand_size`` cards (a joker counts as the trump suit), made or set
    (see :ref:`rules-contract-scoring`)."""

    __repr__ = fields_repr

    hand_size: int = attrs.field(default=4, validator=whole(low=1))
    points: int = attrs.field(default=10, validator=whole())

    def holds(self, hand: CardSet, trump: Suit | None) -> bool:
        """Whether ``hand`` holds a card of every suit (a joker counts as a trump)."""
        suits = {card.suit for card in hand if card.suit is not None}
        if trump is not None and any(card.is_joker for card in hand):
            suits.add(trump)
        return len(suits) == 4


_rainbow_or_none = instance_or_none(Rainbow, "a Rainbow(hand_size, points)")
"""The validator of a scoring part's ``rainbow`` option: a :class:`Rainbow` or none."""


class _SideScoring(Part):
    """Scoring side by side: each side's points from its contract and tricks,
    plus any rainbow bonus (see :ref:`rules-scoring`)."""

    __slots__ = ()
    rainbow: Rainbow | None

    def contract_points(self, contract: Contract | None, tricks: int, hand_size: int) -> int:
        raise NotImplementedError

    def problems(self, rules: Any) -> list[str]:
        rainbow = self.rainbow
        if rainbow is not None and rainbow.hand_size not in rules.schedule.hand_sizes:
            return [
                f"scoring and schedule: the rainbow bonus is for the {rainbow.hand_size}-card "
                "deal, which the schedule never deals"
            ]
        return []

    def score(
        self, ctx: DealContext, tricks: Sequence[int], dealt: Sequence[CardSet]
    ) -> tuple[int, ...]:
        """The points of each side for one deal."""
        assert ctx.outcome is not None
        return self.side_points(
            ctx.outcome.contracts, tricks, ctx.hand_size, ctx.teams, dealt, ctx.trump
        )

    def side_points(
        self,
        contracts: Sequence[Contract | None],
        tricks: Sequence[int],
        hand_size: int,
        teams: Sequence[Sequence[int]],
        dealt: Sequence[CardSet],
        trump: Suit | None,
    ) -> tuple[int, ...]:
        """:meth:`score` from the bare facts."""
        rainbow = self.rainbow
        if rainbow is None or hand_size != rainbow.hand_size:  # the common case, in one pass
            return tuple(map(self.contract_points, contracts, tricks, repeat(hand_size)))
        points = [self.contract_points(c, t, hand_size) for c, t in zip(contracts, tricks)]
        for side, team in enumerate(teams):
            points[side] += rainbow.points * sum(1 for s in team if rainbow.holds(dealt[s], trump))
        return tuple(points)


@register
@attrs.frozen(slots=True, repr=False)
class ContractScoring(_SideScoring):
    """Gamerules scoring (see :ref:`rules-contract-scoring`).  A numeric contract ``b`` with ``t``
    tricks: made (``t >= b``) scores ``per_bid_trick*b + per_overtrick*(t-b)``
    (so a zero contract scores ``per_overtrick`` per trick); set scores
    ``-set_per_bid_trick*b``.  A board on hand size ``h`` with multiplier ``m``:
    all ``h`` tricks score ``per_board_trick*h*m``, fewer ``-set_per_board_trick*h*m``."""

    tag: ClassVar[str] = "contract"
    part: ClassVar[str] = "scoring"

    per_bid_trick: int = attrs.field(default=5, validator=whole())
    per_overtrick: int = attrs.field(default=1, validator=whole())
    set_per_bid_trick: int = attrs.field(default=5, validator=whole())
    per_board_trick: int = attrs.field(default=10, validator=whole())
    set_per_board_trick: int = attrs.field(default=10, validator=whole())
    rainbow: Rainbow | None = attrs.field(default=None, validator=_rainbow_or_none)

    def needs(self) -> frozenset[str]:
        return frozenset({"summed-contracts"})

    def contract_points(self, contract: Contract | None, tricks: int, hand_size: int) -> int:
        if contract is None:
            return self.per_overtrick * tricks
        if contract.board:
            if tricks >= hand_size:
                return self.per_board_trick * hand_size * contract.multiplier
            return -self.set_per_board_trick * hand_size * contract.multiplier
        b = contract.tricks
        if tricks >= b:
            return self.per_bid_trick * b + self.per_overtrick * (tricks - b)
        return -self.set_per_bid_trick * b

    def describe(self) -> str:
        return self._describe(side="side", board=True)

    def describe_in(self, rules: Any) -> str:
        """Board scoring only where board can be bid; "player" without partnerships."""
        return self._describe(side=side_word(rules), board=has_board_bids(rules))

    def _describe(self, side: str, board: bool) -> str:
        text = (
            f"A {side} that makes its contract of b tricks scores {self.per_bid_trick} per bid "
            f"trick and {self.per_overtrick} per overtrick; a {side} that is set loses "
            f"{self.set_per_bid_trick} per bid trick."
        )
        if board:
            text += (
                f" A board on an h-card deal scores {self.per_board_trick} x h x the multiplier "
                f"when every trick is taken, and loses {self.set_per_board_trick} x h x the "
                "multiplier otherwise."
            )
        if side == "player":
            text = text.replace("its contract", "their contract")
        return text + _rainbow_text(self.rainbow, side)


@register
@attrs.frozen(slots=True, repr=False)
class AuctionScoring(_SideScoring):
    """Vietnam scoring (see :ref:`rules-auction-scoring`).  The contracting side that takes at
    least its contract scores ``per_trick`` per trick taken times the counter
    multiplier; a failed contract loses ``set_per_trick`` per contracted trick
    times the multiplier.  Defenders score nothing, or - with
    ``defenders_score_tricks`` - ``per_trick`` per trick they take."""

    tag: ClassVar[str] = "auction"
    part: ClassVar[str] = "scoring"

    per_trick: int = attrs.field(default=10, validator=whole())
    set_per_trick: int = attrs.field(default=10, validator=whole())
    defenders_score_tricks: bool = attrs.field(default=False, validator=boolean())
    rainbow: Rainbow | None = attrs.field(default=None, validator=_rainbow_or_none)

    def needs(self) -> frozenset[str]:
        return frozenset({"declarer-contract"})

    def contract_points(self, contract: Contract | None, tricks: int, hand_size: int) -> int:
        if contract is None:
            return self.per_trick * tricks if self.defenders_score_tricks else 0
        if tricks >= contract.tricks:
            return self.per_trick * tricks * contract.multiplier
        return -self.set_per_trick * contract.tricks * contract.multiplier

    def describe(self) -> str:
        return self._describe(side="side", multiplied=True)

    def describe_in(self, rules: Any) -> str:
        """The multiplier only where the bidding can multiply a contract."""
        return self._describe(
            side=side_word(rules), multiplied="multiplied-contracts" in rules.bidding.provides()
        )

    def _describe(self, side: str, multiplied: bool) -> str:
        times = (
            " times the contract's multiplier (x2 when doubled, x3 tripled, ...)"
            if multiplied
            else ""
        )
        again = " times the multiplier" if multiplied else ""
        who = (
            "contracting player, if they take"
            if side == "player"
            else "contracting side, if it takes"
        )
        text = (
            f"The {who} at least the contract, scores {self.per_trick} per trick taken{times}; "
            f"a failed contract loses {self.set_per_trick} per contracted trick{again}. "
        )
        text += (
            f"Defenders score {self.per_trick} per trick they take."
            if self.defenders_score_tricks
            else "Defenders score nothing."
        )
        return text + _rainbow_text(self.rainbow, side)


def _rainbow_text(rainbow: Rainbow | None, side: str = "side") -> str:
    if rainbow is None:
        return ""
    whose = "themselves" if side == "player" else "their side"
    return (
        f" Rainbow: on the {rainbow.hand_size}-card deal, each player dealt one card of every "
        f"suit (a joker counting as trump) earns {rainbow.points:+d} for {whose}, made or set."
    )
