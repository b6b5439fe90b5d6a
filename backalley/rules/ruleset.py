"""A rule set: the composition of one policy per rule part (see :ref:`rules-parts`).

The parts are checked for fit when the rule set is built: each part must be a
registered rule of its slot, every capability a part needs (a declarer, a
declarer's contract, ...) must be provided by another part, and each part's
own ``problems()`` must be empty.  Every clash is reported at once, each
naming the parts involved.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import attrs

from backalley.errors import RuleSetError, RuleSetWarning
from backalley.reprs import fields_repr
from backalley.rules.bidding import OnceAroundBidding
from backalley.rules.dealer import DealerRotation
from backalley.rules.deck import Deck
from backalley.rules.end import EndPolicy
from backalley.rules.follow import FollowPolicy
from backalley.rules.lead import LeadPolicy
from backalley.rules.plan import Plan
from backalley.rules.protocols import (
    BiddingRule,
    DealerRule,
    DeckRule,
    EndRule,
    FollowRule,
    LeadRule,
    Ranking,
    ScheduleRule,
    ScoringRule,
    SeatingRule,
    TrumpRule,
)
from backalley.rules.ranking import JokersHigh
from backalley.rules.registry import PART_NAMES, is_registered, part_classes, registered_parts
from backalley.rules.schedule import Schedule
from backalley.rules.scoring import ContractScoring
from backalley.rules.seating import Partnerships
from backalley.rules.trump import TurnUpTrump

if TYPE_CHECKING:
    pass

__all__ = ["PART_NAMES", "RuleSet"]

_UNSET: Any = object()

CAPABILITIES: dict[str, str] = {
    "declarer": "a declarer (the winner of an auction)",
    "declarer-every-deal": "a declarer in every deal that is played",
    "declarer-contract": "one declarer's contract",
    "summed-contracts": "each side's bids summed into its contract",
    "board-bids": "board bids",
    "multiplied-contracts": "contracts multiplied by counters",
    "contract-every-deal": "a contract in every deal that is played",
    "side-announcements": "each side's own highest announcement",
}
"""What the built-in capabilities mean, for error messages."""


@attrs.frozen(slots=True, repr=False)
class RuleSet:
    """The rules of one game of Back Alley: one policy object per part.

    ``RuleSet()`` is the gamerules game (see :ref:`rules-gamerules`).  Build variations with
    :meth:`replace`; a combination whose parts do not fit raises
    :class:`~backalley.RuleSetError` listing every problem.  ``name`` is a
    label only (it takes no part in equality).
    """

    __repr__ = fields_repr

    deck: DeckRule = attrs.field(factory=Deck)
    seating: SeatingRule = attrs.field(factory=Partnerships)
    schedule: ScheduleRule = attrs.field(factory=Schedule)
    dealer: DealerRule = attrs.field(factory=DealerRotation)
    trump: TrumpRule = attrs.field(factory=TurnUpTrump)
    bidding: BiddingRule = attrs.field(factory=OnceAroundBidding)
    lead: LeadRule = attrs.field(factory=LeadPolicy)
    follow: FollowRule = attrs.field(factory=FollowPolicy)
    ranking: Ranking = attrs.field(factory=JokersHigh)
    scoring: ScoringRule = attrs.field(factory=ContractScoring)
    end: EndRule = attrs.field(factory=EndPolicy)
    name: str | None = attrs.field(default=None, eq=False)
    _sides: tuple[int, tuple[tuple[int, ...], ...], tuple[int, ...]] = attrs.field(
        init=False,
        eq=False,
        hash=False,
        repr=False,
        default=attrs.Factory(lambda rules: _checked_sides(rules), takes_self=True),
    )
    """The parts checked to fit together, then the players, sides and side of each seat."""
    seat_teams: tuple[int, ...] = attrs.field(
        init=False, eq=False, hash=False, repr=False,
        default=attrs.Factory(lambda rules: rules._sides[2], takes_self=True),
    )  # fmt: skip
    """The side of each seat (derived from the seating, for the engine)."""
    players: int = attrs.field(
        init=False, eq=False, hash=False, repr=False,
        default=attrs.Factory(lambda rules: rules._sides[0], takes_self=True),
    )  # fmt: skip
    """The number of players (derived from the seating)."""
    teams: tuple[tuple[int, ...], ...] = attrs.field(
        init=False, eq=False, hash=False, repr=False,
        default=attrs.Factory(lambda rules: rules._sides[1], takes_self=True),
    )  # fmt: skip
    """The seats of each side (derived from the seating)."""
    plan: Plan = attrs.field(
        init=False, eq=False, hash=False, repr=False,
        default=attrs.Factory(lambda rules: Plan(rules), takes_self=True),
    )  # fmt: skip
    """Where the engine asks this rule set's parts and remembers their answers
    (a :class:`~backalley.rules.plan.Plan`, built with the rule set)."""

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle the parts and the name only: the derived fields and the plan are rebuilt
        return (_rebuild, ({name: getattr(self, name) for name in (*PART_NAMES, "name")},))

    def parts(self) -> dict[str, Any]:
        """The eleven parts, by name, in the order of a rules sheet."""
        return {name: getattr(self, name) for name in PART_NAMES}

    def replace(
        self,
        *,
        deck: DeckRule = _UNSET,
        seating: SeatingRule = _UNSET,
        schedule: ScheduleRule = _UNSET,
        dealer: DealerRule = _UNSET,
        trump: TrumpRule = _UNSET,
        bidding: BiddingRule = _UNSET,
        lead: LeadRule = _UNSET,
        follow: FollowRule = _UNSET,
        ranking: Ranking = _UNSET,
        scoring: ScoringRule = _UNSET,
        end: EndRule = _UNSET,
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
            "ranking": ranking,
            "scoring": scoring,
            "end": end,
        }
        parts = self.parts()
        parts.update({k: v for k, v in given.items() if v is not _UNSET})
        return RuleSet(**parts, name=name)

    def problems(self) -> list[str]:
        """Every reason the parts do not fit together (empty when they do)."""
        problems = []
        if self.name is not None and not _good_name(self.name):
            problems.append(
                f"name: a rule set's name must be text of 1 to 200 characters, got {self.name!r}"
            )
        for part in PART_NAMES:
            value = getattr(self, part)
            if not is_registered(value) or type(value).part != part:
                known = ", ".join(sorted(part_classes(part)))
                problems.append(
                    f"{part}: expected a registered {part} rule ({known}, or a class of your own "
                    f"decorated with @backalley.rules.register), got {value!r}"
                )
        if problems:
            return problems
        return _fit(self)

    def cautions(self) -> list[str]:
        """What about these rules may surprise their players though the game
        can be played (each part's ``cautions``; issued as
        :class:`~backalley.RuleSetWarning` when the rule set is built)."""
        out: list[str] = []
        for part in self.parts().values():
            cautions = getattr(part, "cautions", None)
            if callable(cautions):
                out.extend(cautions(self))
        return out

    def describe(self) -> str:
        """The rules as a readable sheet, one paragraph per part."""
        from backalley.rules.sheet import rules_sheet

        return rules_sheet(self)


def _good_name(name: object) -> bool:
    """A name is text of 1 to 200 characters that can be written as UTF-8."""
    if not isinstance(name, str) or not 1 <= len(name) <= 200:
        return False
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _fit(rules: RuleSet) -> list[str]:
    """Every capability needed is provided; then each part's own problems."""
    parts = rules.parts()
    provided: dict[str, list[str]] = {}
    for name, part in parts.items():
        for capability in part.provides():
            provided.setdefault(capability, []).append(name)
    out: list[str] = []
    for name, part in parts.items():
        for capability in sorted(part.needs()):
            if capability in provided:
                continue
            providers = _providers_of(capability)
            where = " and ".join([name, *(p for p in providers if p != name)])
            what = CAPABILITIES.get(capability, repr(capability))
            givers = " or ".join(
                f"{tag!r}"
                for p in providers
                for tag, cls in part_classes(p).items()
                if _gives(cls, capability)
            )
            hint = f" (use {givers})" if givers else ""
            out.append(
                f"{where}: {part.tag!r} {name} needs {what}, which this rule set's "
                f"{' and '.join(repr(parts[p].tag) for p in providers) or 'parts'} "
                f"{'does' if len(providers) == 1 else 'do'} not provide{hint}"
            )
    for part in parts.values():
        out.extend(part.problems(rules))
    return out


