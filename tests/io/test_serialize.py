"""JSON for every document type (format version 2).

- round trips: ``from_json(to_json(x), type(x)) == x`` for states, views,
  rule sets, records, deal results, contracts, policies, moves and cards,
  over random points of random games of every variant;
- a state document is its game's start and moves: loading replays them, and a
  refused move refuses the document with its position and the engine's reason;
- consistency on loading: each inconsistency raises ``SerializationError``
  with ``.path`` at the offending field; a view's legal moves and card answers
  are checked against the view;
- fuzzing: mutated documents, random JSON and random text only ever raise
  the library's own exceptions, and whatever loads is a valid value.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

import backalley as ba
from backalley import lowlevel
from backalley.io import serialize
from backalley.io.schema import schema
from backalley.io.serialize import from_data, to_data
from backalley.io.vectors import probe_moves

from ..helpers import check_conservation, fuzz_examples, short
from ..marks import by_variant
from ..randomgames import NAMES, games, play, sample_states, walk


def fast(examples: int) -> settings:
    return settings(
        max_examples=fuzz_examples(examples),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def roundtrip(value: Any, cls: type | None = None) -> Any:
    cls = type(value) if cls is None else cls
    text = ba.to_json(value)
    loaded = ba.from_json(text, cls)
    assert loaded == value
    assert ba.to_json(loaded) == text, "writing a loaded document gives the same text"
    assert ba.from_json(ba.to_json(value, indent=None), cls) == value
    assert ba.from_json(text.encode("utf-8"), cls) == value
    return loaded


# ----------------------------------------------------------------- round trips


def test_every_card_and_move_round_trips() -> None:
    for card in ba.CARDS:
        assert ba.to_json(card) == f'"{card}"'
        assert roundtrip(card) is card
    for move in probe_moves(27):
        assert ba.to_json(move) == json.dumps(str(move))
        roundtrip(move)
        assert ba.from_json(ba.to_json(move), ba.Move) == move  # any move, by the Move union


@pytest.mark.parametrize("name", NAMES)
def test_rule_sets_of_every_variant_round_trip(name: str) -> None:
    rules = ba.variants.get(name)
    loaded = roundtrip(rules)
    assert loaded.name == rules.name  # the name takes no part in equality
    for policy in rules.parts().values():
        assert roundtrip(policy) == policy
    unnamed = rules.replace(end=rules.end)
    assert unnamed.name is None and roundtrip(unnamed).name is None


@fast(30)
@given(games())
def test_states_views_and_records_round_trip(
    game: tuple[ba.GameState, ba.GameState, list[ba.Move]],
) -> None:
    start, state, moves = game
    loaded = roundtrip(state)
    assert loaded.legal_moves() == state.legal_moves()
    assert loaded.rules.name == state.rules.name
    check_conservation(loaded)
    if not state.is_over:
        move = state.legal_moves()[-1]
        assert loaded.apply(move) == state.apply(move)
    for seat in range(state.players):
        view = state.view(seat)
        loaded_view = roundtrip(view)
        assert loaded_view.legal_moves() == view.legal_moves()
    for result in state.deal_results[-2:]:
        roundtrip(result)
        for contract in result.contracts:
            if contract is not None:
                roundtrip(contract)
    record = ba.GameRecord.from_game(
        start,
        moves,
        final=state,
        players=[f"p{i}" for i in range(state.players)],
        metadata={"event": "test"},
    )
    loaded_record = roundtrip(record)
    assert loaded_record.metadata == {"event": "test"}  # metadata takes no part in equality
    assert roundtrip(ba.GameRecord.from_game(start, moves)).results is None


def test_a_state_started_from_deck_orders_round_trips() -> None:
    rules = short(ba.variants.GAMERULES, 2, 1)
    deck = [str(c) for c in reversed(ba.CARDS)]
    state = ba.new_game(rules, dealer=1, decks=[deck, deck], seed=4)
    while not state.is_over:
        state = roundtrip(state).apply(
            state.legal_moves()[-1]
        )  # (always passing would redeal forever)
        assert lowlevel.core(state).match.decks
    roundtrip(state)


@pytest.mark.parametrize("name", by_variant(NAMES))
def test_states_and_views_of_every_variant_round_trip(name: str) -> None:
    """Every registered variant: states all through a game (its end too) and
    every seat's view of them load back equal, and play on the same."""
    rules = ba.variants.get(name)
    states = sample_states(name, 40 + len(name), every=23)
    assert states[-1].is_over
    for state in states:
        loaded = roundtrip(state)
        assert loaded.moves == state.moves and loaded.legal_moves() == state.legal_moves()
        if not state.is_over:
            move = state.legal_moves()[-1]
            assert loaded.apply(move) == state.apply(move)
    for k, state in enumerate(states[::4]):
        roundtrip(state.view(k % rules.players))


