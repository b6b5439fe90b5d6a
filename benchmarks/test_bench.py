"""pytest-benchmark versions of the core measurements of ``run.py``.

Run explicitly (the project's ``testpaths`` is ``tests``, so a plain ``pytest``
never collects this file)::

    pytest benchmarks/                         # needs pytest-benchmark (the "bench" extra)
    pytest benchmarks/ --benchmark-compare     # against the last --benchmark-autosave run

``run.py`` is the suite of record (ratios against the references measured in
the same run); these are for pytest-benchmark's history and comparisons.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

pytest.importorskip("pytest_benchmark")

import bare  # benchmarks/ is on sys.path (pytest's default import mode)
import run

import backalley as ba

VARIANTS = ["gamerules", "vietnam"]


@pytest.fixture(scope="module", params=VARIANTS)
def subject(request: Any) -> run.Subject:
    return run.Subject(request.param)


def _game_player(rules: Any, checked: bool) -> Any:
    seeds = itertools.count()
    choice = random.Random(1).choice

    def play() -> int:
        s = ba.new_game(rules, seed=next(seeds))
        n = 0
        if checked:
            while not s.is_over:
                s = s.apply(choice(s.legal_moves()))
                n += 1
        else:
            while not s.is_over:
                s = s.apply_unchecked(choice(s.legal_moves()))
                n += 1
        return n

    return play


# ------------------------------------------------------------------ references


def test_bare_game(benchmark: Any) -> None:
    """One game of the bare loop (824 decisions)."""
    benchmark.group = "game"
    rng = random.Random(1)
    benchmark(bare.bare_game, rng)


def test_openspiel_game(benchmark: Any) -> None:
    """One oh_hell playout (52 decisions), chance handled in Python."""
    game = bare.openspiel_game()
    if game is None:
        pytest.skip("pyspiel is not importable (pip install open-spiel)")
    benchmark.group = "game"
    rng = random.Random(1)

    def playout() -> None:
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outs = st.chance_outcomes()
                st.apply_action(outs[rng.randrange(len(outs))][0])
            else:
                st.apply_action(rng.choice(st.legal_actions()))

    benchmark(playout)


def test_openspiel_serde(benchmark: Any) -> None:
    """oh_hell mid-game ``serialize()`` + ``deserialize_state()``."""
    game = bare.openspiel_game()
    if game is None:
        pytest.skip("pyspiel is not importable (pip install open-spiel)")
    benchmark.group = "json"
    st = bare.openspiel_midgame_state()
    benchmark(lambda: game.deserialize_state(st.serialize()))


# --------------------------------------------------------------------- library


def test_random_game_checked(benchmark: Any, subject: run.Subject) -> None:
    """One random full game: legal_moves() + checked apply()."""
    benchmark.group = "game"
    n = benchmark(_game_player(subject.rules, checked=True))
    assert n > 0


def test_random_game_unchecked(benchmark: Any, subject: run.Subject) -> None:
    """One random full game through the documented fast path apply_unchecked()."""
    benchmark.group = "game"
    n = benchmark(_game_player(subject.rules, checked=False))
    assert n > 0


def test_legal_moves_cold(benchmark: Any, subject: run.Subject) -> None:
    """legal_moves() of a fresh mid-game state (it caches per state)."""
    benchmark.group = "call"
    prev, pm = subject.prev, subject.prev_move
    benchmark.pedantic(
        lambda s: s.legal_moves(),
        setup=lambda: ((prev.apply_unchecked(pm),), {}),
        rounds=2000,
        iterations=1,
    )


def test_check_legal(benchmark: Any, subject: run.Subject) -> None:
    benchmark.group = "call"
    benchmark(subject.mid.check, subject.legal)


def test_check_illegal(benchmark: Any, subject: run.Subject) -> None:
    benchmark.group = "call"
    s, move = subject.mid, subject.illegal

    def check() -> None:
        try:  # noqa: SIM105 - contextlib.suppress would be timed too
            s.check(move)
        except ba.IllegalMoveError:
            pass

    benchmark(check)


def test_view(benchmark: Any, subject: run.Subject) -> None:
    benchmark.group = "call"
    benchmark(subject.mid.view, subject.seat)


def test_to_json(benchmark: Any, subject: run.Subject) -> None:
    benchmark.group = "json"
    benchmark(ba.to_json, subject.mid)


def test_from_json(benchmark: Any, subject: run.Subject) -> None:
    benchmark.group = "json"
    state = benchmark(ba.from_json, subject.text, ba.GameState)
    assert state == subject.mid


# ------------------------------------------------- this round's JSON target


@pytest.fixture(scope="module")
def json_subject() -> run.JsonSubject:
    """The gamerules state at deal 13 of the JSON target, with its moves."""
    return run.JsonSubject(run.JSON_DEAL)


def test_json_roundtrip_at_deal_13(benchmark: Any, json_subject: run.JsonSubject) -> None:
    """to_json + from_json of the target's state (a state document replays its moves)."""
    benchmark.group = "json deal 13"
    s = json_subject.state
    state = benchmark(lambda: ba.from_json(ba.to_json(s), ba.GameState))
    assert state == s


def test_replay_at_deal_13(benchmark: Any, json_subject: run.JsonSubject) -> None:
    """new_game + apply_unchecked of the same state's moves: the target's reference."""
    benchmark.group = "json deal 13"
    s, moves = json_subject.state, json_subject.moves
    state = benchmark(run.replay_moves, s, moves)
    assert state == s
