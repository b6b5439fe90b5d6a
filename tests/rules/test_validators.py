"""The validator factories of rule-part options (backalley/rules/validators.py).

Each factory accepts the values it describes and refuses any other with a
:class:`~backalley.RuleSetError` that names the part (its ``part``, else its
class) and the option, says what would work and shows the value given; a
truth value is never a whole number.  The built-in parts check their options
with these factories.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs
import pytest

import backalley as ba
from backalley.rules import boolean, instance_or_none, one_of, whole, whole_numbers


@attrs.frozen
class Spot:
    """A value an option may hold."""

    where: int = 0


@attrs.frozen
class Options:
    """A stand-in part: one option per factory."""

    part: ClassVar[str] = "demo"

    flag: bool = attrs.field(default=False, validator=boolean())
    count: int = attrs.field(default=0, validator=whole())
    size: int = attrs.field(default=1, validator=whole(low=1))
    players: int = attrs.field(default=4, validator=whole(2, 8))
    ceiling: int = attrs.field(default=0, validator=whole(high=3))
    steps: tuple[int, ...] = attrs.field(default=(1,), validator=whole_numbers(low=1))
    numbers: tuple[int, ...] = attrs.field(default=(0,), validator=whole_numbers())
    jokers: int = attrs.field(default=2, validator=one_of((0, 2)))
    spot: Spot | None = attrs.field(default=None, validator=instance_or_none(Spot, "a Spot"))


@attrs.frozen
class Nameless:
    """A value with no ``part``: its class names it."""

    count: int = attrs.field(default=0, validator=whole(low=0))


def refused(**options: Any) -> str:
    """The message of the refusal of ``Options(**options)``."""
    with pytest.raises(ba.RuleSetError) as info:
        Options(**options)
    assert isinstance(info.value, ValueError)
    (problem,) = info.value.problems
    return problem


@pytest.mark.parametrize(
    "options",
    [
        {"flag": True},
        {"flag": False},
        {"count": -7},
        {"count": 10**6},
        {"size": 1},
        {"players": 2},
        {"players": 8},
        {"ceiling": 3},
        {"ceiling": -3},
        {"steps": (1, 2, 3)},
        {"numbers": (0, -1, 5)},
        {"jokers": 0},
        {"spot": Spot(3)},
        {"spot": None},
    ],
    ids=repr,
)
def test_the_factories_accept_what_they_describe(options: dict[str, Any]) -> None:
    built = Options(**options)
    for name, value in options.items():
        assert getattr(built, name) == value


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"flag": 1}, "demo: flag must be true or false, got 1"),
        ({"flag": "yes"}, "demo: flag must be true or false, got 'yes'"),
        ({"count": 2.0}, "demo: count must be a whole number, got 2.0"),
        ({"count": "3"}, "demo: count must be a whole number, got '3'"),
        ({"size": 0}, "demo: size must be a whole number >= 1, got 0"),
        ({"players": 9}, "demo: players must be a whole number from 2 to 8, got 9"),
        ({"players": 1}, "demo: players must be a whole number from 2 to 8, got 1"),
        ({"ceiling": 4}, "demo: ceiling must be a whole number <= 3, got 4"),
        ({"steps": ()}, "demo: steps must be one or more whole numbers >= 1, got ()"),
        ({"steps": (1, 0)}, "demo: steps must be one or more whole numbers >= 1, got (1, 0)"),
        ({"steps": 5}, "demo: steps must be one or more whole numbers >= 1, got 5"),
        ({"numbers": (1.5,)}, "demo: numbers must be one or more whole numbers, got (1.5,)"),
        ({"jokers": 1}, "demo: jokers must be one of 0, 2, got 1"),
        ({"jokers": 2.0}, "demo: jokers must be one of 0, 2, got 2.0"),
        ({"spot": 3}, "demo: spot must be a Spot or none, got 3"),
    ],
    ids=repr,
)
def test_the_factories_refuse_naming_the_part_and_the_option(
    options: dict[str, Any], message: str
) -> None:
    assert refused(**options) == message


@pytest.mark.parametrize(
    "options",
    [
        {"count": True},
        {"size": True},
        {"players": True},
        {"ceiling": False},
        {"steps": (1, True)},
        {"numbers": (False,)},
        {"jokers": False},
        {"count": ba.Rank.TWO},
    ],
    ids=repr,
)
def test_a_truth_value_or_an_int_enum_is_not_a_whole_number(options: dict[str, Any]) -> None:
    (name,) = options
    assert refused(**options).startswith(f"demo: {name} must be ")


def test_a_value_without_a_part_is_named_by_its_class() -> None:
    with pytest.raises(ba.RuleSetError, match=r"^Nameless: count must be a whole number >= 0"):
        Nameless(-1)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: ba.rules.OnceAroundBidding(min_bid=-1),
            "bidding: min_bid must be a whole number >= 0, got -1",
        ),
        (
            lambda: ba.rules.OnceAroundBidding(hook=1),
            "bidding: hook must be true or false, got 1",
        ),
        (
            lambda: ba.rules.OnceAroundBidding(board_multipliers=(1, 0)),
            "bidding: board_multipliers must be one or more whole numbers >= 1, got (1, 0)",
        ),
        (
            lambda: ba.rules.Auction(counters=True),
            "bidding: counters must be a whole number >= 0, got True",
        ),
        (
            lambda: ba.rules.ContractScoring(per_overtrick="1"),
            "scoring: per_overtrick must be a whole number, got '1'",
        ),
        (
            lambda: ba.rules.AuctionScoring(rainbow=5),
            "scoring: rainbow must be a Rainbow(hand_size, points) or none, got 5",
        ),
        (
            lambda: ba.rules.Rainbow(hand_size=0),
            "Rainbow: hand_size must be a whole number >= 1, got 0",
        ),
        (
            lambda: ba.rules.Cutthroat(9),
            "seating: players must be a whole number from 2 to 8, got 9",
        ),
        (lambda: ba.rules.Deck(jokers=1), "deck: jokers must be one of 0, 2, got 1"),
        (
            lambda: ba.rules.Schedule((13, 0)),
            "schedule: hand_sizes must be one or more whole numbers >= 1, got (13, 0)",
        ),
        (
            lambda: ba.rules.FollowPolicy(blooper_lead_forcing=0),
            "follow: blooper_lead_forcing must be true or false, got 0",
        ),
        (
            lambda: ba.rules.DeclarerNamesTrump(allow_no_trump="no"),
            "trump: allow_no_trump must be true or false, got 'no'",
        ),
    ],
)
def test_the_built_in_parts_refuse_with_the_factories_messages(build: Any, message: str) -> None:
    with pytest.raises(ba.RuleSetError) as info:
        build()
    assert info.value.problems == (message,)


def test_the_factories_are_exported_from_the_rules_package() -> None:
    for name in ("boolean", "whole", "whole_numbers", "one_of", "instance_or_none"):
        assert name in ba.rules.__all__
        assert callable(getattr(ba.rules, name))