def _providers_of(capability: str) -> list[str]:
    """The rule parts whose registered classes can provide ``capability``."""
    found = []
    for part, table in registered_parts().items():
        if any(_gives(cls, capability) for cls in table.values()):
            found.append(part)
    return found


def _gives(cls: type, capability: str) -> bool:
    """Whether some instance of ``cls`` can provide ``capability`` (as the class declares)."""
    return capability in getattr(cls, "may_provide", frozenset())


def _checked_sides(
    rules: RuleSet,
) -> tuple[int, tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The players, the seats of each side and the side of each seat, once
    every part is checked to fit the others (raises :class:`RuleSetError`)."""
    problems = rules.problems()
    if problems:
        raise RuleSetError(problems)
    for caution in rules.cautions():
        warnings.warn(RuleSetWarning(caution), stacklevel=5)
    seating = rules.seating
    players = seating.players
    teams = tuple(tuple(team) for team in seating.teams)
    seat_teams = tuple(seating.team_of(s) for s in range(players))
    if sorted(s for team in teams for s in team) != list(range(players)) or any(
        not (type(t) is int and 0 <= t < len(teams) and s in teams[t])
        for s, t in enumerate(seat_teams)
    ):
        raise RuleSetError(
            [
                f"seating: the sides {teams!r} and team_of {seat_teams!r} must put each "
                f"of the {players} seats on exactly one side, the same in both"
            ]
        )
    return players, teams, seat_teams


def _rebuild(fields: dict[str, Any]) -> RuleSet:
    """A rule set from its pickled parts and name."""
    return RuleSet(**fields)