def test_states_whose_deals_were_imposed_round_trip() -> None:
    """A framework with chance nodes deals known orders (``lowlevel.deal_order``):
    the document holds them, so the replay deals the same cards."""
    rules = short(ba.variants.GAMERULES, 3, 2, 1)
    rng = random.Random(3)
    state = ba.new_game(rules, seed=8)
    while not state.is_over:
        if state.phase is ba.Phase.BIDDING and not state.calls and rng.random() < 0.7:
            order = [c.index for c in ba.CARDS]
            rng.shuffle(order)
            state = lowlevel.deal_order(state, order)
        roundtrip(state)
        state = state.apply(rng.choice(state.legal_moves()))
    loaded = roundtrip(state)
    assert to_data(loaded)["decks"] and loaded.deal_results == state.deal_results


# ---------------------------------------------------------- loading: consistency


@functools.cache
def _mid_game() -> ba.GameState:
    """Gamerules, the second deal of three, a few tricks played."""
    state = play(short(ba.variants.GAMERULES, 3, 4, 2), 11, 12, 30)[1]
    assert state.deals_played == 1 and state.phase is ba.Phase.PLAYING and state.tricks
    return state


@functools.cache
def _game_over() -> ba.GameState:
    state = play(short(ba.variants.GAMERULES, 3, 2), 13, 14, 10**6)[1]
    assert state.is_over
    return state


def _doc(state: Any) -> dict[str, Any]:
    """A fresh copy of a document's plain data."""
    return copy.deepcopy(to_data(state))


def _refused(
    document: Any, cls: type, path: str, match: str | None = None
) -> ba.SerializationError:
    with pytest.raises(ba.SerializationError, match=match) as info:
        ba.from_json(json.dumps(document), cls)
    assert isinstance(info.value, ValueError) and isinstance(info.value, ba.BackAlleyError)
    assert info.value.path == path, f"{info.value.path} != {path}: {info.value}"
    assert str(info.value).startswith(path)
    return info.value


def test_a_state_document_is_the_start_of_its_game_and_its_moves() -> None:
    state = _mid_game()
    d = _doc(state)
    assert set(d) == {"format", "version", "rules", "seed", "first_dealer", "decks", "moves"}
    assert (d["format"], d["version"]) == ("backalley/state", 2)
    assert d["seed"] == state.seed and d["first_dealer"] == state.first_dealer
    assert d["moves"] == [str(m) for m in state.moves] and d["decks"] == []
    replayed = ba.new_game(state.rules, seed=state.seed, dealer=state.first_dealer)
    for move in state.moves:
        replayed = replayed.apply(move)
    assert ba.from_json(json.dumps(d), ba.GameState) == replayed == state


def test_an_illegal_move_is_refused_at_its_position_with_the_engines_reason() -> None:
    state = _mid_game()
    moves = list(state.moves)
    k = next(i for i, m in enumerate(moves) if isinstance(m, ba.Play)) + 1  # the second play
    before = ba.new_game(state.rules, seed=state.seed, dealer=state.first_dealer)
    for move in moves[:k]:
        before = before.apply(move)
    seat = before.to_act
    other = next(c for s, hand in enumerate(before.hands) if s != seat for c in hand)
    d = _doc(state)
    d["moves"][k] = f"play {other}"
    with pytest.raises(ba.IllegalMoveError) as engine:
        before.apply(ba.Play(other))
    error = _refused(d, ba.GameState, f"$.moves[{k}]", "is refused")
    assert f"move {k + 1} (play {other}) is refused: {engine.value}" in str(error)
    assert engine.value.reason is ba.Reason.NOT_IN_HAND


@pytest.mark.parametrize(
    "index, move, reason",
    [(0, "play 2C", "time to bid"), (1, "trump H", "bid"), (0, "bid 14", "highest")],
)
def test_a_refused_call_names_its_position(index: int, move: str, reason: str) -> None:
    d = _doc(_mid_game())
    d["moves"][index] = move
    _refused(
        d,
        ba.GameState,
        f"$.moves[{index}]",
        f"move {index + 1} \\({move}\\) is refused: .*({reason})",
    )


def test_a_move_that_is_no_move_names_its_place() -> None:
    d = _doc(_mid_game())
    d["moves"][1] = "bid three"
    _refused(d, ba.GameState, "$.moves[1]", "bid three")
    d["moves"][1] = 3
    _refused(d, ba.GameState, "$.moves[1]", "expected a move")


def test_a_move_after_the_end_of_the_game_is_refused() -> None:
    d = _doc(_game_over())
    d["moves"].append("pass")
    error = _refused(d, ba.GameState, f"$.moves[{len(d['moves']) - 1}]", "game is over")
    assert f"move {len(d['moves'])} (pass)" in str(error)


@pytest.mark.parametrize(
    "where, key",
    [((), "extra"), (("rules",), "extra"), (("rules", "trump"), "extra")],
)
def test_unknown_keys(where: tuple[Any, ...], key: str) -> None:
    d = _doc(_mid_game())
    target = d
    for k in where:
        target = target[k]
    target[key] = 1
    path = "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in where) + f".{key}"
    _refused(d, ba.GameState, path, "unknown")


