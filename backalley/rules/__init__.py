"""Rule parts as policy objects (RULES.md §3) and the :class:`RuleSet` that composes them."""

from backalley.rules.base import Option, Part
from backalley.rules.bidding import (
    AllPass,
    Auction,
    BiddingOutcome,
    BoardClaims,
    BoardMultiplier,
    Contract,
    FirstBidder,
    OnceAroundBidding,
)
from backalley.rules.dealer import DealerRotation, NextDealer
from backalley.rules.deck import Deck
from backalley.rules.end import EndPolicy, TieBreak
from backalley.rules.follow import BlooperForced, FollowPolicy
from backalley.rules.lead import FirstLead, LeadPolicy, TrumpBrokenBy, TrumpLead
from backalley.rules.ruleset import PART_NAMES, PART_TYPES, RuleSet
from backalley.rules.schedule import Schedule
from backalley.rules.scoring import AuctionScoring, ContractScoring, Rainbow
from backalley.rules.seating import Cutthroat, Partnerships
from backalley.rules.sheet import diff_rules, rules_sheet
from backalley.rules.trump import (
    DeclarerNamesTrump,
    FixedTrump,
    JokerTurnUp,
    NoTrump,
    TurnUpTrump,
)

__all__ = [
    "PART_NAMES",
    "PART_TYPES",
    "AllPass",
    "Auction",
    "AuctionScoring",
    "BiddingOutcome",
    "BlooperForced",
    "BoardClaims",
    "BoardMultiplier",
    "Contract",
    "ContractScoring",
    "Cutthroat",
    "DealerRotation",
    "DeclarerNamesTrump",
    "Deck",
    "EndPolicy",
    "FirstBidder",
    "FirstLead",
    "FixedTrump",
    "FollowPolicy",
    "JokerTurnUp",
    "LeadPolicy",
    "NextDealer",
    "NoTrump",
    "OnceAroundBidding",
    "Option",
    "Part",
    "Partnerships",
    "Rainbow",
    "RuleSet",
    "Schedule",
    "TieBreak",
    "TrumpBrokenBy",
    "TrumpLead",
    "TurnUpTrump",
    "diff_rules",
    "rules_sheet",
]
