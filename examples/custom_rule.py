"""A house rule written outside the library: the jokers rank below the ace of trumps.

One class implementing the ranking part's protocol (here by subclassing
``OrderedRanking`` and giving each card's strength), registered under a tag of
our own.  Composed with the gamerules game it validates, plays, saves and
loads like a built-in rule, and shows in the rules sheet through its own
``describe()``; registered as the variant ``our-table``, with a description,
the command line finds it once this file is imported.

Run it:          python examples/custom_rule.py
List it:         backalley --import examples/custom_rule.py variants
Play it:         backalley --import examples/custom_rule.py play --variant our-table
"""

from __future__ import annotations

import random
from typing import ClassVar

import attrs

import backalley as ba
from backalley.rules import OrderedRanking, register


@register
@attrs.frozen
class JokersBelowAce(OrderedRanking):
    """The jokers belong to the trump suit and rank just below its ace:
    A (high), BJ, LJ, K, Q, ... 2.  A trick is won by its highest trump,
    else the highest card of the suit led."""

    tag: ClassVar[str] = "example/jokers-below-ace"

    def key(self, card: ba.Card, trump: ba.Suit | None) -> int:
        if card.rank is ba.Rank.LITTLE_JOKER:
            return 13
        if card.rank is ba.Rank.BIG_JOKER:
            return 14
        if card.rank is ba.Rank.ACE and card.suit is trump:
            return 15  # the ace of trumps, above both jokers
        return card.rank.value - 2  # 0 for a two ... 12 for an ace

    def describe(self) -> str:
        return (
            "Cards rank A (high), K, Q, J, 10 down to 2 in each suit. The jokers belong to the "
            "trump suit and rank just below its ace: the ace of trumps, then the Big Blooper "
            "(BJ), then the Little Blooper (LJ), then the king of trumps. A trick is won by its "
            "highest trump, else by the highest card of the suit led; the winner leads next."
        )


OUR_TABLE = ba.variants.register(
    ba.variants.GAMERULES.replace(ranking=JokersBelowAce(), name="our-table"),
    description="The gamerules game with the jokers just below the ace of trumps.",
)


def main() -> int:
    rules = OUR_TABLE
    state = ba.new_game(rules, seed=2026)
    rng = random.Random(2026)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
    print(f"{rules.name}: {state.deals_played} deals, final scores {list(state.scores)}")

    text = ba.to_json(state)
    again = ba.from_json(text, ba.GameState)
    assert again == state and again.rules.ranking == JokersBelowAce()
    print(f"saved as {len(text)} characters of JSON and loaded back equal")

    toml = ba.houserules.dumps_toml(rules)
    assert ba.houserules.loads(toml) == rules
    print()
    print(rules.describe())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
