"""Registering a rule part: what ``register`` accepts is exactly what the
rule-set documents read back.

- an option whose annotation does not resolve when the class is registered
  (a name imported only for type checkers, an undefined name), or whose type
  no document carries both ways (``float``, ``list``, ``dict``, unions, fixed
  tuples, sets of anything but ranks, flags, a class with
  fields outside ``__init__``), is refused by name with a ``RuleSetError``;
- every accepted option type round-trips through JSON and TOML, including
  structured options (nested attrs classes, lists of them, classes that name
  themselves);
- the option types are resolved once, at registration, and the documents read
  them from the registry;
- every list option of a rules document is bounded
  (:data:`~backalley.io.serialize.rules_doc.MAX_OPTION_ITEMS`): a longer list
  is refused at its length, naming the count and the limit, before any item
  is read, and is not written either.
"""

from __future__ import annotations

import enum
import json
import typing
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, ClassVar, cast

import attrs
import pytest

import backalley as ba
from backalley.io import houserules
from backalley.io.houserule_keys import value_words
from backalley.io.serialize.rules_doc import MAX_OPTION_ITEMS, rules_from_data, rules_to_data
from backalley.rules import FollowPolicy, OnceAroundBidding, Rainbow, Schedule, register, registry
from backalley.rules.registry import option_types, part_classes, registered_parts
from backalley.rules.schedule import MAX_DEALS

if TYPE_CHECKING:
    from decimal import Decimal

G = ba.variants.GAMERULES


@pytest.fixture
def scratch_registry() -> Iterator[None]:
    """Parts a test registers are forgotten after it, so that the property
    tests (which draw every registered part) never draw them."""
    parts = {part: dict(table) for part, table in registry._REGISTRY.items()}
    types = dict(registry._OPTION_TYPES)
    yield
    for part, table in registry._REGISTRY.items():
        table.clear()
        table.update(parts[part])
    registry._OPTION_TYPES.clear()
    registry._OPTION_TYPES.update(types)


def refusal(cls: type) -> str:
    """The message of the ``RuleSetError`` that refuses to register ``cls``;
    the class is then not registered."""
    with pytest.raises(ba.RuleSetError) as info:
        register(cls)
    assert cls not in part_classes("follow").values()
    with pytest.raises(ba.RuleSetError):
        option_types(cls)
    return str(info.value)


# ---------------------------------------------------- unresolvable annotations


def test_an_option_type_imported_only_for_type_checkers_is_refused_at_registration() -> None:
    @attrs.frozen
    class Stakes(FollowPolicy):
        tag: ClassVar[str] = "test-registration/stakes"
        stake: Decimal = attrs.field(default=None)

    message = refusal(Stakes)
    assert "Stakes: option 'stake'" in message
    assert "NameError" in message and "Decimal" in message
    assert "TYPE_CHECKING" in message


def test_an_option_naming_an_undefined_name_is_refused_at_registration() -> None:
    @attrs.frozen
    class Dangling(FollowPolicy):
        tag: ClassVar[str] = "test-registration/dangling"
        table: NoSuchTable | None = None  # type: ignore[name-defined]  # noqa: F821

    message = refusal(Dangling)
    assert "Dangling: option 'table'" in message and "NoSuchTable" in message


def test_a_refused_part_leaves_documents_naming_its_tag_refused_as_unknown() -> None:
    """Before the fix a document naming such a tag raised a bare NameError."""

    @attrs.frozen
    class Later(FollowPolicy):
        tag: ClassVar[str] = "test-registration/later"
        when: Decimal = attrs.field(default=None)

    refusal(Later)
    data = {"name": "x", "follow": {"type": "test-registration/later"}}
    with pytest.raises(ba.SerializationError, match="unknown follow type") as info:
        rules_from_data(data)
    assert info.value.path == "$.follow.type"


# ------------------------------------------------- types no document carries


def test_a_float_option_is_refused_naming_the_class_the_option_and_what_works() -> None:
    @attrs.frozen
    class Handicap(FollowPolicy):
        tag: ClassVar[str] = "test-registration/handicap"
        factor: float = 1.5

    message = refusal(Handicap)
    assert "Handicap: option 'factor' is float" in message
    assert "use an int" in message
    assert registry.OPTION_TYPES_TEXT in message