@pytest.mark.parametrize(
    "where, value, path",
    [
        (("seed",), "7", "$.seed"),
        (("seed",), 7.0, "$.seed"),
        (("seed",), 2**64, "$.seed"),
        (("first_dealer",), True, "$.first_dealer"),
        (("first_dealer",), 4, "$.first_dealer"),
        (("moves",), "pass pass", "$.moves"),
        (("moves",), {"0": "pass"}, "$.moves"),
        (("decks",), None, "$.decks"),
        (("decks",), [["QS", "JS"]], "$.decks[0]"),
        (("decks",), [[str(c) for c in ba.CARDS[:53]] + ["LJ"]], "$.decks[0][53]"),
        (("decks",), [[str(c) for c in ba.CARDS[:53]] + ["1X"]], "$.decks[0][53]"),
        (("rules", "trump"), "turn-up", "$.rules.trump"),
        (("rules", "trump", "type"), "sideways", "$.rules.trump.type"),
        (("rules", "bidding", "all_pass"), "shrug", "$.rules.bidding.all_pass"),
        (("rules", "bidding", "hook"), 1, "$.rules.bidding.hook"),
        (("rules", "deck", "ranks", 0), "1", "$.rules.deck.ranks[0]"),
        (("rules", "base"), "gamerules", "$.rules.base"),
        (("format",), "backalley/view", "$.format"),
        (("version",), 3, "$.version"),
        (("version",), "2", "$.version"),
        (("version",), True, "$.version"),
    ],
)
def test_wrong_types_and_values(where: tuple[Any, ...], value: Any, path: str) -> None:
    d = _doc(_mid_game())
    target = d
    for k in where[:-1]:
        target = target[k]
    target[where[-1]] = value
    _refused(d, ba.GameState, path)


def test_missing_keys() -> None:
    for key in ("rules", "seed", "first_dealer", "decks", "moves"):
        d = _doc(_mid_game())
        del d[key]
        _refused(d, ba.GameState, f"$.{key}", "missing")


@pytest.mark.parametrize("cls", [ba.GameState, ba.PlayerView, ba.GameRecord, ba.RuleSet])
def test_format_version_1_is_refused_with_a_clear_message(cls: type) -> None:
    value = {
        ba.GameState: _mid_game(),
        ba.PlayerView: _mid_game().view(1),
        ba.GameRecord: ba.GameRecord.from_game(ba.new_game(seed=1), []),
        ba.RuleSet: ba.variants.GAMERULES,
    }[cls]
    d = _doc(value)
    d["version"] = 1
    _refused(d, cls, "$.version", "format version 1 is no longer read")
    assert to_data(value)["version"] == 2 == serialize.FORMAT_VERSION


def test_format_and_version_are_optional_but_checked() -> None:
    d = _doc(_mid_game())
    del d["format"], d["version"]
    assert ba.from_json(json.dumps(d), ba.GameState) == _mid_game()
    for cls, kind in [(ba.PlayerView, "view"), (ba.RuleSet, "rules"), (ba.GameRecord, "record")]:
        _refused(_doc(_mid_game()), cls, "$.format", kind)


def test_not_json_and_not_a_document_type() -> None:
    for text in ("", "{", "[1,", "nan?", b"\xff\xfe", "\x00"):
        _refused_text(text, ba.GameState)
    with pytest.raises(ba.SerializationError):
        ba.from_json(ba.to_json(_mid_game()), dict)  # type: ignore[arg-type]
    with pytest.raises(ba.SerializationError):
        ba.from_json(42, ba.GameState)  # type: ignore[arg-type]
    with pytest.raises(ba.SerializationError):
        ba.to_json(object())
    with pytest.raises(ba.SerializationError):
        ba.from_json("[" * 100_000 + "]" * 100_000, ba.GameState)


def _refused_text(text: str | bytes, cls: type) -> None:
    with pytest.raises(ba.SerializationError) as info:
        ba.from_json(text, cls)
    assert info.value.path == "$"


def test_a_state_that_began_mid_game_cannot_be_written() -> None:
    """A bot's sample (``lowlevel.opening``) starts at a later deal with the
    scored deals copied: no replay from a new game reaches it."""
    state = _mid_game()
    order = [c.index for c in ba.CARDS]
    sample = lowlevel.opening(state.view(0), order)
    assert sample.deal_results
    with pytest.raises(ba.SerializationError, match="not played from a new game"):
        ba.to_json(sample)
    after = sample
    while after.deals_played == sample.deals_played and not after.is_over:
        after = after.apply(after.legal_moves()[-1])  # on into its next deal: still not
    with pytest.raises(ba.SerializationError, match="not played from a new game"):
        ba.to_json(after)
    with pytest.raises(ba.SerializationError, match="not played from a new game"):
        to_data(sample)
    assert ba.from_json(ba.to_json(sample.view(1)), ba.PlayerView) == sample.view(1)


