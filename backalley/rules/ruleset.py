"""A rule set: the composition of one policy per rule part (RULES.md §3).

The parts are checked for fit when the rule set is built; every clash is
reported at once, each naming the parts involved.
"""

from __future__ import annotations

from typing import Any

import attrs

from backalley.errors import RuleSetError
from backalley.rules.bidding import AllPass, Auction, Bidding, BoardClaims, OnceAroundBidding
from backalley.rules.dealer import DealerRotation
from backalley.rules.deck import Deck
from backalley.rules.end import EndPolicy
from backalley.rules.follow import FollowPolicy
from backalley.rules.lead import FirstLead, LeadPolicy
from backalley.rules.schedule import Schedule
from backalley.rules.scoring import AuctionScoring, ContractScoring, Scoring
from backalley.rules.seating import Cutthroat, Partnerships, Seating
from backalley.rules.trump import (
    DeclarerNamesTrump,
    FixedTrump,
    JokerTurnUp,
    NoTrump,
    Trump,
    TurnUpTrump,
)

__all__ = ["PART_NAMES", "PART_TYPES", "RuleSet"]

PART_TYPES: dict[str, tuple[type, ...]] = {
    "deck": (Deck,),
    "seating": (Partnerships, Cutthroat),
    "schedule": (Schedule,),
    "dealer": (DealerRotation,),
    "trump": (TurnUpTrump, FixedTrump, DeclarerNamesTrump, NoTrump),
    "bidding": (OnceAroundBidding, Auction),
    "lead": (LeadPolicy,),
    "follow": (FollowPolicy,),
    "scoring": (ContractScoring, AuctionScoring),
    "end": (EndPolicy,),
}
PART_NAMES: tuple[str, ...] = tuple(PART_TYPES)
_UNSET: Any = object()


@attrs.frozen(slots=True)
class RuleSet:
    """The rules of one game of Back Alley: one policy object per part.

    ``RuleSet()`` is the gamerules game (RULES.md §1).  Build variations with
    :meth:`replace`; a combination whose parts do not fit raises
    :class:`~backalley.RuleSetError` listing every problem.  ``name`` is a
    label only (it takes no part in equality).
    """

    deck: Deck = attrs.field(factory=Deck)
    seating: Seating = attrs.field(factory=Partnerships)
    schedule: Schedule = attrs.field(factory=Schedule)
    dealer: DealerRotation = attrs.field(factory=DealerRotation)
    trump: Trump = attrs.field(factory=TurnUpTrump)
    bidding: Bidding = attrs.field(factory=OnceAroundBidding)
    lead: LeadPolicy = attrs.field(factory=LeadPolicy)
    follow: FollowPolicy = attrs.field(factory=FollowPolicy)
    scoring: Scoring = attrs.field(factory=ContractScoring)
    end: EndPolicy = attrs.field(factory=EndPolicy)
    name: str | None = attrs.field(default=None, eq=False)
    seat_teams: tuple[int, ...] = attrs.field(init=False, eq=False, hash=False, repr=False)
    """The side of each seat (derived from the seating, for the engine)."""
    players: int = attrs.field(init=False, eq=False, hash=False, repr=False)
    """The number of players (derived from the seating)."""
    teams: tuple[tuple[int, ...], ...] = attrs.field(init=False, eq=False, hash=False, repr=False)
    """The seats of each side (derived from the seating)."""
    _data: Any = attrs.field(default=None, init=False, eq=False, hash=False, repr=False)
    """The rule set as plain data, once written (see :mod:`backalley.serialize`)."""

    def __attrs_post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise RuleSetError(problems)
        seating = self.seating
        object.__setattr__(self, "players", seating.players)
        object.__setattr__(self, "teams", seating.teams)
        object.__setattr__(
            self, "seat_teams", tuple(seating.team_of(s) for s in range(seating.players))
        )

    def parts(self) -> dict[str, Any]:
        """The ten parts, by name, in the order of RULES.md §3."""
        return {name: getattr(self, name) for name in PART_NAMES}

    def replace(
        self,
        *,
        deck: Deck = _UNSET,
        seating: Seating = _UNSET,
        schedule: Schedule = _UNSET,
        dealer: DealerRotation = _UNSET,
        trump: Trump = _UNSET,
        bidding: Bidding = _UNSET,
        lead: LeadPolicy = _UNSET,
        follow: FollowPolicy = _UNSET,
        scoring: Scoring = _UNSET,
        end: EndPolicy = _UNSET,
        name: str | None = None,
    ) -> RuleSet:
        """A new rule set with some parts replaced (validated as a whole).

        The new rule set is unnamed unless ``name`` is given: it is no longer
        the named variant it came from.
        """
        given = {
            "deck": deck,
            "seating": seating,
            "schedule": schedule,
            "dealer": dealer,
            "trump": trump,
            "bidding": bidding,
            "lead": lead,
            "follow": follow,
            "scoring": scoring,
            "end": end,
        }
        parts = self.parts()
        parts.update({k: v for k, v in given.items() if v is not _UNSET})
        return RuleSet(**parts, name=name)

    def problems(self) -> list[str]:
        """Every reason the parts do not fit together (empty when they do)."""
        problems = []
        for part, types in PART_TYPES.items():
            value = getattr(self, part)
            if not isinstance(value, types):
                names = " or ".join(t.__name__ for t in types)
                problems.append(f"{part}: expected {names}, got {value!r}")
        if problems:
            return problems
        return _fit(self)

    def describe(self) -> str:
        """The rules as a readable sheet, one paragraph per part."""
        from backalley.rules.sheet import rules_sheet

        return rules_sheet(self)