class Mode(enum.Enum):
    """An option enum of text values."""

    CALM = "calm"
    LOUD = "loud"


class Level(enum.IntEnum):
    """An option enum of whole-number values."""

    LOW = 1
    HIGH = 2


class Ratio(enum.Enum):
    """An enum whose values no document carries exactly."""

    HALF = 0.5


class Seats(enum.Flag):
    """Flags: a combination is not one of the members a document names."""

    NORTH = 1
    SOUTH = 2


@attrs.frozen
class Bonus:
    """A structured option with an option no document carries."""

    factor: float = 1.0


@attrs.frozen
class Counted:
    """A structured option with a field that ``__init__`` does not take."""

    count: int = 0
    double: int = attrs.field(init=False, default=0)


@pytest.mark.parametrize(
    ("annotation", "shown"),
    [
        ("list[int]", "list[int]"),
        ("dict[str, int]", "dict[str, int]"),
        ("int | str", "int | str"),
        ("int | str | None", "int | str | None"),
        ("tuple[int, int]", "tuple[int, int]"),
        ("tuple", "tuple"),
        ("frozenset[int]", "frozenset[int]"),
        ("typing.Any", "is Any"),
        ("Ratio", "Ratio"),
        ("Seats", "Seats"),
        ("tuple[float, ...]", "float"),
        ("ba.Card", "'option.index' must be an __init__ parameter"),
        ("Bonus | None", "'option.factor' is float"),
        ("tuple[Counted, ...]", "'option.double' must be an __init__ parameter"),
    ],
)
def test_an_option_of_a_type_no_document_carries_is_refused(annotation: str, shown: str) -> None:
    """The annotation is text, as under ``from __future__ import annotations``."""
    option: Any = attrs.field(default=None, type=cast(Any, annotation))
    cls = attrs.make_class("Odd", {"option": option}, bases=(FollowPolicy,), frozen=True)
    setattr(cls, "tag", "test-registration/odd")  # noqa: B010
    message = refusal(cls)
    assert "Odd: option 'option" in message and shown in message, message


def test_an_option_outside_init_is_refused() -> None:
    @attrs.frozen
    class Hidden(FollowPolicy):
        tag: ClassVar[str] = "test-registration/hidden"
        seen: int = attrs.field(init=False, default=0)
        _secret: int = 0

    message = refusal(Hidden)
    assert "option 'seen' must be an __init__ parameter" in message
    assert "option '_secret' must be an __init__ parameter under its own name" in message


# --------------------------------------------- accepted types, both ways


@attrs.frozen
class Step:
    """A structured option: lists, optional values and itself inside."""

    points: int = 0
    suits: tuple[ba.Suit, ...] = ()
    then: Step | None = None


@attrs.frozen
class EveryKind(FollowPolicy):
    """A follow rule (the usual one) with an option of every accepted type."""

    tag: ClassVar[str] = "test-registration/every-kind"
    text: str = "house"
    count: int = 3
    flag: bool = False
    suit: ba.Suit = ba.Suit.HEARTS
    mode: Mode = Mode.CALM
    level: Level = Level.LOW
    ranks: frozenset[ba.Rank] = frozenset({ba.Rank.ACE})
    rank: ba.Rank = ba.Rank.TEN
    sizes: tuple[int, ...] = (1, 2)
    suits: tuple[ba.Suit, ...] = ()
    limit: int | None = None
    maybe: tuple[int | None, ...] = ()
    step: Step | None = None
    steps: tuple[Step, ...] = ()
    old_style: typing.Optional[typing.Tuple[int, ...]] = None  # noqa: UP006, UP045
    rank_set: typing.FrozenSet[ba.Rank] = frozenset()  # noqa: UP006


FULL = EveryKind(
    text="ours",
    count=-4,
    flag=True,
    suit=ba.Suit.SPADES,
    mode=Mode.LOUD,
    level=Level.HIGH,
    ranks=frozenset({ba.Rank.TWO, ba.Rank.KING}),
    rank=ba.Rank.QUEEN,
    sizes=(3, 1, 3),
    suits=(ba.Suit.CLUBS, ba.Suit.DIAMONDS),
    limit=7,
    step=Step(2, (ba.Suit.HEARTS,), Step(1)),
    steps=(Step(), Step(5, then=Step(6))),
    old_style=(4,),
    rank_set=frozenset({ba.Rank.QUEEN}),
)