def test_a_sample_of_the_first_deal_is_a_new_game_and_round_trips() -> None:
    """At the game's first deal (after thrown-in deals too) a bot's sample is
    a game from its start, dealt from the sampled order: its document replays it."""
    state = ba.new_game(ba.variants.GAMERULES, seed=3)
    for _ in range(4):
        state = state.apply(ba.Pass())  # thrown in: dealt again by the next dealer
    state = state.apply(state.legal_moves()[-1])
    order = [c.index for c in reversed(ba.CARDS)]
    for position in (state, state.view(2)):
        sample = lowlevel.opening(position, order)
        assert sample.dealer == state.dealer and not sample.deal_results
        roundtrip(sample)
        roundtrip(sample.apply(sample.legal_moves()[0]))


# views


@functools.cache
def _view_state() -> ba.GameState:
    state = play(short(ba.variants.VIETNAM, 6, 6), 21, 22, 20)[1]
    assert state.phase is ba.Phase.PLAYING and state.tricks and state.trick
    return state


def _view_doc(seat: int = 0) -> dict[str, Any]:
    return copy.deepcopy(to_data(_view_state().view(seat)))


def test_view_consistency_checks() -> None:
    state = _view_state()
    seat = (state.to_act + 1) % 4
    d = _view_doc(seat)
    d["hand"][1] = d["hand"][0]
    _refused(d, ba.PlayerView, "$.hand[1]", "twice")
    d = _view_doc(seat)
    d["hand"][0] = d["tricks"][0]["cards"][0]  # a card both held and played
    d["hand"].sort(key=lambda c: ba.parse_card(c).index)
    _refused(d, ba.PlayerView, "$.tricks[0].cards[0]", "out of place")
    d = _view_doc(seat)
    d["hand_counts"][seat] -= 1
    _refused(d, ba.PlayerView, f"$.hand_counts[{seat}]")
    d = _view_doc(seat)
    d["hand"].pop()
    _refused(d, ba.PlayerView, "$.hand", "count")
    d = _view_doc(seat)
    d["to_act"] = seat
    _refused(d, ba.PlayerView, "$.to_act")
    d = _view_doc(seat)
    d["tricks"][0]["winner"] = (d["tricks"][0]["winner"] + 1) % 4
    _refused(d, ba.PlayerView, "$.tricks[0].winner")
    d = _view_doc(seat)
    d["scores"][0] += 1
    _refused(d, ba.PlayerView, "$.scores", "not the sum")
    d = _view_doc(seat)
    d["calls"][0] = "play QS"
    _refused(d, ba.PlayerView, "$.calls[0]")
    d = _view_doc(seat)
    d["phase"] = "game-over"
    _refused(d, ba.PlayerView, "$.phase")
    d = _view_doc(seat)
    d["phase"] = "naming-trump"  # the trump is named already
    _refused(d, ba.PlayerView, "$.trump")
    d = copy.deepcopy(to_data(_mid_game().view(0)))  # turn-up trump: the turn-up's suit
    d["trump"] = "H" if d["trump"] != "H" else "C"
    _refused(d, ba.PlayerView, "$.trump", "turn-up")
    d = _view_doc(seat)
    d["seat"] = 4
    _refused(d, ba.PlayerView, "$.seat")
    d = _view_doc(seat)
    d["stock"] = []
    _refused(d, ba.PlayerView, "$.stock", "unknown")
    d = _view_doc(seat)
    d["rules"]["base"] = "vietnam"
    _refused(d, ba.PlayerView, "$.rules.base")


def test_a_view_without_trump_where_the_declarer_must_name_one() -> None:
    """(DeclarerNamesTrump(allow_no_trump=False): a playing view needs a trump suit)"""
    state = _view_state()
    assert not state.rules.trump.allow_no_trump and state.trump is not None
    d = _view_doc((state.to_act + 1) % 4)
    d["trump"] = None
    _refused(d, ba.PlayerView, "$.trump")


WRONG_RESULTS = [
    ("bids", lambda r: r["bids"].pop()),
    ("bids", lambda r: r["bids"].append("pass")),
    ("contracts", lambda r: r["contracts"].pop()),
    ("tricks", lambda r: r.__setitem__("tricks", [sum(r["tricks"])])),
    ("tricks", lambda r: r.__setitem__("tricks", [*r["tricks"], 0])),
    ("declarer", lambda r: r.__setitem__("declarer", 9)),
    ("tricks", lambda r: r.__setitem__("tricks", [r["hand_size"], r["hand_size"]])),
    ("number", lambda r: r.__setitem__("number", 5)),
    ("hand_size", lambda r: r.__setitem__("hand_size", r["hand_size"] + 1)),
    ("dealer", lambda r: r.__setitem__("dealer", 4)),
    ("turn_up", lambda r: r.__setitem__("turn_up", "XX")),
    ("extra", lambda r: r.__setitem__("extra", 1)),
    ("contracts", lambda r: r["contracts"].__setitem__(0, {"tricks": -1})),
    ("trump", lambda r: r.__setitem__("trump", 7)),
]


