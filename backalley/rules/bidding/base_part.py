"""What every bidding part shares (see :ref:`rules-bidding`): the options
``all_pass`` and ``first_bidder``, the base class that answers who speaks
first and who deals again after a thrown-in deal, the numbers a bid may name,
and the words both shapes use in the rules sheet.
"""

from __future__ import annotations

from backalley.errors import Reason
from backalley.moves import Bid, Move, bid
from backalley.rules.base import Option, Part
from backalley.rules.context import BiddingContext

__all__ = ["AllPass", "FirstBidder", "Refusal", "bids_between", "first_bidder"]

Refusal = tuple[Reason, str]


class AllPass(Option):
    """Option ``all_pass`` (see :ref:`rules-thrown-in`): what happens when nobody contracts
    for a trick (everybody passes, or every bid is zero)."""

    REDEAL_NEXT_DEALER = "redeal-next-dealer"
    REDEAL_SAME_DEALER = "redeal-same-dealer"
    PLAY_FOR_OVERTRICKS = "play-for-overtricks"


class FirstBidder(Option):
    """Option ``first_bidder``: who speaks first (see :ref:`rules-bidding`)."""

    LEFT_OF_DEALER = "left-of-dealer"
    DEALER = "dealer"


def bids_between(low: int, high: int) -> tuple[Bid, ...]:
    """``bid low`` .. ``bid high`` (shared values; empty when ``high < low``)."""
    return tuple(bid(n) for n in range(low, high + 1))


def first_bidder(option: FirstBidder, dealer: int, players: int) -> int:
    return dealer if option is FirstBidder.DEALER else (dealer + 1) % players


class _BiddingPart(Part):
    """What both bidding shapes share: the first bidder and the redeal after a
    throw-in.  Each shape gives the calls it knows (:meth:`calls`) and the one
    method that says no (:meth:`refusal`); the legal calls are the calls it
    knows that :meth:`refusal` lets through, in that order."""

    __slots__ = ()
    first_bidder: FirstBidder
    all_pass: AllPass

    def first(self, dealer: int, players: int) -> int:
        """Who speaks first: left of the dealer, or the dealer (``first_bidder``)."""
        return first_bidder(self.first_bidder, dealer, players)

    def speaker(self, ctx: BiddingContext) -> int | None:
        """The next seat clockwise until every player has spoken once."""
        return ctx.seat if len(ctx.calls) < ctx.players else None

    def direct_counters(self) -> tuple[int, ...]:
        """The multipliers a direct counter call (``counter x2`` ...) may name
        under this part: none."""
        return ()

    def redealer(self, dealer: int, players: int) -> int:
        """Who deals again after a thrown-in deal (option ``all_pass``)."""
        return dealer if self.all_pass is AllPass.REDEAL_SAME_DEALER else (dealer + 1) % players

    def calls(self, ctx: BiddingContext) -> tuple[Move, ...]:
        raise NotImplementedError

    def refusal(self, ctx: BiddingContext, move: Move) -> Refusal | None:
        raise NotImplementedError


_CONTRACT_FORMS = ("contracts", "contracting", "contracted")
"""The forms of the word "contract" a rules sheet uses."""


def _all_pass_text(option: AllPass, deals: int | None = None) -> str:
    """What ``all_pass`` does, in words; a thrown-in deal is not one of the
    ``deals`` scored deals (of the schedule, where known)."""
    counted = (
        "the scheduled deals"
        if deals is None
        else "the scored deal"
        if deals == 1
        else f"the {deals} scored deals"
    )
    not_counted = f" (a thrown-in deal is not one of {counted})"
    if option is AllPass.REDEAL_NEXT_DEALER:
        return (
            "If nobody contracts for a trick, the deal is thrown in and the next dealer deals "
            f"the same hand size{not_counted}."
        )
    if option is AllPass.REDEAL_SAME_DEALER:
        return (
            "If nobody contracts for a trick, the deal is thrown in and the same dealer deals "
            f"again{not_counted}."
        )
    return "If nobody contracts for a trick, the deal is played and scored all the same."
