"""Rule parts as policy objects and the :class:`RuleSet` that composes them (see
:ref:`rules-parts`).

Each part implements its protocol (:mod:`backalley.rules.protocols`) and is
registered under a stable tag (:func:`register`), so a user's own rule is a
class like the built-in ones; the reasons it refuses with are registered by
tag too (:func:`register_reason`).  The validator factories (:func:`boolean`,
:func:`whole`, :func:`whole_numbers`, :func:`one_of`, :func:`instance_or_none`)
check a part's options the way the built-in parts check theirs.
"""

from typing import TYPE_CHECKING, Any

from backalley.rules.base import Option, Part
from backalley.rules.bidding import (
    AllPass,
    Auction,
    BoardClaims,
    BoardMultiplier,
    CounterHolder,
    CounterStyle,
    FirstBidder,
    Multiple,
    OnceAroundBidding,
    Speakers,
)
from backalley.rules.context import NO_TRUMP, BiddingContext, DealContext
from backalley.rules.dealer import DealerRotation, NextDealer
from backalley.rules.deck import Deck
from backalley.rules.end import EndPolicy, TieBreak
from backalley.rules.follow import (
    BlooperForced,
    FollowPolicy,
    LittleLead,
    TrumpBrokenWhen,
    TrumpPlay,
)
from backalley.rules.keys import PlayFact, PlayKey
from backalley.rules.lead import (
    BoardTieLead,
    FirstLead,
    FirstTrickTrumpLead,
    LeadPolicy,
    TrumpBrokenBy,
    TrumpBrokenFor,
    TrumpLead,
)
from backalley.rules.must_head import MustHeadTrick
from backalley.rules.must_trump import MustTrumpWhenVoid
from backalley.rules.protocols import (
    BiddingRule,
    DealerRule,
    DeckRule,
    DirectCounters,
    DrawsTrumpBeforeDeal,
    EndRule,
    FollowRule,
    KeyedBidding,
    KeyedBiddingStates,
    KeyedFollow,
    KeyedLead,
    LeadRule,
    PricesOvertricks,
    Ranking,
    ReadsContext,
    Refusal,
    Restriction,
    RulePart,
    RuleSetFacts,
    ScheduleRule,
    ScoringRule,
    SeatingRule,
    ShowsStock,
    TrumpRule,
)
from backalley.rules.ranking import JokersHigh, OrderedRanking
from backalley.rules.registry import (
    PART_NAMES,
    lookup,
    part_classes,
    register,
    register_reason,
    registered_parts,
)
from backalley.rules.rotating_trump import RotatingTrump
from backalley.rules.ruleset import RuleSet
from backalley.rules.schedule import Schedule
from backalley.rules.scoring import (
    AuctionScoring,
    ContractScoring,
    DefendersScore,
    ExactBidScoring,
    HandSizeMultiplier,
    HandSizeRates,
    Rainbow,
)
from backalley.rules.seating import Cutthroat, Partnerships
from backalley.rules.trump import (
    DeclarerNamesTrump,
    FixedTrump,
    JokerTurnUp,
    NoTrump,
    SwapDraw,
    TrumpSetup,
    TurnedBeforeDeal,
    TurnUpTrump,
)
from backalley.rules.validators import boolean, instance_or_none, one_of, whole, whole_numbers
from backalley.values import BiddingOutcome, Contract

if TYPE_CHECKING:
    from backalley.rules.sheet import diff_rules, rules_sheet


def __getattr__(name: str) -> Any:
    """The rules sheet (``rules_sheet``, ``diff_rules``) loads on first use, not
    with ``import backalley``."""
    if name in ("diff_rules", "rules_sheet"):
        import backalley.rules.sheet

        value = getattr(backalley.rules.sheet, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'backalley.rules' has no attribute {name!r}")


__all__ = [
    "NO_TRUMP",
    "PART_NAMES",
    "AllPass",
    "Auction",
    "AuctionScoring",
    "BiddingContext",
    "BiddingOutcome",
    "BiddingRule",
    "BlooperForced",
    "BoardClaims",
    "BoardMultiplier",
    "BoardTieLead",
    "Contract",
    "ContractScoring",
    "CounterHolder",
    "CounterStyle",
    "Cutthroat",
    "DealContext",
    "DealerRotation",
    "DealerRule",
    "DeclarerNamesTrump",
    "Deck",
    "DeckRule",
    "DefendersScore",
    "DirectCounters",
    "DrawsTrumpBeforeDeal",
    "EndPolicy",
    "EndRule",
    "ExactBidScoring",
    "FirstBidder",
    "FirstLead",
    "FirstTrickTrumpLead",
    "FixedTrump",
    "FollowPolicy",
    "FollowRule",
    "HandSizeMultiplier",
    "HandSizeRates",
    "JokerTurnUp",
    "JokersHigh",
    "KeyedBidding",
    "KeyedBiddingStates",
    "KeyedFollow",
    "KeyedLead",
    "LeadPolicy",
    "LeadRule",
    "LittleLead",
    "Multiple",
    "MustHeadTrick",
    "MustTrumpWhenVoid",
    "NextDealer",
    "NoTrump",
    "OnceAroundBidding",
    "Option",
    "OrderedRanking",
    "Part",
    "Partnerships",
    "PlayFact",
    "PlayKey",
    "PricesOvertricks",
    "Rainbow",
    "Ranking",
    "ReadsContext",
    "Refusal",
    "Restriction",
    "RotatingTrump",
    "RulePart",
    "RuleSet",
    "RuleSetFacts",
    "Schedule",
    "ScheduleRule",
    "ScoringRule",
    "SeatingRule",
    "ShowsStock",
    "Speakers",
    "SwapDraw",
    "TieBreak",
    "TrumpBrokenBy",
    "TrumpBrokenFor",
    "TrumpBrokenWhen",
    "TrumpLead",
    "TrumpPlay",
    "TrumpRule",
    "TrumpSetup",
    "TurnUpTrump",
    "TurnedBeforeDeal",
    "boolean",
    "diff_rules",
    "instance_or_none",
    "lookup",
    "one_of",
    "part_classes",
    "register",
    "register_reason",
    "registered_parts",
    "rules_sheet",
    "whole",
    "whole_numbers",
]
