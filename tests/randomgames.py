"""Random positions of every registered variant, for the document tests
(test_schema, test_serialize, test_views, test_records).

``positions()`` is a Hypothesis strategy: a variant, a seed, a seed for the
random legal moves, and how far into the game to stop (spread over the whole
game, so first deals, last deals and the end of the game all come up).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import strategies as st

import backalley as ba

NAMES: tuple[str, ...] = ba.variants.names()


def expected_length(rules: ba.RuleSet) -> int:
    """About how many moves a game of ``rules`` takes (calls, a trump call, plays)."""
    n = rules.players
    return sum(n + 1 + n * size for size in rules.schedule.hand_sizes)


def walk(
    rules: ba.RuleSet, seed: int, move_seed: int
) -> Iterator[tuple[ba.GameState, ba.Move | None]]:
    """Every state of a random game with the move made from it (``None`` at the end)."""
    rng = random.Random(move_seed)
    state = ba.new_game(rules, seed=seed)
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        yield state, move
        state = state.apply(move)
    yield state, None


def play(
    rules: ba.RuleSet, seed: int, move_seed: int, stop: int
) -> tuple[ba.GameState, ba.GameState, list[ba.Move]]:
    """(the new game, the state after ``stop`` random moves or the end, the moves)."""
    start = None
    moves: list[ba.Move] = []
    for state, move in walk(rules, seed, move_seed):
        if start is None:
            start = state
        if move is None or len(moves) >= stop:
            assert start is not None
            return start, state, moves
        moves.append(move)
    raise AssertionError("unreachable")  # pragma: no cover


@st.composite
def games(
    draw: st.DrawFn, names: tuple[str, ...] = NAMES
) -> tuple[ba.GameState, ba.GameState, list[ba.Move]]:
    """(start, state, moves): a random point of a random game of a random variant."""
    name = draw(st.sampled_from(names), label="variant")
    rules = ba.variants.get(name)
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    move_seed = draw(st.integers(0, 2**32 - 1), label="move_seed")
    length = expected_length(rules)
    stop = draw(
        st.one_of(
            st.integers(0, length),
            st.integers(0, 12),  # the first deal's bidding and first tricks
            st.just(length * 2),  # the end of the game
        ),
        label="stop",
    )
    return play(rules, seed, move_seed, stop)


def positions(names: tuple[str, ...] = NAMES) -> st.SearchStrategy[ba.GameState]:
    """A random point of a random game of a random variant."""
    return games(names).map(lambda g: g[1])


def sample_states(name: str, seed: int, every: int = 37) -> list[ba.GameState]:
    """Deterministic states of one game of ``name``: every ``every``-th state and the end."""
    out = []
    last = None
    for k, (state, _move) in enumerate(walk(ba.variants.get(name), seed, seed + 1)):
        if k % every == 0:
            out.append(state)
        last = state
    assert last is not None
    out.append(last)
    return out
