"""The fast paths of state documents: ``to_json`` writes a state's text
directly, and ``from_json`` reads a well-formed state document without
parsing a rule set's known text again and with its checks in bulk.

Each must give exactly what the checked reading gives: the same text, the
same state, and for a document it does not accept, the checked reading's
refusal (its reason and path)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backalley as ba
from backalley.rules.deck import deck_cards
from backalley.serialize import state_doc
from backalley.serialize.convert import _document, from_data
from backalley.serialize.rules_doc import rules_text

from .helpers import fuzz_examples, result_objects


def _play(rules: ba.RuleSet, seed: int, moves: int, decks: Any = None) -> ba.GameState:
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed, decks=decks)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    return state


def _game_over(rules: ba.RuleSet, seed: int) -> ba.GameState:
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
    return state


def _states() -> list[ba.GameState]:
    out = []
    for k, name in enumerate(ba.variants.names()):
        rules = ba.variants.get(name)
        for moves in (0, 3, 40, 200):
            out.append(_play(rules, 100 + k, moves))
    short = ba.variants.get("gamerules").replace(schedule=ba.rules.Schedule(hand_sizes=(2, 1)))
    out.append(_game_over(short, 5))
    deck = [str(ba.CARDS[i]) for i in deck_cards(ba.variants.GAMERULES.deck)]
    out.append(_play(ba.variants.GAMERULES, 9, 30, decks=[deck, deck[::-1]]))
    return out


STATES = _states()


@contextmanager
def _checked_only() -> Iterator[None]:
    """``from_json`` with the fast path turned off: the checked reading alone."""
    with mock.patch.object(state_doc, "_state_fast", lambda *args: None):
        yield


def _outcome(text: str) -> tuple[str, Any]:
    """What ``from_json`` makes of ``text``: the state's text, or the refusal."""
    try:
        state = ba.from_json(text, ba.GameState)
    except ba.SerializationError as exc:
        return "refused", (str(exc), exc.path)
    return "loaded", ba.to_json(state)


def _same_as_checked(text: str) -> tuple[str, Any]:
    fast = _outcome(text)
    with _checked_only():
        checked = _outcome(text)
    assert fast == checked
    return fast


@pytest.mark.parametrize("state", STATES, ids=lambda s: f"{s.rules.name}-{s.phase.value}")
def test_state_text_is_the_documents_json(state: ba.GameState) -> None:
    """The text written directly is ``json.dumps`` of the state's document."""
    assert ba.to_json(state) == json.dumps(_document(state), ensure_ascii=False)
    assert ba.to_json(state) == ba.to_json(state)  # (second time: the texts made once)


@pytest.mark.parametrize("state", STATES, ids=lambda s: f"{s.rules.name}-{s.phase.value}")
def test_fast_path_reads_every_state(state: ba.GameState) -> None:
    """A document written by the library takes the fast path once its rule
    set's text has loaded, and gives the state back."""
    text = ba.to_json(state)
    assert ba.from_json(text, ba.GameState) == state  # (remembers the rule set's text)
    fast = state_doc.state_from_text(text)
    assert fast == state
    assert ba.to_json(fast) == text
    data = json.loads(text)
    del data["format"], data["version"]
    assert state_doc._state_fast(data, state.rules, []) == state
    # the long form of the deal results is read by the same path
    assert from_data(result_objects(dict(data)), ba.GameState) == state


def test_rule_set_text_kept_only_after_a_document_loaded() -> None:
    rules = ba.variants.get("hook").replace(name="only-after-loading")
    state = _play(rules, 3, 10)
    text = ba.to_json(state)
    forged = text.replace('"phase": ', '"phase": "over", "x": ')
    with pytest.raises(ba.SerializationError, match="unknown key 'x'"):
        ba.from_json(forged, ba.GameState)
    known = rules_text(state.rules)
    assert known not in state_doc._RULES_BY_TEXT.get(len(known), {})
    assert ba.from_json(text, ba.GameState) == state
    assert known in state_doc._RULES_BY_TEXT[len(known)]