@pytest.mark.parametrize(
    "field, change", WRONG_RESULTS, ids=[f"{f}-{i}" for i, (f, _c) in enumerate(WRONG_RESULTS)]
)
def test_view_deal_results_that_do_not_fit_are_refused(field: str, change: Any) -> None:
    """Calls per seat, contracts and tricks per side, a declarer that is a
    seat, numbers and hand sizes from the schedule, tricks that add up."""
    d = _doc(_mid_game().view(2))
    change(d["deal_results"][0])
    with pytest.raises(ba.SerializationError) as info:
        ba.from_json(json.dumps(d), ba.PlayerView)
    assert info.value.path.startswith("$.deal_results[0]"), (field, str(info.value))


def test_past_deals_in_a_view_are_refused_when_the_scoring_part_does_not_give_their_points() -> (
    None
):
    """A view's earlier deals are what the table saw: their points are asked of
    the scoring part, so a forged result is refused even when the scores are
    forged to match it."""
    view = _mid_game().view(2)
    d = _doc(view)
    assert ba.from_json(json.dumps(d), ba.PlayerView).deal_results == view.deal_results
    result = d["deal_results"][0]
    result["points"][0] += 1000
    d["scores"][0] += 1000
    _refused(d, ba.PlayerView, "$.deal_results[0].points", "does not give")


_OWN_ANNOUNCEMENT = ba.variants.VIETNAM.replace(
    scoring=ba.rules.AuctionScoring(
        defenders_score="own-announcement",
        rainbow=ba.rules.Rainbow(hand_size=ba.variants.VIETNAM.schedule.hand_sizes[-1], points=10),
    )
)


@pytest.mark.parametrize("name", [*ba.variants.names(), "own-announcement"])
def test_every_variants_finished_games_load_with_their_points(name: str) -> None:
    """Legitimate results always fit: a finished game of every variant and
    preset (rainbow bonuses and counters included), and of an auction whose
    defenders score their own announcement with a rainbow bonus, loads back
    from a seat's view with every deal's points."""
    rules = _OWN_ANNOUNCEMENT if name == "own-announcement" else ba.variants.get(name)
    for seed in (1, 2):
        state = ba.new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            state = state.apply(rng.choice(state.legal_moves()))
        view = state.view(0)
        loaded = ba.from_json(ba.to_json(view), ba.PlayerView)
        assert loaded.deal_results == state.deal_results


def test_a_view_carries_its_legal_moves_and_an_answer_for_each_card() -> None:
    state = _view_state()
    seat = state.to_act
    view = state.view(seat)
    d = _doc(view)
    assert d["legal_moves"] == [str(m) for m in view.legal_moves()] and d["legal_moves"]
    assert [a["card"] for a in d["cards"]] == [str(c) for c in view.hand]
    for answer in d["cards"]:
        move = ba.parse_move(f"play {answer['card']}")
        assert answer["playable"] == (move in view.legal_moves())
        if answer["playable"]:
            assert answer["reason"] is None and answer["message"] is None
        else:
            with pytest.raises(ba.IllegalMoveError) as info:
                view.check(move)
            assert (answer["reason"], answer["message"]) == (
                info.value.reason.name,
                str(info.value),
            )
    assert any(not a["playable"] for a in d["cards"]), "a card refused (following suit)"
    other = _doc(state.view((seat + 1) % 4))  # not its turn: every card refused, no moves
    assert other["legal_moves"] == []
    assert {a["reason"] for a in other["cards"]} == {"NOT_YOUR_TURN"}


@functools.cache
def _choice_state() -> ba.GameState:
    """A play where the seat to act has two legal cards or more and a refused one."""
    for state, _move in walk(ba.variants.GAMERULES, 6, 7):
        if state.phase is ba.Phase.PLAYING and state.trick:
            legal = state.legal_moves()
            if 1 < len(legal) < len(state.hand(state.to_act)):
                return state
    raise AssertionError("no such play")  # pragma: no cover


def test_a_views_legal_moves_and_card_answers_are_checked_on_loading() -> None:
    state = _choice_state()
    seat = state.to_act
    d = _doc(state.view(seat))
    playable = next(i for i, a in enumerate(d["cards"]) if a["playable"])
    refused = next(i for i, a in enumerate(d["cards"]) if not a["playable"])
    lies: list[tuple[Any, str]] = [
        (lambda v: v["legal_moves"].pop(), "$.legal_moves"),
        (lambda v: v["legal_moves"].append("play " + v["cards"][refused]["card"]), "$.legal_moves"),
        (lambda v: v["legal_moves"].reverse(), "$.legal_moves"),
        (
            lambda v: v["cards"][refused].update(playable=True, reason=None, message=None),
            f"$.cards[{refused}]",
        ),
        (lambda v: v["cards"][playable].update(playable=False), f"$.cards[{playable}]"),
        (lambda v: v["cards"][refused].update(reason="NOT_IN_HAND"), f"$.cards[{refused}]"),
        (lambda v: v["cards"][refused].update(message="because"), f"$.cards[{refused}]"),
        (lambda v: v["cards"][playable].update(playable=1), f"$.cards[{playable}]"),
        (lambda v: v["cards"].pop(), "$.cards"),
        (lambda v: v["cards"].append(v["cards"][0]), "$.cards"),
        (lambda v: v.__setitem__("legal_moves", "play 2H"), "$.legal_moves"),
    ]
    for lie, path in lies:
        changed = copy.deepcopy(d)
        lie(changed)
        _refused(changed, ba.PlayerView, path)
    for key in ("legal_moves", "cards"):  # outputs: a document may leave them out
        bare = copy.deepcopy(d)
        del bare[key]
        assert ba.from_json(json.dumps(bare), ba.PlayerView) == state.view(seat)


