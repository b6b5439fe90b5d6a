"""The surface that states, views and their errors share.

- ``GameState.check(move, seat=None)`` and ``PlayerView.check(move, seat=None)``
  have one signature; a view's ``seat`` must be its own seat;
- an :class:`~backalley.IllegalMoveError` carries the move refused
  (``err.move``) and the seat that tried it (``err.seat``) wherever the
  library refuses a move: ``check``, ``apply``, a view's ``check``, the
  playout and record replay;
- a ``seat`` argument that is not a seat of the game is a bad argument
  (:class:`~backalley.SetupError`), not a refused move;
- a rule part's frozenness is judged by what its instances do
  (:func:`backalley.rules.registry.is_frozen`), not by attrs' private names.
"""

from __future__ import annotations

import pickle
from typing import Any, ClassVar

import attrs
import pytest

import backalley as ba
from backalley import lowlevel
from backalley.cards import CARDS
from backalley.rules.registry import is_frozen

from ..helpers import short

GR = ba.variants.GAMERULES
NOT_SEATS: tuple[Any, ...] = (4, 5, -1, True, False, "1", 0.0, 1.5)


def no_pass(legal: tuple[ba.Move, ...]) -> ba.Move:
    """The first legal move that is not a pass (four passes would throw the deal in)."""
    return next((move for move in legal if not isinstance(move, ba.Pass)), legal[0])


def opening() -> ba.GameState:
    """A new gamerules game: seat 1 (left of dealer 0) calls first."""
    state = ba.new_game(GR, seed=1, dealer=0)
    assert state.phase is ba.Phase.BIDDING and state.to_act == 1
    return state


def playing() -> ba.GameState:
    """The first position of the play of a gamerules game."""
    state = opening()
    while state.phase is ba.Phase.BIDDING:
        state = state.apply(no_pass(state.legal_moves()))
    assert state.phase is ba.Phase.PLAYING
    return state


def naming_trump() -> ba.GameState:
    """A Vietnam game where seat 2, the declarer, names trump."""
    state = ba.new_game(ba.variants.VIETNAM, seed=7)
    for text in ["bid 7", "pass", "pass", "pass"]:
        state = state.apply(ba.parse_move(text))
    assert state.phase is ba.Phase.NAMING_TRUMP and state.to_act == 2
    return state


def game_over() -> ba.GameState:
    """A finished one-deal game."""
    state = lowlevel.playout(ba.new_game(short(GR, 1), seed=3), no_pass, until="game")
    assert state.is_over
    return state


def not_in_hand(state: ba.GameState) -> ba.Play:
    """A play of a card the seat to act does not hold."""
    assert state.to_act is not None
    held = set(state.hand(state.to_act))
    return next(ba.Play(card) for card in CARDS if card not in held)


def refusal_of(call: Any) -> ba.IllegalMoveError:
    with pytest.raises(ba.IllegalMoveError) as info:
        call()
    return info.value


# ------------------------------------------------ the error's move and seat


def test_a_refused_play_names_the_card_and_the_seat_to_act() -> None:
    state = playing()
    move = not_in_hand(state)
    for call in (lambda: state.apply(move), lambda: state.check(move)):
        err = refusal_of(call)
        assert err.reason is ba.Reason.NOT_IN_HAND
        assert err.move == move and err.seat == state.to_act


def test_a_refused_call_names_the_call_and_the_seat_to_act() -> None:
    state = opening()
    err = refusal_of(lambda: state.apply(ba.Bid(99)))
    assert err.reason is ba.Reason.BID_TOO_HIGH
    assert err.move == ba.Bid(99) and err.seat == 1


def test_a_refused_trump_call_names_the_call_and_the_seat() -> None:
    state = naming_trump()
    err = refusal_of(lambda: state.check(ba.NameTrump(ba.Suit.SPADES), seat=0))
    assert err.reason is ba.Reason.NOT_DECLARER
    assert err.move == ba.NameTrump(ba.Suit.SPADES) and err.seat == 0
    err = refusal_of(lambda: state.apply(ba.Bid(3)))
    assert err.reason is ba.Reason.WRONG_PHASE
    assert err.move == ba.Bid(3) and err.seat == 2