@pytest.mark.usefixtures("scratch_registry")
def test_every_accepted_option_type_round_trips_through_json_and_toml() -> None:
    register(EveryKind)
    for part in (EveryKind(), FULL, attrs.evolve(FULL, maybe=(None, 2))):
        rules = G.replace(follow=part, name="every kind")
        assert ba.from_json(ba.to_json(rules), ba.RuleSet) == rules
        assert ba.from_json(ba.to_json(part), EveryKind) == part
    rules = G.replace(follow=FULL, name="every kind")
    assert houserules.loads(houserules.dumps_toml(rules)) == rules


@attrs.frozen
class HighCard(FollowPolicy):
    """A follow rule (the usual one) with one rank as its option."""

    tag: ClassVar[str] = "test-registration/high-card"
    lowest_honour: ba.Rank = ba.Rank.JACK


@pytest.mark.usefixtures("scratch_registry")
def test_a_part_with_a_single_rank_option_registers_and_reads_its_letter() -> None:
    """A lone ``Rank`` is written as its letter and read back from a letter,
    from ``"10"`` or from a number from 2 to 14; anything else is refused at
    its path, and the TOML key's help says what a rank is."""
    register(HighCard)
    rules = G.replace(follow=HighCard(lowest_honour=ba.Rank.TEN), name="high card")
    data = rules_to_data(rules)
    assert data["follow"]["type"] == "test-registration/high-card"
    assert data["follow"]["lowest_honour"] == "T"
    assert rules_from_data(data) == rules
    assert houserules.loads(houserules.dumps_toml(rules)) == rules
    for written in ("10", 10, "t"):
        data["follow"]["lowest_honour"] = written
        assert rules_from_data(data).follow == HighCard(lowest_honour=ba.Rank.TEN)
    for wrong, said in (("BJ", "BJ"), (15, "15"), (True, "true")):
        data["follow"]["lowest_honour"] = wrong
        with pytest.raises(ba.SerializationError, match=said) as info:
            rules_from_data(data)
        assert info.value.path == "$.follow.lowest_honour"
    assert "a rank:" in value_words(ba.Rank)


@pytest.mark.usefixtures("scratch_registry")
def test_toml_refuses_a_none_inside_a_list_rather_than_crash() -> None:
    register(EveryKind)
    rules = G.replace(follow=EveryKind(maybe=(None,)), name="nulls")
    with pytest.raises(ba.SerializationError, match="TOML has no null"):
        houserules.dumps_toml(rules)


@pytest.mark.usefixtures("scratch_registry")
def test_a_part_that_names_itself_in_an_option_registers_and_loads() -> None:
    """The class's own name resolves while it is being decorated (its module
    does not hold it yet)."""

    @register
    @attrs.frozen
    class Fallback(FollowPolicy):
        tag: ClassVar[str] = "test-registration/fallback"
        instead: Fallback | None = None

    assert option_types(Fallback)["instead"] == typing.Optional[Fallback]  # noqa: UP045
    part = Fallback(instead=Fallback())
    assert ba.from_json(ba.to_json(part), Fallback) == part


@attrs.frozen
class Needs:
    """A structured option with a field without a default."""

    must: int
    may: int = 0


@pytest.mark.usefixtures("scratch_registry")
def test_an_option_without_a_default_missing_from_a_document_is_refused_with_its_path() -> None:
    """Before, the loader let the class's own TypeError out."""

    @register
    @attrs.frozen
    class Strict(FollowPolicy):
        tag: ClassVar[str] = "test-registration/strict"
        level: int = attrs.field(kw_only=True)
        extra: Needs | None = None

    typed = {"type": "test-registration/strict"}
    with pytest.raises(ba.SerializationError, match="missing option 'level'") as info:
        rules_from_data({"follow": typed})
    assert info.value.path == "$.follow.level"
    with pytest.raises(ba.SerializationError, match="missing key 'must'") as info:
        rules_from_data({"follow": {**typed, "level": 1, "extra": {"may": 2}}})
    assert info.value.path == "$.follow.extra.must"
    loaded = rules_from_data({"follow": {**typed, "level": 1, "extra": {"must": 3}}})
    assert loaded.follow == Strict(level=1, extra=Needs(3))