# records


def _record_doc() -> dict[str, Any]:
    start, _state, moves = play(short(ba.variants.GAMERULES, 3), 5, 5, 9)
    return copy.deepcopy(to_data(ba.GameRecord.from_game(start, moves)))


@pytest.mark.parametrize(
    "where, value, path",
    [
        (("moves", 2), "bid three", "$.moves[2]"),
        (("moves",), "bid 3", "$.moves"),
        (("first_dealer",), 9, "$.first_dealer"),
        (("seed",), None, "$.seed"),
        (("decks",), [["QS", "QS"]], "$.decks[0][1]"),
        (("decks",), [["QS"]], "$.decks"),
        (("players",), ["a", 2], "$.players[1]"),
        (("metadata",), {"a": 1}, "$.metadata"),
        (("rules", "trump", "type"), "sideways", "$.rules.trump.type"),
        (("extra",), 1, "$.extra"),
        (("format",), "backalley/state", "$.format"),
    ],
)
def test_record_loading_checks(where: tuple[Any, ...], value: Any, path: str) -> None:
    d = _record_doc()
    target = d
    for k in where[:-1]:
        target = target[k]
    target[where[-1]] = value
    _refused(d, ba.GameRecord, path)


def test_base_stays_refused_in_a_state_after_a_record_used_it() -> None:
    """Rule sets are memoized on loading; 'base' must stay refused where it is not allowed."""
    rules = {"base": "gamerules", "schedule": {"hand_sizes": [3, 2]}, "name": "memo check"}
    state = _doc(ba.new_game(short(ba.variants.GAMERULES, 3, 2), seed=1))
    state["rules"] = rules
    _refused(state, ba.GameState, "$.rules.base")
    record = _record_doc()
    record["rules"] = rules
    record["moves"] = []
    ba.from_json(json.dumps(record), ba.GameRecord)  # allowed in a record
    _refused(state, ba.GameState, "$.rules.base")  # and still refused in a state


def test_a_record_names_one_player_per_seat() -> None:
    d = _record_doc()
    d["players"] = ["North", "East"]
    _refused(d, ba.GameRecord, "$.players")


@pytest.mark.parametrize(
    "field, change",
    WRONG_RESULTS[:5],
    ids=[f"{f}-{i}" for i, (f, _c) in enumerate(WRONG_RESULTS[:5])],
)
def test_a_records_results_of_the_wrong_shape_are_refused(field: str, change: Any) -> None:
    start, end, moves = play(short(ba.variants.VIETNAM, 3), 1, 1, 10**6)
    d = copy.deepcopy(to_data(ba.GameRecord.from_game(start, moves, final=end)))
    change(d["results"][0])
    with pytest.raises(ba.SerializationError) as info:
        ba.from_json(json.dumps(d), ba.GameRecord)
    assert info.value.path.startswith("$.results[0]"), (field, str(info.value))


def test_records_may_use_a_base_variant() -> None:
    d = _record_doc()
    d["rules"] = {"base": "gamerules", "schedule": {"hand_sizes": [3]}}
    record = ba.from_json(json.dumps(d), ba.GameRecord)
    assert record.rules == short(ba.variants.GAMERULES, 3)
    assert list(ba.replay(record))[-1].phase is ba.Phase.PLAYING


# rule sets


def test_rule_set_loading_checks() -> None:
    good = to_data(ba.variants.GAMERULES)
    for where, value, path in [
        (("trump", "type"), "sideways", "$.trump.type"),
        (("bidding", "nonsense"), 1, "$.bidding.nonsense"),
        (("bidding", "all_pass"), "shrug", "$.bidding.all_pass"),
        (("scoring", "rainbow"), {"hand_size": 0}, "$.scoring.rainbow"),
        (("scoring", "rainbow"), {"colour": 1}, "$.scoring.rainbow.colour"),
        (("deck", "jokers"), 1, "$.deck"),
        (("base",), "no-such-game", "$.base"),
        (("name",), 3, "$.name"),
        (("seating",), None, "$.seating"),
    ]:
        d = copy.deepcopy(good)
        target = d
        for k in where[:-1]:
            target = target[k]
        target[where[-1]] = value
        _refused(d, ba.RuleSet, path)


