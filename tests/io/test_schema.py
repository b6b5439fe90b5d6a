"""The JSON Schema of backalley's documents, generated at run time
(backalley.io.schema; the shipped backalley/io/schema/backalley.schema.json
is its generation with the built-in parts and reasons).

Every document the library writes validates: rule sets of every variant,
states and views at random points of random games of every variant, records,
policies, deal results, contracts, moves, cards and conformance-vector lines.
Wrong documents are rejected, and the schema's policy definitions agree with
every registered policy class (so a new option or tag cannot go unpublished).
"""

from __future__ import annotations

import copy
import enum
import functools
import io
import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator

import backalley as ba
from backalley.io.schema import built_in_schema_text, definitions, schema, shipped_text
from backalley.io.serialize import FORMAT_VERSION, from_data, to_data
from backalley.io.shapes import MOST_CALLS
from backalley.io.vectors import probe_moves, write_vectors
from backalley.rules.registry import PART_NAMES, option_types, part_classes

from ..helpers import short
from ..randomgames import NAMES, games, play

ROOT = Draft202012Validator(schema())
_VALIDATORS: dict[str, Draft202012Validator] = {}


def validator(name: str) -> Draft202012Validator:
    if name not in _VALIDATORS:
        _VALIDATORS[name] = Draft202012Validator(schema(name))
    return _VALIDATORS[name]


def valid(name: str, document: Any, *, root: bool = False) -> None:
    """``document`` passes the definition ``name`` (and, with ``root``, the top level)."""
    errors = sorted(validator(name).iter_errors(document), key=lambda e: list(e.absolute_path))
    assert not errors, f"{name}: {errors[0].message} at {list(errors[0].absolute_path)}"
    if root:
        ROOT.validate(document)


def invalid(name: str, document: Any, *, root: bool = True) -> None:
    """``document`` fails the definition ``name`` (and, with ``root``, every definition)."""
    assert not validator(name).is_valid(document), f"{name} accepts {json.dumps(document)[:200]}"
    if root:
        assert not ROOT.is_valid(document), f"the schema accepts {json.dumps(document)[:200]}"


