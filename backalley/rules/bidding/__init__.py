"""The bidding part: the shape of the auction (see :ref:`rules-bidding`).

Two shapes exist: :class:`OnceAroundBidding` (each player bids once, bids are
summed per side, board claims escalate) and :class:`Auction` (the Vietnam
ascending auction with counters and a declarer).  Each decides which calls
are legal (:meth:`refusal` is the one place that says no: the legal calls
are the calls of :meth:`calls` it lets through, as the rule set's plan asks
them) and what contract the calls make.
"""

# The once-around bidding registers first, then the auction: the registry
# lists the parts in the order they register.
from backalley.rules.bidding.once_around import (
    BoardClaims,
    BoardMultiplier,
    OnceAroundBidding,
)
from backalley.rules.bidding.once_around import _deals_named as _deals_named
from backalley.rules.bidding.once_around import _once_around_calls as _once_around_calls
from backalley.rules.bidding.once_around import _once_around_fit as _once_around_fit
from backalley.rules.bidding.once_around import _to_multipliers as _to_multipliers

# isort: split
from backalley.rules.bidding.auction import Auction, Speakers
from backalley.rules.bidding.auction import AuctionState as AuctionState
from backalley.rules.bidding.auction import _example_points as _example_points
from backalley.rules.bidding.auction import _listed as _listed
from backalley.rules.bidding.base_part import _CONTRACT_FORMS as _CONTRACT_FORMS
from backalley.rules.bidding.base_part import AllPass, FirstBidder
from backalley.rules.bidding.base_part import Refusal as Refusal
from backalley.rules.bidding.base_part import _all_pass_text as _all_pass_text
from backalley.rules.bidding.base_part import _BiddingPart as _BiddingPart
from backalley.rules.bidding.base_part import bids_between as bids_between
from backalley.rules.bidding.base_part import first_bidder as first_bidder
from backalley.rules.bidding.counters import _COUNTER_NAMES as _COUNTER_NAMES
from backalley.rules.bidding.counters import CounterHolder, CounterStyle, Multiple
from backalley.rules.bidding.counters import counter_names as counter_names
from backalley.values import BiddingOutcome, Contract

__all__ = [
    "AllPass",
    "Auction",
    "BiddingOutcome",
    "BoardClaims",
    "BoardMultiplier",
    "Contract",
    "CounterHolder",
    "CounterStyle",
    "FirstBidder",
    "Multiple",
    "OnceAroundBidding",
    "Speakers",
]
