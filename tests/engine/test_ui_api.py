"""What a user interface written against the library needs, next to what
python-chess offers (``move_stack``, ``push_san``, ``Game.from_board``):

- a state remembers every move since its new game (``state.moves``), and
  ``GameRecord.from_state(state)`` writes the record that replays to it;
- ``state.apply_text(text)`` applies a move as a player types it;
- ``new_game`` takes a registered variant's name;
- seats and sides have names (``ba.seat_name``, ``ba.side_name``) and a seat
  is read as a person types it (``ba.parse_seat``);
- a seat that is not one of the game's is an argument error (``SetupError``,
  a ``ValueError``), not a refused move;
- notation errors name the part of the text that is wrong.
"""

from __future__ import annotations

import random

import pytest

import backalley as ba
from backalley import lowlevel


def _played(state: ba.GameState, moves: int, seed: int = 1) -> ba.GameState:
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("moves", [0, 1, 7, 60, 10_000])
def test_a_record_from_a_state_replays_to_that_state(moves: int) -> None:
    state = _played(ba.new_game("gamerules", seed=5), moves)
    record = ba.GameRecord.from_state(state, players=["Ann", "Bo", "Cy", "Di"])
    assert record.moves == state.moves
    assert record.results == state.deal_results
    states = list(ba.replay(ba.from_json(ba.to_json(record), ba.GameRecord)))
    assert states[-1] == state
    assert len(states) == len(state.moves) + 1


def test_a_state_remembers_its_moves_across_deals_and_throw_ins() -> None:
    state = ba.new_game(seed=3)
    typed: list[ba.Move] = []
    while state.deals_played < 2:
        move = random.Random(len(typed)).choice(state.legal_moves())
        typed.append(move)
        state = state.apply(move)
    assert state.moves == tuple(typed)


def test_a_sample_of_a_later_deal_has_no_record() -> None:
    state = _played(ba.new_game(seed=2), 60)
    assert state.deals_played >= 1
    sample = lowlevel.opening(state.view(0), list(ba.rules.Deck().cards))
    with pytest.raises(ba.SetupError, match="began mid-game"):
        ba.GameRecord.from_state(sample)


def test_a_move_is_applied_as_a_player_types_it() -> None:
    state = ba.new_game(seed=4)
    after = state.apply_text("  Bid 1 ")
    assert after == state.apply(ba.Bid(1))
    with pytest.raises(ba.NotationError, match="X is not a suit"):
        state.apply_text("2X")
    with pytest.raises(ba.IllegalMoveError):
        state.apply_text("bid 13")


def test_new_game_takes_a_variants_name() -> None:
    assert ba.new_game("vietnam", seed=9) == ba.new_game(ba.variants.VIETNAM, seed=9)
    with pytest.raises(ba.UnknownVariantError, match="known variants"):
        ba.new_game("no-such-game")


def test_seats_and_sides_have_names() -> None:
    rules = ba.variants.GAMERULES
    assert [ba.seat_name(rules, s) for s in range(4)] == ["North", "East", "South", "West"]
    assert [ba.side_name(rules, s) for s in range(2)] == ["N-S", "E-W"]
    alone = ba.variants.get("cutthroat-3")
    assert ba.seat_name(alone, 2) == "Seat 3" and ba.side_name(alone, 2) == "Seat 3"
    with pytest.raises(ba.SetupError):
        ba.seat_name(rules, 4)


@pytest.mark.parametrize(
    ("text", "seat"), [("north", 0), ("E", 1), (" South ", 2), ("w", 3), ("3", 3), (1, 1)]
)
def test_a_seat_is_read_as_a_person_types_it(text: str | int, seat: int) -> None:
    assert ba.parse_seat(ba.variants.GAMERULES, text) == seat


def test_a_seat_that_is_no_seat_is_refused_with_the_names() -> None:
    with pytest.raises(ba.SetupError, match="north, east, south, west"):
        ba.parse_seat(ba.variants.GAMERULES, "up")
    assert ba.parse_seat(ba.variants.get("cutthroat-3"), "seat 2") == 1


def test_a_seat_out_of_range_is_an_argument_error_not_a_refused_move() -> None:
    state = ba.new_game(seed=1)
    with pytest.raises(ba.SetupError) as info:
        state.check(ba.Pass(), seat=5)
    assert isinstance(info.value, ValueError) and not isinstance(info.value, ba.IllegalMoveError)


@pytest.mark.parametrize(
    ("text", "part"),
    [("2X", "X is not a suit"), ("1S", "1 is not a rank"), ("play 11H", "11 is not a rank")],
)
def test_notation_errors_name_the_part_that_is_wrong(text: str, part: str) -> None:
    with pytest.raises(ba.NotationError, match=part):
        ba.parse_move(text)