def test_a_seat_not_to_act_is_named_as_the_seat_that_tried() -> None:
    state = opening()
    err = refusal_of(lambda: state.check(ba.Pass(), seat=3))
    assert err.reason is ba.Reason.NOT_YOUR_TURN and err.seat == 3 and err.move == ba.Pass()
    spoken = state.apply(ba.Pass())
    err = refusal_of(lambda: spoken.check(ba.Bid(2), seat=1))
    assert err.reason is ba.Reason.ALREADY_BID and err.seat == 1 and err.move == ba.Bid(2)


def test_what_is_not_a_move_is_the_move_refused() -> None:
    state = opening()
    err = refusal_of(lambda: state.check("bid 3"))
    assert err.reason is ba.Reason.NOT_A_MOVE
    assert err.move == "bid 3" and err.seat == 1


def test_a_finished_game_refuses_without_a_seat_to_act() -> None:
    state = game_over()
    err = refusal_of(lambda: state.check(ba.Pass()))
    assert err.reason is ba.Reason.GAME_OVER and err.seat is None and err.move == ba.Pass()
    err = refusal_of(lambda: state.check(ba.Pass(), seat=2))
    assert err.reason is ba.Reason.GAME_OVER and err.seat == 2


def test_a_view_names_its_own_seat() -> None:
    state = playing()
    seat = state.to_act
    assert seat is not None
    move = not_in_hand(state)
    err = refusal_of(lambda: state.view(seat).check(move))
    assert err.reason is ba.Reason.NOT_IN_HAND and err.move == move and err.seat == seat
    other = (seat + 1) % 4
    err = refusal_of(lambda: state.view(other).check(move))
    assert err.reason is ba.Reason.NOT_YOUR_TURN and err.move == move and err.seat == other


def test_the_playout_names_the_move_chosen_and_its_seat() -> None:
    state = opening()
    err = refusal_of(lambda: lowlevel.playout(state, lambda legal: ba.Bid(99)))
    assert err.move == ba.Bid(99) and err.seat == 1
    play = playing()
    bad = not_in_hand(play)
    err = refusal_of(lambda: lowlevel.playout(play, lambda legal: bad))
    assert err.reason is ba.Reason.NOT_IN_HAND and err.move == bad and err.seat == play.to_act


def test_a_replayed_record_names_the_move_and_its_seat() -> None:
    state = opening()
    record = ba.GameRecord.from_game(state, [ba.Pass(), ba.Bid(99)])
    with pytest.raises(ba.ReplayError) as info:
        list(ba.replay(record))
    err = info.value
    assert isinstance(err, ba.IllegalMoveError)
    assert err.index == 1 and err.move == ba.Bid(99) and err.seat == 2


def test_the_error_stays_a_value_error_with_its_sentence() -> None:
    err = refusal_of(lambda: opening().apply(ba.Bid(99)))
    assert isinstance(err, ValueError)
    assert str(err) == err.message and err.message.endswith("12")
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.reason, copy.message, copy.move, copy.seat) == (
        err.reason,
        err.message,
        err.move,
        err.seat,
    )
    assert str(copy) == str(err)


def test_the_error_is_still_built_from_a_reason_and_a_message() -> None:
    err = ba.IllegalMoveError(ba.Reason.HOUSE_RULE, "not at this table")
    assert (err.reason, str(err), err.move, err.seat) == (
        ba.Reason.HOUSE_RULE,
        "not at this table",
        None,
        None,
    )
    named = ba.IllegalMoveError(ba.Reason.HOUSE_RULE, "no", move=ba.Pass(), seat=3)
    assert named.move == ba.Pass() and named.seat == 3 and str(named) == "no"


