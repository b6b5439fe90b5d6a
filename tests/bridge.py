"""The bridge-like rules the solver is checked against endplay's DDS with,
and the PBN text DDS reads a deal in: one definition for the tests and for
``benchmarks/solver.py``."""

from __future__ import annotations

import backalley as ba
from backalley.rules.follow import FollowPolicy
from backalley.rules.lead import LeadPolicy, TrumpLead


def bridge_rules(trump: ba.Suit | None, size: int = 13) -> ba.RuleSet:
    """A bridge-like rule set: 52 cards, a fixed trump or none, trump led at
    any time, no blooper rules, ``size`` cards a hand."""
    part = ba.rules.NoTrump() if trump is None else ba.rules.FixedTrump(trump)
    return ba.variants.GAMERULES.replace(
        deck=ba.rules.Deck(jokers=0),
        trump=part,
        lead=LeadPolicy(trump_lead=TrumpLead.ANY_TIME),
        follow=FollowPolicy(blooper_lead_forcing=False),
        schedule=ba.rules.Schedule(hand_sizes=(size,)),
    )


def pbn(hands: tuple[tuple[ba.Card, ...], ...]) -> str:
    """The hands (seats 0..3 = N, E, S, W) in PBN: ``N:spades.hearts.diamonds.clubs ...``."""
    out = []
    for hand in hands:
        suits = []
        for letter in "SHDC":
            held = sorted((c for c in hand if c.suit.letter == letter), key=lambda c: -c.rank)
            suits.append("".join(str(c)[:-1] for c in held))
        out.append(".".join(suits))
    return "N:" + " ".join(out)