def test_parts_that_do_not_fit_raise_a_rule_set_error() -> None:
    d = to_data(ba.variants.GAMERULES)
    d["trump"] = {"type": "declarer-names"}  # needs a declarer: the auction
    with pytest.raises(ba.RuleSetError) as info:
        ba.from_json(json.dumps(d), ba.RuleSet)
    assert all(p.startswith("$") for p in info.value.problems)
    with pytest.raises(ba.SerializationError, match=r"\$\.bidding"):
        ba.from_json(json.dumps({"bidding": {"type": "auction", "counters": -1}}), ba.RuleSet)


def test_a_policy_document_of_the_wrong_class() -> None:
    with pytest.raises(ba.SerializationError, match="expected a 'fixed' policy"):
        ba.from_json(ba.to_json(ba.rules.NoTrump()), ba.rules.FixedTrump)


# --------------------------------------------------------------------- fuzzing

VALIDATORS = {
    ba.GameState: Draft202012Validator(schema("state")),
    ba.PlayerView: Draft202012Validator(schema("view")),
    ba.GameRecord: Draft202012Validator(schema("record")),
    ba.RuleSet: Draft202012Validator(schema("rules_document")),
}


@functools.cache
def _pool() -> tuple[tuple[dict[str, Any] | str, type], ...]:
    """Valid documents of every kind and every variant (small ones: fuzzing is by the example)."""
    out: list[tuple[Any, type]] = []
    for k, name in enumerate(NAMES):
        rules = ba.variants.get(name)
        out.append((to_data(rules), ba.RuleSet))
        start, state, moves = play(rules, k, k, 6 + 5 * k)
        out.append((to_data(state), ba.GameState))
        out.append((to_data(state.view(k % state.players)), ba.PlayerView))
        out.append((to_data(ba.GameRecord.from_game(start, moves[:12])), ba.GameRecord))
    for sizes in ((2, 1), (1, 2)):
        rules = short(ba.variants.GAMERULES, *sizes)
        start, state, moves = play(rules, 3, 4, 10**6)
        out.append((to_data(state), ba.GameState))
        out.append((to_data(state.view(1)), ba.PlayerView))
        out.append((to_data(ba.GameRecord.from_game(start, moves, final=state)), ba.GameRecord))
        out.append((to_data(state.deal_results[0]), ba.DealResult))
        mid = play(rules, 3, 4, 7)[1]
        out.append((to_data(mid), ba.GameState))
        out.append((to_data(mid.view(mid.to_act)), ba.PlayerView))
    state = play(short(ba.variants.VIETNAM, 3, 3), 5, 5, 10**6)[1]
    out.append((to_data(state), ba.GameState))
    out.append((to_data(state.deal_results[0]), ba.DealResult))
    out += [
        (to_data(ba.variants.VIETNAM.trump), ba.rules.DeclarerNamesTrump),
        ("play QS", ba.Move),
        ("QS", ba.Card),
    ]
    return tuple(out)


WORDS = (
    [str(c) for c in ba.CARDS[::5]]
    + ["pass", "bid 3", "bid 0", "board", "counter", "trump H", "trump NT", "play QS", "play BJ"]
    + ["bidding", "naming-trump", "playing", "game-over", "C", "H", "S", "T", "A", "10"]
    + ["turn-up", "fixed", "auction", "once-around", "cutthroat", "any-time", "draw", "gamerules"]
    + ["type", "format", "version", "backalley/state", "backalley/view", ""]
)
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 60),
    st.integers(),
    st.floats(allow_nan=False),
    st.sampled_from(WORDS),
    st.text(max_size=4),
)
JSON = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(WORDS) | st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=8,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        value = value[k]
    return value


def _mutate(data: st.DataObject, document: Any) -> Any:
    paths = list(_paths(document))
    path = data.draw(st.sampled_from(paths), label="path")
    op = data.draw(st.sampled_from(["delete", "replace", "insert", "copy"]), label="op")
    if op == "copy":  # a value from elsewhere in the document: right shape, wrong place
        new = copy.deepcopy(_get(document, data.draw(st.sampled_from(paths), label="from")))
    else:
        new = data.draw(JSON, label="value")
    if not path:
        return new
    parent = _get(document, path[:-1])
    key = path[-1]
    if op == "delete":
        del parent[key]
    elif op == "insert" and isinstance(parent, list):
        parent.insert(key, new)
    elif op == "insert":
        parent[data.draw(st.sampled_from(WORDS) | st.text(max_size=3), label="key")] = new
    else:
        parent[key] = new
    return document


def _loads_cleanly_or_refuses(document: Any, cls: type) -> None:
    try:
        value = from_data(document, cls)
    except ba.BackAlleyError:
        return
    assert isinstance(value, cls) or cls is ba.Move
    # it loaded: it is a valid value, written and read back the same, and its JSON fits the schema
    text = ba.to_json(value)
    assert ba.from_json(text, cls) == value
    if cls in VALIDATORS:
        errors = list(VALIDATORS[cls].iter_errors(json.loads(text)))
        assert not errors, f"{errors[0].message} at {list(errors[0].absolute_path)}"
    if isinstance(value, ba.GameState):
        check_conservation(value)
        if not value.is_over:
            value.apply(value.legal_moves()[-1])
    if isinstance(value, ba.PlayerView):
        value.legal_moves()
    if isinstance(value, ba.GameRecord):
        try:
            for _ in ba.replay(value):
                pass
        except ba.ReplayError:
            pass