# ------------------------------------------------ types kept in the registry


def test_the_option_types_are_resolved_at_registration_and_kept_in_the_registry() -> None:
    assert dict(option_types(ba.rules.Deck)) == {"ranks": frozenset[ba.Rank], "jokers": int}
    assert dict(option_types(Rainbow)) == {"hand_size": int, "points": int}
    with pytest.raises(TypeError):
        option_types(ba.rules.Deck)["jokers"] = str  # type: ignore[index]
    with pytest.raises(ba.RuleSetError, match="not a registered rule part"):
        option_types(Step)


def test_every_registered_part_has_the_types_of_its_options() -> None:
    for table in registered_parts().values():
        for cls in table.values():
            names = [a.name for a in attrs.fields(cls)]
            hints = typing.get_type_hints(cls)
            assert dict(option_types(cls)) == {name: hints[name] for name in names}, cls


# ------------------------------------------------------------- list bounds


def _list_options() -> list[tuple[str, str, str]]:
    """Every list option of the library's parts: ``(part, tag, option)``, found
    through the registry."""
    out = []
    for part, table in registered_parts().items():
        for tag, cls in table.items():
            if not cls.__module__.startswith("backalley."):
                continue
            for name, tp in option_types(cls).items():
                if typing.get_origin(tp) in (tuple, frozenset):
                    out.append((part, tag, name))
    return out


def test_the_list_options_are_found() -> None:
    assert {
        ("deck", "deck", "ranks"),
        ("schedule", "schedule", "hand_sizes"),
        ("bidding", "once-around", "board_multipliers"),
    } <= set(_list_options())


def test_a_million_ranks_are_refused_by_their_count() -> None:
    text = json.dumps(
        {"format": "backalley/rules", "name": "huge", "deck": {"ranks": ["A"] * 10**6}}
    )
    with pytest.raises(ba.SerializationError) as info:
        ba.from_json(text, ba.RuleSet)
    assert info.value.path == "$.deck.ranks"
    assert info.value.message == f"1000000 items; at most {MAX_OPTION_ITEMS} fit here"


@pytest.mark.parametrize(("part", "tag", "name"), _list_options())
def test_every_list_option_is_refused_beyond_the_bound(part: str, tag: str, name: str) -> None:
    data = {part: {"type": tag, name: [2] * (MAX_OPTION_ITEMS + 1)}}
    with pytest.raises(ba.SerializationError) as info:
        rules_from_data(data)
    assert info.value.path == f"$.{part}.{name}"
    assert f"{MAX_OPTION_ITEMS + 1} items; at most {MAX_OPTION_ITEMS}" in info.value.message


@pytest.mark.usefixtures("scratch_registry")
def test_a_list_inside_a_structured_option_is_bounded() -> None:
    register(EveryKind)
    steps = [{"suits": ["C"] * (MAX_OPTION_ITEMS + 1)}]
    data = {"follow": {"type": EveryKind.tag, "steps": steps}}
    with pytest.raises(ba.SerializationError, match=f"at most {MAX_OPTION_ITEMS}") as info:
        rules_from_data(data)
    assert info.value.path == "$.follow.steps[0].suits"


def test_the_bound_holds_the_longest_schedule_and_every_preset() -> None:
    assert MAX_OPTION_ITEMS >= MAX_DEALS
    longest = G.replace(schedule=Schedule((1,) * MAX_DEALS))
    assert rules_from_data(rules_to_data(longest)) == longest
    for name in ba.variants.names():
        for part in ba.variants.get(name).parts().values():
            for value in part.options().values():
                if isinstance(value, (tuple, frozenset)):
                    assert len(value) <= MAX_OPTION_ITEMS, (name, part)


def test_a_list_option_beyond_the_bound_is_not_written() -> None:
    bidding = OnceAroundBidding(board_multipliers=(2,) * (MAX_OPTION_ITEMS + 1))
    with pytest.raises(ba.SerializationError, match="board_multipliers") as info:
        ba.to_json(bidding)
    assert f"{MAX_OPTION_ITEMS + 1} items" in info.value.message