def _fit(rules: RuleSet) -> list[str]:
    out: list[str] = []
    deck, seating, schedule = rules.deck, rules.seating, rules.schedule
    trump, bidding, lead, follow, scoring = (
        rules.trump,
        rules.bidding,
        rules.lead,
        rules.follow,
        rules.scoring,
    )
    players = seating.players
    extra = 1 if isinstance(trump, TurnUpTrump) else 0
    swap = (
        extra and deck.has_jokers and trump.joker_turn_up is JokerTurnUp.NO_TRUMP_SWAP_OTHER_JOKER  # type: ignore[union-attr]
    )
    if swap:
        extra = 2  # the turn-up, and a card to draw for the swapped joker
    largest = schedule.largest
    if players * largest + extra > deck.size:
        need = f"{players} x {largest} cards"
        if extra:
            need += " + 1 card to turn up" + (" + 1 to draw for a swapped joker" if swap else "")
        out.append(
            f"deck and schedule{' and trump' if extra else ''}: a deal of {largest} cards to "
            f"{players} players needs {need}, but the deck has {deck.size}"
        )
    if trump.named_by_declarer and not bidding.has_declarer:
        out.append(
            f"trump and bidding: {trump.tag!r} trump is named by a declarer, but "
            f"{bidding.tag!r} bidding has no declarer (use the auction)"
        )
    if (
        trump.named_by_declarer
        and bidding.has_declarer
        and bidding.all_pass is AllPass.PLAY_FOR_OVERTRICKS
    ):
        out.append(
            "trump and bidding: with all_pass = play-for-overtricks a deal can be played with "
            "no declarer, but this trump part needs a declarer to name trump"
        )
    if lead.first_lead is FirstLead.DECLARER and not bidding.has_declarer:
        out.append(
            f"lead and bidding: the declarer leads first, but {bidding.tag!r} bidding has no declarer"
        )
    if isinstance(scoring, AuctionScoring) and not isinstance(bidding, Auction):
        out.append(
            f"scoring and bidding: auction scoring needs a declarer's contract, but "
            f"{bidding.tag!r} bidding makes none"
        )
    if isinstance(scoring, ContractScoring) and isinstance(bidding, Auction):
        out.append(
            "scoring and bidding: contract scoring sums each side's bids, but the auction gives "
            "one declarer's contract (use auction scoring)"
        )
    if follow.blooper_lead_forcing and not deck.has_jokers:
        out.append(
            "follow and deck: blooper lead forcing needs the jokers, but the deck has none "
            "(turn blooper_lead_forcing off)"
        )
    if isinstance(bidding, OnceAroundBidding):
        out.extend(_once_around_fit(bidding, schedule, players))
    if isinstance(bidding, Auction) and bidding.min_bid > min(schedule.hand_sizes):
        out.append(
            f"bidding and schedule: the lowest bid {bidding.min_bid} exceeds the "
            f"{min(schedule.hand_sizes)}-card deal"
        )
    if scoring.rainbow is not None and scoring.rainbow.hand_size not in schedule.hand_sizes:
        out.append(
            f"scoring and schedule: the rainbow bonus is for the {scoring.rainbow.hand_size}-card "
            "deal, which the schedule never deals"
        )
    return out


def _once_around_fit(bidding: OnceAroundBidding, schedule: Schedule, players: int) -> list[str]:
    """Every deal of the schedule must leave each seat a call, and some call
    must contract for a trick (else the deal would be thrown in forever)."""
    out: list[str] = []
    board_can_run_out = len(bidding.board_multipliers) < players or (
        bidding.board_claims is BoardClaims.OPPONENTS_ONLY and players > 2
    )
    for size in sorted(set(schedule.hand_sizes)):
        low, high = bidding.min_bid, bidding.max_bid(size)
        numeric = low <= high
        if not bidding.pass_allowed and not numeric and (not bidding.board or board_can_run_out):
            out.append(
                f"bidding and schedule: with {size} card(s) there is no pass and no numeric bid, "
                "and board claims can run out, so a seat can be left with no legal call"
            )
            break
        contracting = bidding.board or high >= max(low, 1)
        if not contracting and bidding.all_pass is not AllPass.PLAY_FOR_OVERTRICKS:
            out.append(
                f"bidding and schedule: with {size} card(s) no call contracts for a trick, so "
                f"every such deal is thrown in again forever (all_pass = {bidding.all_pass.value})"
            )
            break
    return out
