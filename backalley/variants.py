"""Named rule sets: the seed variants (RULES.md §1, §2) and real-world presets (§5, §6).

``get(name)`` finds a rule set by name or alias (case-insensitive; ``_`` and
spaces read as ``-``); ``names()`` lists the registered names.
"""

from __future__ import annotations

from backalley.cards import Rank, Suit
from backalley.errors import UnknownVariantError
from backalley.rules import (
    Auction,
    AuctionScoring,
    Cutthroat,
    DealerRotation,
    DeclarerNamesTrump,
    Deck,
    FirstLead,
    FixedTrump,
    FollowPolicy,
    LeadPolicy,
    NextDealer,
    RuleSet,
    Schedule,
    TrumpLead,
)

__all__ = [
    "GAMERULES",
    "VIETNAM",
    "VIETNAM_42",
    "VIETNAM_CUTTHROAT",
    "VIETNAM_NO_JOKERS",
    "VIETNAM_SPADES",
    "get",
    "names",
    "register",
]

GAMERULES: RuleSet = RuleSet(name="gamerules")
"""The gamerules game (RULES.md §1): every part at its default."""

VIETNAM: RuleSet = RuleSet(
    schedule=Schedule.fixed(13, 2),
    dealer=DealerRotation(next_dealer=NextDealer.LOSING_TEAM),
    trump=DeclarerNamesTrump(),
    bidding=Auction(),
    lead=LeadPolicy(first_lead=FirstLead.DECLARER, trump_lead=TrumpLead.ANY_TIME),
    scoring=AuctionScoring(),
    name="vietnam",
)
"""The Vietnam-era game (RULES.md §2): a match of two 13-card games, an
ascending auction with counters, the declarer names trump and leads."""

VIETNAM_NO_JOKERS: RuleSet = VIETNAM.replace(
    deck=Deck(jokers=0),
    follow=FollowPolicy(blooper_lead_forcing=False),
    name="vietnam-no-jokers",
)
"""``VIETNAM`` with a plain 52-card deck (so no blooper rules)."""

VIETNAM_42: RuleSet = VIETNAM.replace(
    deck=Deck(ranks=[r for r in Rank if Rank.FIVE <= r <= Rank.ACE]),
    schedule=Schedule.fixed(10, 2),
    name="vietnam-42",
)
"""``VIETNAM`` on the 42-card deck (2s, 3s, 4s removed, jokers kept): 10 cards each."""

VIETNAM_SPADES: RuleSet = VIETNAM.replace(trump=FixedTrump(Suit.SPADES), name="vietnam-spades")
"""``VIETNAM`` with spades always trump: the declarer names nothing."""

VIETNAM_CUTTHROAT: RuleSet = VIETNAM.replace(seating=Cutthroat(4), name="vietnam-cutthroat")
"""``VIETNAM`` without partnerships: each player scores alone."""

_REGISTRY: dict[str, RuleSet] = {}
_ALIASES: dict[str, str] = {}


def _key(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def register(rules: RuleSet, *aliases: str) -> RuleSet:
    """Register a named rule set (its ``name``) under that name and ``aliases``."""
    if not rules.name:
        raise ValueError("only a named rule set can be registered")
    name = _key(rules.name)
    _REGISTRY[name] = rules
    for alias in aliases:
        _ALIASES[_key(alias)] = name
    return rules


def names() -> tuple[str, ...]:
    """The registered variant names, seed variants first."""
    return tuple(_REGISTRY)


def get(name: str) -> RuleSet:
    """The rule set registered as ``name`` (or an alias), case-insensitive.

    Raises :class:`~backalley.UnknownVariantError` (a ``KeyError`` and a
    ``ValueError``) listing the known names.
    """
    if isinstance(name, RuleSet):
        return name
    if not isinstance(name, str):
        raise UnknownVariantError(repr(name), names())
    key = _key(name)
    key = _ALIASES.get(key, key)
    try:
        return _REGISTRY[key]
    except KeyError:
        raise UnknownVariantError(name, names()) from None


register(GAMERULES, "default", "back-alley", "backalley")
register(VIETNAM, "vietnam-era")
register(VIETNAM_NO_JOKERS, "vietnam-52", "vietnam-nojokers")
register(VIETNAM_42, "vietnam-fortytwo")
register(VIETNAM_SPADES, "vietnam-spades-trump")
register(VIETNAM_CUTTHROAT, "vietnam-singles")