STATE = _play(ba.variants.GAMERULES, 11, 150)
TEXT = ba.to_json(STATE)
RULES_END = len(state_doc.STATE_PREFIX) + len(rules_text(STATE.rules))


@pytest.mark.parametrize(
    "text",
    [
        TEXT[:RULES_END] + ",}",  # a trailing comma: not JSON
        TEXT[:RULES_END] + ", }",
        TEXT[:-1] + ', "rules": 0}',  # a second rules, format or version key wins
        TEXT[:-1] + ', "format": "backalley/view"}',
        TEXT[:-1] + ', "version": 2}',
        TEXT[:-1] + ', "seed": -4}',  # a second key wins in the rest too
        TEXT + " x",
        TEXT[:RULES_END] + ',\n "seed"' + TEXT[RULES_END + len(', "seed"') :],
        TEXT[:RULES_END] + ' , "seed"' + TEXT[RULES_END + len(', "seed"') :],
        TEXT[:RULES_END] + ", " + "[" * 100_000,
        TEXT.replace('"moves": [', '"moves": ["pass", '),
        TEXT.replace('"phase": "playing"', '"phase": "bidding"'),
    ],
)
def test_text_edges_read_as_the_checked_reading(text: str) -> None:
    ba.from_json(TEXT, ba.GameState)
    _same_as_checked(text)


_VALUES = st.sampled_from(
    [
        None,
        True,
        False,
        0,
        1,
        2,
        3,
        -1,
        13,
        1.0,
        2**60,
        "",
        "QS",
        "BJ",
        "qs",
        "pass",
        [],
        ["QS"],
        {},
    ]
)


def _mutate(data: dict[str, Any], rng: random.Random, value: Any) -> None:
    """One change to a state document: a field replaced, a card moved or
    repeated, a move changed, dropped or added, a key dropped or added."""
    deal = data["deal"]
    kind = rng.randrange(9)
    if kind == 0:
        target = rng.choice([data, deal])
        key = rng.choice(sorted(target))
        if key != "rules":
            target[key] = value
    elif kind == 1:
        target = rng.choice([data, deal])
        key = rng.choice([*sorted(target), "extra"])
        if key == "extra":
            target[key] = value
        elif key != "rules":
            del target[key]
    elif kind in (2, 3):  # a card swapped between hands/stock, or put in twice
        piles = [*deal["hands"], deal["stock"], deal["discards"]]
        a, b = rng.choice(piles), rng.choice(piles)
        if a and b:
            i, j = rng.randrange(len(a)), rng.randrange(len(b))
            if kind == 2:
                a[i], b[j] = b[j], a[i]
            else:
                a[i] = b[j]
    elif kind == 4:
        moves = deal["moves"]
        if moves:
            moves[rng.randrange(len(moves))] = value
    elif kind == 5:
        moves = deal["moves"]
        if moves:
            del moves[rng.randrange(len(moves))]
        else:
            moves.append("pass")
    elif kind == 6:
        deal["moves"].append(rng.choice(["pass", "play QS", "bid 1", "board"]))
    elif kind == 7:
        for key in ("scores", "deal_results"):
            items = data[key]
            if items and rng.random() < 0.5:
                i = rng.randrange(len(items))
                items[i] = items[i] + 1 if isinstance(items[i], int) else rng.choice(items)
    else:
        key = rng.choice(["seed", "first_dealer", "deal_number", "dealer", "hand_size"])
        target = deal if key in deal else data
        if isinstance(target.get(key), int):
            target[key] += rng.choice([-1, 1])


@settings(
    max_examples=fuzz_examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    index=st.integers(0, len(STATES) - 1),
    seed=st.integers(0, 2**32),
    values=st.lists(_VALUES, min_size=1, max_size=3),
)
def test_fuzz_fast_path_agrees_with_checked_reading(
    index: int, seed: int, values: list[Any]
) -> None:
    """Changed documents: the fast path loads what the checked reading loads
    (the same state), and refuses the rest with the checked reading's reason
    and path."""
    state = STATES[index]
    text = ba.to_json(state)
    ba.from_json(text, ba.GameState)  # its rule set's text is known
    rng = random.Random(seed)
    data = json.loads(text)
    for value in values:
        # (an earlier change may have taken away what this one changes)
        with suppress(KeyError, TypeError, IndexError, AttributeError, ValueError):
            _mutate(data, rng, value)
    _same_as_checked(json.dumps(data))