# ------------------------------------------------ one check signature


def test_a_view_checks_with_the_state_signature() -> None:
    state = opening()
    view = state.view(1)
    for move in (ba.Pass(), ba.Bid(3), ba.Bid(99), ba.Play(ba.parse_card("QS"))):
        assert view.is_legal(move) == state.is_legal(move)
        for seat in (None, 1):
            try:
                view.check(move, seat=seat)
            except ba.IllegalMoveError as err:
                assert not state.is_legal(move) and err.seat == 1
            else:
                assert state.is_legal(move)


def test_a_view_refuses_to_answer_for_another_seat() -> None:
    state = opening()
    view = state.view(2)
    for seat in (0, 1, 3):
        with pytest.raises(ba.SetupError, match="seat 2's view") as info:
            view.check(ba.Pass(), seat=seat)
        assert not isinstance(info.value, ba.IllegalMoveError)
    err = refusal_of(lambda: view.check(ba.Pass(), seat=2))
    assert err.reason is ba.Reason.NOT_YOUR_TURN and err.seat == 2


# ------------------------------------------------ a bad seat is a bad argument


@pytest.mark.parametrize("seat", NOT_SEATS, ids=repr)
def test_a_state_refuses_what_is_not_a_seat_as_a_bad_argument(seat: Any) -> None:
    for state in (opening(), playing(), naming_trump(), game_over()):
        with pytest.raises(ba.SetupError, match="there is no seat") as info:
            state.check(state.legal_moves()[0] if state.legal_moves() else ba.Pass(), seat=seat)
        assert not isinstance(info.value, ba.IllegalMoveError)


@pytest.mark.parametrize("seat", NOT_SEATS, ids=repr)
def test_a_view_refuses_what_is_not_a_seat_as_a_bad_argument(seat: Any) -> None:
    state = opening()
    for own in range(4):
        with pytest.raises(ba.SetupError, match="there is no seat"):
            state.view(own).check(ba.Pass(), seat=seat)


def test_a_real_seat_not_to_act_is_still_a_refused_move() -> None:
    state = opening()
    assert refusal_of(lambda: state.check(ba.Pass(), seat=0)).reason is ba.Reason.NOT_YOUR_TURN
    spoken = state.apply(ba.Pass())
    assert refusal_of(lambda: spoken.check(ba.Pass(), seat=1)).reason is ba.Reason.ALREADY_BID
    named = naming_trump()
    trump = ba.NameTrump(ba.Suit.HEARTS)
    assert refusal_of(lambda: named.check(trump, seat=1)).reason is ba.Reason.NOT_DECLARER
    state.check(ba.Pass(), seat=1)


# ------------------------------------------------ frozenness by behaviour


@attrs.frozen
class _Frozen:
    x: int = 0


@attrs.define(slots=False)
class _Mutable:
    x: int = 0


@attrs.define
class _SlottedMutable:
    x: int = 0


class _Plain:
    x = 0


def test_frozenness_is_judged_by_what_an_instance_does() -> None:
    assert is_frozen(_Frozen)
    assert is_frozen(attrs.frozen(slots=False)(type("Dict", (), {})))
    assert not is_frozen(_Mutable)
    assert not is_frozen(_SlottedMutable)
    assert not is_frozen(_Plain)
    assert all(
        is_frozen(cls) for table in ba.rules.registered_parts().values() for cls in table.values()
    )


def test_a_part_that_is_not_frozen_is_not_registered() -> None:
    for decorate in (attrs.define, attrs.define(slots=False)):

        @decorate
        class Loose:
            tag: ClassVar[str] = "test-surface/loose"
            part: ClassVar[str] = "follow"

            def describe(self) -> str:
                return "a part whose options can be changed"

        with pytest.raises(ba.RuleSetError, match="must be frozen"):
            ba.rules.register(Loose)
    assert "test-surface/loose" not in ba.rules.part_classes("follow")