@fast(150)
@given(st.data())
def test_mutated_documents_load_or_raise_the_librarys_errors(data: st.DataObject) -> None:
    pool = _pool()
    document, cls = pool[data.draw(st.integers(0, len(pool) - 1), label="document")]
    document = copy.deepcopy(document)
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        document = _mutate(data, document)
    _loads_cleanly_or_refuses(document, cls)


DOC_TYPES = [
    ba.GameState,
    ba.PlayerView,
    ba.RuleSet,
    ba.GameRecord,
    ba.DealResult,
    ba.Contract,
    ba.Move,
    ba.Card,
    ba.Play,
    ba.rules.Deck,
]


@fast(80)
@given(JSON, st.sampled_from(DOC_TYPES))
def test_random_json_loads_or_raises_the_librarys_errors(document: Any, cls: type) -> None:
    _loads_cleanly_or_refuses(document, cls)
    with contextlib.suppress(ba.BackAlleyError):
        ba.from_json(json.dumps(document), cls)


@fast(80)
@given(st.text(max_size=30) | st.binary(max_size=30), st.sampled_from(DOC_TYPES))
@example('{"rules": {}, "seed": 1}', ba.GameState)
@example("[[[[[[[[]]]]]]]]", ba.GameRecord)
def test_random_text_loads_or_raises_the_librarys_errors(text: str | bytes, cls: type) -> None:
    try:
        value = ba.from_json(text, cls)
    except ba.BackAlleyError:
        return
    assert ba.from_json(ba.to_json(value), cls) == value


# parse_move / parse_card

MOVE_HEADS = st.sampled_from(
    ["bid", "play", "trump", "pass", "board", "counter", "double", "BID", " bid", "play  "]
)


@fast(200)
@given(st.text(max_size=12) | st.builds(lambda h, t: f"{h} {t}", MOVE_HEADS, st.text(max_size=6)))
@example("bid 3")
@example("trump nt")
@example("10h")
def test_parse_move_and_parse_card_on_random_text(text: str) -> None:
    try:
        move = ba.parse_move(text)
    except ba.NotationError:
        pass
    else:
        assert ba.parse_move(str(move)) == move
        assert str(ba.parse_move(str(move))) == str(move)
    try:
        card = ba.parse_card(text)
    except ba.NotationError:
        pass
    else:
        assert ba.parse_card(str(card)) is card
        assert ba.parse_move(text) == ba.Play(card)


@given(st.one_of(st.integers(), st.none(), st.lists(st.text()), st.floats(), st.binary()))
def test_parse_move_and_parse_card_on_things_that_are_not_text(value: Any) -> None:
    with pytest.raises(ba.NotationError):
        ba.parse_move(value)
    with pytest.raises(ba.NotationError):
        ba.parse_card(value)


@pytest.mark.parametrize(
    "text",
    ["bid ²", "bid ³", "bid \u2460", "bid \u0661", "bid " + "9" * 5000],
    ids=["superscript-2", "superscript-3", "circled-1", "arabic-indic-1", "5000-digits"],
)
def test_a_bid_of_digits_int_does_not_read_is_a_notation_error(text: str) -> None:
    """``str.isdigit`` accepts '²' and Arabic-Indic digits, and ``int`` refuses
    5000 digits: each is a NotationError, not a bare ValueError."""
    with pytest.raises(ba.NotationError):
        ba.parse_move(text)


def test_a_document_with_a_superscript_bid_points_at_the_move() -> None:
    d = _record_doc()
    d["moves"][0] = "bid ²"
    _refused(d, ba.GameRecord, "$.moves[0]")


def test_null_is_not_a_contract_document() -> None:
    """(null is 'no contract' inside a deal result, but not a Contract document)"""
    with pytest.raises(ba.SerializationError):
        ba.from_json("null", ba.Contract)


def test_a_move_document_must_be_of_the_kind_asked_for() -> None:
    """``from_json(text, Play)`` reads only plays; ``ba.Move`` reads any move."""
    with pytest.raises(ba.SerializationError, match="not a play move"):
        ba.from_json('"pass"', ba.Play)
    with pytest.raises(ba.SerializationError):
        ba.from_json('"play QS"', ba.Bid)
    assert ba.from_json('"pass"', ba.Move) == ba.Pass()
    assert ba.from_json('"bid 3"', ba.Bid) == ba.Bid(3)


def test_a_deal_results_bids_are_calls() -> None:
    """A deal result records calls only: a card play among the bids is refused."""
    d = _doc(_mid_game().view(0))
    d["deal_results"][0]["bids"][0] = "play 7C"
    _refused(d, ba.PlayerView, "$.deal_results[0].bids[0]", "not a call")