def test_an_object_results_cache_key_is_no_row() -> None:
    """A deal result read as an object is cached by its ``repr``; that text
    given as a row is still refused (it is no row)."""
    rng = random.Random(1)
    state = ba.new_game(ba.variants.GAMERULES, seed=1)
    while state.deals_played < 2:
        state = state.apply(rng.choice(state.legal_moves()))
    data = result_objects(json.loads(ba.to_json(state)))
    assert ba.from_json(json.dumps(data), ba.GameState) == state
    data["deal_results"][0] = repr(data["deal_results"][0])
    with pytest.raises(ba.SerializationError, match="expected a deal result row") as info:
        ba.from_json(json.dumps(data), ba.GameState)
    assert info.value.path == "$.deal_results[0]"


def _replayed(moves: list[str], state: ba.GameState) -> str:
    """The document of ``state`` with its deal's moves replaced by ``moves``."""
    data = json.loads(ba.to_json(state))
    data["deal"]["moves"] = moves
    return json.dumps(data)


def test_moves_that_throw_the_deal_in_or_run_past_its_end_are_refused_as_checked() -> None:
    """The fast path replays a document's moves in one run of checked moves:
    four passes (the deal is thrown in and dealt again), the deal's last
    play and a move after it, and an illegal move in the middle all read
    exactly as the checked reading reads them."""
    rules = ba.variants.GAMERULES
    opening = ba.new_game(rules, seed=12)
    ba.from_json(ba.to_json(opening), ba.GameState)  # its rule set's text is known
    assert _same_as_checked(_replayed(["pass"] * 4, opening))[0] == "refused"
    state, played = opening, []
    rng = random.Random(4)
    while True:
        move = rng.choice(state.legal_moves())
        after = state.apply(move)
        if after.deal_results:
            break
        played.append(str(move))
        state = after
    last = str(move)
    assert _same_as_checked(_replayed(played, state)) == ("loaded", ba.to_json(state))
    assert _same_as_checked(_replayed([*played, last], state))[0] == "refused"
    assert _same_as_checked(_replayed([*played, last, "pass"], state))[0] == "refused"
    swapped = [*played[:5], played[6], played[5], *played[7:]]  # two seats' cards swapped
    assert _same_as_checked(_replayed(swapped, state))[0] == "refused"


def test_a_move_after_the_last_deal_of_the_game_is_refused_as_checked() -> None:
    """A finished game's document with one more move: the replay stops at the
    game's end, and the move left over refuses the document."""
    rules = ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule(hand_sizes=(2, 1)))
    state = ba.new_game(rules, seed=7)
    rng = random.Random(7)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
    text = ba.to_json(state)
    ba.from_json(text, ba.GameState)  # its rule set's text is known
    data = json.loads(text)
    assert _same_as_checked(text) == ("loaded", text)
    data["deal"]["moves"].append("pass")
    assert _same_as_checked(json.dumps(data))[0] == "refused"


def test_a_document_of_endless_passes_is_refused_without_dealing_them_all() -> None:
    """Four passes throw a deal in; a document of many thousands of passes is
    refused as the checked reading refuses it, without the fast path dealing
    a new deal for every four of them."""
    opening = ba.new_game(ba.variants.GAMERULES, seed=12)
    ba.from_json(ba.to_json(opening), ba.GameState)
    text = _replayed(["pass"] * 40_000, opening)
    with mock.patch.object(state_doc, "playout", wraps=state_doc.playout) as replay:
        assert state_doc.state_from_text(text) is None
    assert replay.call_count == 0
    assert _same_as_checked(text)[0] == "refused"
