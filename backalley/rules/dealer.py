"""The dealer part: who deals first and who deals next (see :ref:`rules-dealer`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

import attrs

from backalley.rules.base import Option, Part, plays_alone
from backalley.rules.context import DealContext
from backalley.rules.registry import register

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

__all__ = ["DealerRotation", "NextDealer"]


class NextDealer(Option):
    """Option ``next_dealer``: who deals after each deal (see :ref:`rules-dealer`)."""

    CLOCKWISE = "clockwise"
    """The deal passes to the left after every deal (gamerules)."""
    LOSING_TEAM = "losing-team"
    """After each game the next dealer is the losing side's player sitting next
    clockwise from the previous dealer; on a tie, plain clockwise (Vietnam)."""


@register
@attrs.frozen(slots=True, repr=False)
class DealerRotation(Part):
    """The first dealer is chosen at random (from the game's seed, unless
    ``new_game(dealer=...)`` names one); then the deal moves by ``next_dealer``.
    A thrown-in deal is redealt by the dealer that the bidding part names."""

    tag: ClassVar[str] = "dealer"
    part: ClassVar[str] = "dealer"

    next_dealer: NextDealer = attrs.field(default=NextDealer.CLOCKWISE, converter=NextDealer)

    def context_reads(self, method: str) -> frozenset[str] | None:
        """:meth:`dealer_after` reads the dealer, the sides and the number of
        players of the deal's context, and - under ``next_dealer =
        losing-team`` - its ``points`` argument."""
        if method != "dealer_after":
            return None
        if self.next_dealer is NextDealer.CLOCKWISE:
            return _AFTER_READS
        return _AFTER_READS | {"points"}

    def dealer_after(self, ctx: DealContext, points: Sequence[int]) -> int:
        """The dealer of the next scored deal, given this deal's points per side."""
        return self.after_deal(ctx.dealer, points, ctx.teams, ctx.players)

    def after_deal(
        self, dealer: int, points: Sequence[int], teams: Sequence[Sequence[int]], players: int
    ) -> int:
        """:meth:`next_dealer` from the bare facts."""
        clockwise = (dealer + 1) % players
        if self.next_dealer is NextDealer.CLOCKWISE:
            return clockwise
        low = min(points)
        if list(points).count(low) == len(points):
            return clockwise  # a tied game: plain clockwise
        if len(teams) == players:
            # no partnerships: the player who scored least deals, ties going clockwise
            for step in range(1, players + 1):
                seat = (dealer + step) % players
                if points[seat] == low:
                    return seat
        losers = {seat for team, pts in zip(teams, points) if pts == low for seat in team}
        for step in range(1, players + 1):
            seat = (dealer + step) % players
            if seat in losers:
                return seat
        return clockwise  # pragma: no cover - every side has a seat

    def describe(self) -> str:
        return "The first dealer is drawn at random. " + _DEALING + ". " + self._rotation(False)

    def describe_in(self, rules: RuleSetFacts) -> str:
        """Who deals and how (see :ref:`rules-deal`): the dealing procedure, what
        becomes of the undealt cards under ``rules``, and the rotation."""
        deck, players = rules.deck, rules.seating.players
        left = {deck.size - players * size for size in rules.schedule.hand_sizes}
        if left == {0}:
            stock = "; every card is dealt"
        else:
            stock = "; the undealt cards" + (", if any," if 0 in left else "") + " are the stock"
            if rules.trump.turns_up():
                stock += " (kept face down in order; its first card is the top)"
            else:
                stock += ", which stays face down and takes no part in the deal"
        rotation = self._rotation(plays_alone(rules))
        return f"The first dealer is drawn at random. {_DEALING}{stock}. {rotation}"

    def _rotation(self, alone: bool) -> str:
        if self.next_dealer is NextDealer.CLOCKWISE:
            return "The deal passes clockwise after every deal."
        if alone:
            return (
                "After each deal the next dealer is the player who scored least in it (the "
                "first of them clockwise from the previous dealer; plain clockwise when "
                "everyone scored the same)."
            )
        return (
            "After each deal the next dealer is the player of the side that lost it who sits "
            "next clockwise from the previous dealer (plain clockwise after a tied deal)."
        )


_AFTER_READS = frozenset({"dealer", "teams", "players"})

_DEALING = (
    "The dealer shuffles and deals the cards one at a time, face down, clockwise, starting "
    "with the player on their left, until each player holds the deal's hand size"
)
