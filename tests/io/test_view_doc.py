"""A view document a user interface needs nothing else for
(backalley/io/serialize/view_doc.py): beside the history, the facts a table
shows - each seat's call, the contracts and tricks per side, whether trump is
broken, the deals played, the winner - and, for every call the bidding knows
at that point, whether the seat may make it and, if not, the reason and its
sentence.

- each fact is the full state's (not only the view's own property);
- each call answer is ``check``'s, and the legal calls are the legal moves;
- the facts and answers are outputs: a document without them (written
  before they existed) loads as the same view, and one whose facts or
  answers differ from the view's is refused at the key that differs.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

import backalley as ba
from backalley.io.serialize import to_data
from backalley.io.serialize.results_doc import contract_to_data
from backalley.io.serialize.view_doc import OUTPUT_KEYS

from ..randomgames import NAMES, walk


def _doc(view: ba.PlayerView) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ba.to_json(view))
    return data


def _check_facts(state: ba.GameState, seat: int) -> dict[str, Any]:
    """The view document of ``seat``, its facts checked against the full state."""
    d = _doc(state.view(seat))
    rules = state.rules
    assert d["bids"] == [None if b is None else str(b) for b in state.bids]
    assert d["declarer"] == state.declarer
    if state.contracts is None:
        assert d["contracts"] is None
    else:
        assert d["contracts"] == [contract_to_data(c) for c in state.contracts]
    assert d["trump_known"] == state.trump_known
    assert d["trump_broken"] == state.trump_broken
    won = [0] * rules.players
    for trick in state.tricks:
        won[trick.winner] += 1
    assert d["tricks_won"] == won == list(state.tricks_won)
    assert d["side_tricks"] == [sum(won[s] for s in side) for side in rules.teams]
    assert d["side_seats"] == [list(side) for side in rules.teams]
    assert d["deals_played"] == len(state.deal_results)
    assert d["deals"] == len(rules.schedule.hand_sizes)
    assert d["winner"] == state.winner
    return d


def _check_call_answers(state: ba.GameState, seat: int, d: dict[str, Any]) -> None:
    """Each call answer is what ``check`` says for the seat (the state's own
    ``check(move, seat)``, and the view's)."""
    view = state.view(seat)
    assert [a["call"] for a in d["call_answers"]] == [str(c) for c in state.known_calls()]
    for answer in d["call_answers"]:
        call = ba.parse_move(answer["call"])
        expected: tuple[bool, str | None]
        try:
            state.check(call, seat=seat)
        except ba.IllegalMoveError as exc:
            expected = (False, exc.reason.name)
        else:
            expected = (True, None)
        assert (answer["legal"], answer["reason"]) == expected, answer
        try:
            view.check(call)
        except ba.IllegalMoveError as exc:
            assert answer["message"] == str(exc)
        else:
            assert answer["message"] is None
    if state.to_act == seat:
        legal = [a["call"] for a in d["call_answers"] if a["legal"]]
        assert legal == (d["legal_moves"] if state.phase is ba.Phase.BIDDING else [])


@pytest.mark.parametrize("name", NAMES)
def test_the_facts_and_call_answers_of_views_through_a_game(name: str) -> None:
    rules = ba.variants.get(name)
    rng = random.Random(name)
    phases: set[ba.Phase] = set()
    refused: set[str] = set()
    for i, (state, _move) in enumerate(walk(rules, seed=11, move_seed=2)):
        if i % 7 and state.phase is not ba.Phase.BIDDING and not state.is_over:
            continue
        phases.add(state.phase)
        seat = state.to_act if state.to_act is not None else rng.randrange(rules.players)
        for s in {seat, rng.randrange(rules.players)}:
            d = _check_facts(state, s)
            _check_call_answers(state, s, d)
            refused |= {a["reason"] for a in d["call_answers"] if not a["legal"]}
        if i > 400 and ba.Phase.GAME_OVER in phases:
            break
    assert ba.Phase.BIDDING in phases and ba.Phase.PLAYING in phases
    assert refused  # some call was refused, with its reason


def test_the_hooked_call_in_a_document_has_its_reason_and_sentence() -> None:
    state = ba.new_game("hook", seed=2)
    for text in ("bid 3", "bid 4", "bid 2"):
        state = state.apply_text(text)
    seat = state.to_act
    assert seat is not None
    d = _check_facts(state, seat)
    _check_call_answers(state, seat, d)
    hooked = f"bid {state.hand_size - 9}"
    (answer,) = [a for a in d["call_answers"] if a["call"] == hooked]
    assert answer["legal"] is False and answer["reason"] == "BID_MAKES_TOTAL"
    assert "you are the last to bid" in answer["message"]
    assert d["bids"][seat] is None and sum(b is not None for b in d["bids"]) == 3


def test_a_view_document_without_the_facts_and_answers_loads_as_the_same_view() -> None:
    state = ba.new_game("gamerules", seed=4)
    rng = random.Random(4)
    for _ in range(30):
        state = state.apply(rng.choice(state.legal_moves()))
    for seat in range(4):
        view = state.view(seat)
        d = _doc(view)
        for key in (*OUTPUT_KEYS, "call_answers", "cards", "legal_moves"):
            del d[key]
        assert ba.from_json(json.dumps(d), ba.PlayerView) == view


def _bidding_view() -> ba.PlayerView:
    state = ba.new_game("hook", seed=2)
    for text in ("bid 3", "bid 4", "bid 2"):
        state = state.apply_text(text)
    assert state.to_act is not None
    return state.view(state.to_act)


def _playing_state() -> ba.GameState:
    state = ba.new_game("gamerules", seed=4)
    rng = random.Random(4)
    while not (state.phase is ba.Phase.PLAYING and len(state.tricks) >= 2 and state.trick):
        state = state.apply(rng.choice(state.legal_moves()))
    return state


def _playing_view() -> ba.PlayerView:
    return _playing_state().view(0)


WRONG_FACTS: list[tuple[str, Any]] = [
    ("bids", lambda v: [None] * len(v)),
    ("declarer", lambda v: 1 if v is None else None),
    ("contracts", lambda v: None if v is not None else [None, None]),
    ("trump_known", lambda v: not v),
    ("trump_broken", lambda v: not v),
    ("tricks_won", lambda v: [v[1], v[0], *v[2:]] if v[0] != v[1] else [v[0] + 1, *v[1:]]),
    ("side_tricks", lambda v: [v[0] + 1, *v[1:]]),
    ("side_seats", lambda v: [[0, 1], [2, 3]]),
    ("deals_played", lambda v: v + 1),
    ("deals", lambda v: v - 1),
    ("winner", lambda v: 0),
]


@pytest.mark.parametrize("which", ["bidding", "playing"])
@pytest.mark.parametrize("key, change", WRONG_FACTS, ids=[k for k, _c in WRONG_FACTS])
def test_facts_that_are_not_the_views_are_refused(which: str, key: str, change: Any) -> None:
    view = _bidding_view() if which == "bidding" else _playing_view()
    d = _doc(view)
    d[key] = change(copy.deepcopy(d[key]))
    with pytest.raises(ba.SerializationError, match=f"the view's {key} is") as info:
        ba.from_json(json.dumps(d), ba.PlayerView)
    assert info.value.path == f"$.{key}"


def test_call_answers_that_are_not_the_views_are_refused() -> None:
    view = _bidding_view()
    d = _doc(view)
    hooked = next(i for i, a in enumerate(d["call_answers"]) if a["reason"] == "BID_MAKES_TOTAL")
    forged = copy.deepcopy(d)
    forged["call_answers"][hooked].update(legal=True, reason=None, message=None)
    with pytest.raises(ba.SerializationError, match="the view answers") as info:
        ba.from_json(json.dumps(forged), ba.PlayerView)
    assert info.value.path == f"$.call_answers[{hooked}]"
    short = copy.deepcopy(d)
    short["call_answers"].pop()
    with pytest.raises(ba.SerializationError, match="an answer for each of") as info:
        ba.from_json(json.dumps(short), ba.PlayerView)
    assert info.value.path == "$.call_answers"
    # in the play, the bidding knows no call: an answer there is refused too
    playing = _doc(_playing_view())
    assert playing["call_answers"] == []
    playing["call_answers"] = d["call_answers"][:1]
    with pytest.raises(ba.SerializationError):
        ba.from_json(json.dumps(playing), ba.PlayerView)


def test_the_facts_are_public_every_seat_states_the_same() -> None:
    state = _playing_state()
    docs = [to_data(state.view(seat)) for seat in range(4)]
    facts = [{k: d[k] for k in OUTPUT_KEYS} for d in docs]
    assert all(f == facts[0] for f in facts)
    assert facts[0]["trump_broken"] == state.trump_broken
    assert sum(facts[0]["tricks_won"]) == len(state.tricks) >= 2