# ------------------------------------------------------------ the schema file


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    root = schema()
    assert root["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(root)
    for name in ("card", "move", "ruleset", "deal_result", "contract", "view", "record", "state"):
        assert name in root["$defs"]
    for part in PART_NAMES:
        assert f"policy:{part}" in root["$defs"]
    assert definitions() == tuple(root["$defs"])


def test_schema_returns_a_fresh_copy_and_refuses_unknown_definitions() -> None:
    first = schema()
    first["$defs"].clear()
    assert schema()["$defs"]
    assert schema("view")["$ref"] == "#/$defs/view"
    with pytest.raises(KeyError, match="no definition"):
        schema("nonsense")


def test_the_shipped_file_is_the_generated_schema_of_the_built_ins() -> None:
    """The file shipped for other languages is what the library generates
    from its own parts and reasons (not those other tests register)."""
    assert shipped_text() == built_in_schema_text(), (
        "the schema file is out of date: run python -m backalley.io.schema"
    )
    shipped = json.loads(shipped_text())
    for part in PART_NAMES:
        tags = shipped["$defs"][f"policy:{part}"]["properties"]["type"]["enum"]
        assert all(part_classes(part)[tag].__module__.startswith("backalley.") for tag in tags)
    assert shipped["$defs"]["reason"]["enum"] == [r.name for r in ba.Reason if r.built_in]


def test_the_schema_file_ships_inside_the_package() -> None:
    from importlib import resources

    assert resources.files("backalley.io.schema").joinpath("backalley.schema.json").is_file()


def _enum_values(tp: Any) -> list[Any] | None:
    if isinstance(tp, type) and issubclass(tp, enum.Enum) and tp is not ba.Suit:
        return [m.value for m in tp]
    return None


@pytest.mark.parametrize("part", PART_NAMES)
def test_policy_definitions_match_the_engine(part: str) -> None:
    """Every registered policy class of the part (the library's and those
    other tests register) has a definition under its tag, with exactly its
    parameters, in ``options()`` order, and the enum values of its option
    types."""
    defs = schema()["$defs"]
    classes = list(part_classes(part).values())
    assert defs[f"policy:{part}"]["properties"]["type"]["enum"] == [c.tag for c in classes]
    for cls in classes:
        definition = defs[f"{part}:{cls.tag}"]
        params = [a.name for a in attrs.fields(cls)]
        assert list(definition["properties"]) == ["type", *params]
        assert definition["required"] == ["type", *params]
        hints = option_types(cls)
        for name in params:
            values = _enum_values(hints[name])
            if values is not None:
                assert definition["properties"][name] == {"enum": values}, (part, cls.tag, name)


def test_reasons_and_phases_match_the_engine() -> None:
    defs = schema()["$defs"]
    assert defs["reason"]["enum"] == [r.name for r in ba.Reason]
    assert defs["phase"]["enum"] == [p.value for p in ba.Phase]
    assert defs["state"]["properties"]["version"] == {"const": FORMAT_VERSION}


# ------------------------------------------------------- what the library writes


def test_every_card_and_every_move() -> None:
    for card in ba.CARDS:
        valid("card", to_data(card), root=True)
        invalid("move", str(card), root=False)  # a bare card reads as a play, but is not canonical
    for move in probe_moves(27):
        valid("move", to_data(move), root=True)
    for move in (ba.Pass(), ba.Bid(0), ba.Bid(13), ba.BoardBid(), ba.Counter()):
        valid("call", str(move))


@pytest.mark.parametrize("name", NAMES)
def test_rule_sets_of_every_variant(name: str) -> None:
    rules = ba.variants.get(name)
    document = to_data(rules)
    valid("rules_document", document, root=True)
    bare = {k: v for k, v in document.items() if k not in ("format", "version")}
    valid("ruleset", bare)
    valid("ruleset_input", bare)
    for part, policy in rules.parts().items():
        valid(f"policy:{part}", bare[part])
        valid(f"override:{part}", bare[part])
        valid("policy_document", to_data(policy))


@pytest.mark.parametrize("name", NAMES)
def test_states_views_records_and_results_of_every_variant(name: str) -> None:
    start, final, moves = play(ba.variants.get(name), len(name), len(name) + 1, 10**6)
    assert final.is_over
    middle = play(ba.variants.get(name), len(name), len(name) + 1, len(moves) // 2)[1]
    valid("state", to_data(start), root=True)
    valid("state", to_data(middle))
    valid("state", to_data(final))
    valid("view", to_data(middle.view(middle.to_act)), root=True)
    valid("view", to_data(middle.view((middle.to_act + 1) % middle.players)))
    valid("view", to_data(final.view(0)))
    for result in final.deal_results[:2]:
        valid("deal_result_document", to_data(result), root=True)
        for contract in result.contracts:
            if contract is not None:
                valid("contract_document", to_data(contract), root=True)
    players = ["north", "east", "south", "west", "fifth"][: final.players]
    record = ba.GameRecord.from_game(start, moves, final=final, players=players)
    valid("record", to_data(record))


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_states_views_and_records_at_random_points(
    game: tuple[ba.GameState, ba.GameState, list[ba.Move]],
) -> None:
    start, state, moves = game
    valid("state", to_data(state))
    valid("view", to_data(state.view(state.to_act if state.to_act is not None else 0)))
    valid("record", to_data(ba.GameRecord.from_game(start, moves, metadata={"site": "test"})))


def test_a_record_with_deck_orders_and_no_seed() -> None:
    rules = ba.variants.get("vietnam-42")
    order = tuple(str(c) for c in ba.CARDS if int((rules.deck).cards) >> c.index & 1)
    record = ba.GameRecord(rules=rules, first_dealer=2, decks=(order,))
    document = to_data(record)
    assert document["seed"] is None
    valid("record", document)
    assert from_data(document, ba.GameRecord) == record


@pytest.mark.parametrize(
    "rules, full",
    [
        (ba.variants.VIETNAM_42, True),
        (short(ba.variants.CUTTHROAT_5, 3, 1), False),
        (short(ba.variants.GAMERULES, 2, 1), True),
        (short(ba.variants.BAB_ONLINE, 4), False),
    ],
    ids=["vietnam-42", "cutthroat-5", "gamerules", "bab-online"],
)
def test_conformance_vector_lines(rules: ba.RuleSet, full: bool) -> None:
    out = io.StringIO()
    write_vectors(rules, games=1, seed=3, out=out, full=full)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "result"
    step = max(1, len(lines) // 12)  # validating is slow: a sample of the positions
    for line in [lines[0], *lines[1:-1:step], lines[-1]]:
        valid(f"vectors_{line['type']}", line)
    valid("vectors_line", lines[1], root=True)


# ------------------------------------------------------------- wrong documents


@pytest.mark.parametrize("text", ["1X", "10H", "qs", "QS ", "", "JJ", "Q", "BJS", "AHX"])
def test_wrong_cards(text: str) -> None:
    invalid("card", text)


@pytest.mark.parametrize(
    "text",
    [
        "bid -1",
        "bid 03",
        "bid",
        "bid 3 4",
        "Pass",
        "play",
        "play 1X",
        "trump X",
        "trump",
        "double",
        "QS",
    ],
)
def test_wrong_or_non_canonical_moves(text: str) -> None:
    invalid("move", text, root=text != "QS")


@functools.cache
def _small_state() -> ba.GameState:
    """Mid-way through the second deal of a short gamerules game (small documents validate fast)."""
    return play(short(ba.variants.GAMERULES, 3, 4), 5, 6, 25)[1]


def _state() -> dict[str, Any]:
    state = _small_state()
    assert state.deals_played == 1 and state.phase is ba.Phase.PLAYING
    return to_data(state)


def _view() -> dict[str, Any]:
    state = play(short(ba.variants.VIETNAM, 4), 5, 6, 12)[1]
    assert state.view(1).tricks and state.view(1).hand
    return to_data(state.view(1))


def _set(document: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    document = copy.deepcopy(document)
    target = document
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return document


_DELETE = object()

WRONG_STATES = [
    (("extra",), 1),
    (("rules", "deck", "extra"), 1),
    (("rules", "format"), "backalley/rules"),
    (("rules", "trump", "type"), "sideways"),
    (("rules", "bidding", "all_pass"), "shrug"),
    (("rules", "deck", "jokers"), 1),
    (("rules", "base"), "gamerules"),
    (("rules", "scoring", "rainbow"), {"hand_size": 0, "points": 3}),
    (("rules", "trump"), {"joker_turn_up": "turn-next-card"}),  # written rule sets carry `type`
    (("format",), "backalley/view"),
    (("version",), 1),
    (("version",), 3),
    (("seed",), "7"),
    (("seed",), 1.5),
    (("seed",), 2**64),
    (("first_dealer",), True),
    (("first_dealer",), 8),
    (("moves", 0), "bid -1"),
    (("moves", 0), None),
    (("moves",), "pass pass"),
    (("decks",), [["QS", "QS"]]),
    (("decks",), "2C 3C"),
    (("decks",), _DELETE),
    (("moves",), _DELETE),
    (("rules",), _DELETE),
    (("deal_results",), []),  # a state document holds no results: they come from the moves
    (("phase",), "playing"),
]


@pytest.mark.parametrize("path, value", WRONG_STATES)
def test_wrong_states_are_rejected(path: tuple[Any, ...], value: Any) -> None:
    document = _set(_state(), path, value)
    invalid("state", document)


LOADER_ONLY = [
    # a deck of no ranks: its validator is a check of its own, which declares
    # no bound the schema could state
    (("rules", "deck", "ranks"), []),
]


def test_wrong_states_are_refused_by_the_loader_too() -> None:
    """The schema only rejects what the loader refuses too (for these cases)."""
    base = _state()
    for path, value in WRONG_STATES + LOADER_ONLY:
        if path == ("rules", "trump"):
            continue  # the loader reads an untyped part as the default type's parameters
        with pytest.raises(ba.SerializationError):
            ba.from_json(json.dumps(_set(base, path, value)), ba.GameState)


@pytest.mark.parametrize(
    "path, value",
    [
        (("hand", 0), "QQ"),
        (("legal_moves",), ["play 1X"]),
        (("legal_moves",), "play QS"),
        (("cards", 0, "reason"), "BECAUSE"),
        (("cards", 0, "playable"), "yes"),
        (("cards", 0, "extra"), 1),
        (("cards", 0), "QS"),
        (("deal_results",), ["1 0 4 QS S;bid 1,pass,bid 2,pass;3,-;-;3,1;15,-15"]),
        (("hand_counts",), [13]),
        (("to_act",), -1),
        (("trump",), "X"),
        (("calls", 0), "play QS"),
        (("tricks", 0, "winner"), "2"),
        (("tricks", 0, "extra"), 0),
        (("tricks", 0, "cards"), ["QS"]),
        (("deal_results",), [{"number": 1}]),
        (("seed",), 7),
        (("hands",), [["QS"]]),
        (("stock",), ["QS"]),
        (("phase",), _DELETE),
    ],
)
def test_wrong_views_are_rejected(path: tuple[Any, ...], value: Any) -> None:
    invalid("view", _set(_view(), path, value))


def test_a_views_calls_are_bounded_as_the_reader_bounds_them() -> None:
    """A bidding of the user's may take several rounds: the schema allows a
    view as many calls as the reader does (MOST_CALLS), and refuses more."""
    errors = validator("view").iter_errors
    for n, fits in ((9, True), (MOST_CALLS, True), (MOST_CALLS + 1, False)):
        document = _set(_view(), ("calls",), ["pass"] * n)
        about_calls = [e for e in errors(document) if list(e.absolute_path) == ["calls"]]
        assert not about_calls if fits else about_calls, (n, about_calls)


def test_nested_documents_carry_no_format() -> None:
    state = _small_state()
    result = to_data(state.deal_results[0])
    valid("deal_result_document", result)
    invalid("deal_result", result, root=False)  # (the top level takes it as a document)
    view = to_data(state.view(0))
    view["deal_results"][0] = {**result}  # with "format": refused
    invalid("view", view)
    with pytest.raises(ba.SerializationError):
        ba.from_json(json.dumps(view), ba.PlayerView)
    document = to_data(state)
    document["rules"] = to_data(state.rules)
    invalid("state", document)
    with pytest.raises(ba.SerializationError):
        ba.from_json(json.dumps(document), ba.GameState)


def test_a_state_document_is_the_start_and_the_moves() -> None:
    definition = schema()["$defs"]["state"]
    assert list(definition["properties"]) == [
        "format",
        "version",
        "rules",
        "seed",
        "first_dealer",
        "decks",
        "moves",
    ]
    assert definition["required"] == ["rules", "seed", "first_dealer", "decks", "moves"]


def test_a_view_documents_answers_are_typed() -> None:
    defs = schema()["$defs"]
    view = defs["view"]["properties"]
    assert view["legal_moves"]["items"]["pattern"] == defs["move"]["pattern"]
    assert view["cards"]["items"] == {"$ref": "#/$defs/card_answer"}
    answer = defs["card_answer"]
    assert answer["required"] == ["card", "playable", "reason", "message"]
    state = _small_state()
    for seat in range(state.players):
        document = to_data(state.view(seat))
        valid("view", document)
        for entry in document["cards"]:
            valid("card_answer", entry)


def test_wrong_records_are_rejected() -> None:
    start, _end, moves = play(short(ba.variants.VIETNAM_42, 3), 4, 4, 10)
    document = to_data(ba.GameRecord.from_game(start, moves))
    valid("record", document)
    invalid("record", _set(document, ("seed",), None))  # neither seed nor deck orders
    invalid("record", _set(document, ("moves", 3), "bid three"))
    invalid("record", _set(document, ("metadata",), {"site": 3}))
    invalid("record", _set(document, ("players",), ["a", 2]))
    invalid("record", _set(document, ("decks",), [["QS", "QS"]]))
    invalid("record", _set(document, ("rules", "trump", "suit"), "hearts"))
    invalid("record", _set(document, ("rules", "bidding", "hook"), True))  # not an auction option
    invalid("record", _set(document, ("first_dealer",), _DELETE))


def test_house_rules_shorthand_is_accepted_where_the_loader_accepts_it() -> None:
    """Rule set documents and records may use the house-rules shorthand:
    a base variant, parts left out, parameters left out, parts without type."""
    shorthand = {
        "name": "our table",
        "base": "gamerules",
        "trump": {"type": "fixed", "suit": "S"},
        "bidding": {"hook": True, "all_pass": "redeal-same-dealer"},
        "scoring": {"per_bid_trick": 10, "rainbow": {"hand_size": 4, "points": 10}},
    }
    valid("rules_document", shorthand)
    rules = ba.from_json(json.dumps(shorthand), ba.RuleSet)
    assert rules.trump == ba.rules.FixedTrump(ba.Suit.SPADES) and rules.bidding.hook
    invalid("rules_document", {**shorthand, "bidding": {"hook": "yes"}})
    invalid("rules_document", {**shorthand, "scoring": {"type": "contract", "per_trick": 10}})
    invalid("rules_document", {**shorthand, "trump": {"suit": "S", "joker_turn_up": "x"}})
    invalid("ruleset", shorthand, root=False)  # the written form has every part


def test_the_top_level_accepts_exactly_one_kind() -> None:
    for document in ("QS", "play QS", to_data(ba.variants.GAMERULES), _state(), _view()):
        ROOT.validate(document)
    for document in (None, 3, [], "QSS", {"format": "backalley/unknown"}, {"type": "header"}):
        assert not ROOT.is_valid(document)


def test_the_example_house_rules_file_fits_the_rule_set_schema() -> None:
    """A house-rules TOML file reads as the same data as a JSON rule set document."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    path = Path(__file__).resolve().parents[2] / "examples" / "house_rules.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    valid("rules_document", data, root=True)
    assert ba.from_json(json.dumps(data), ba.RuleSet) == ba.houserules.load(path)
