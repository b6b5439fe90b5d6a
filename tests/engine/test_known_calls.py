"""The calls a user interface offers as buttons: ``known_calls()`` (the
bidding part's ``calls`` at this point, through the plan), and the public
tallies a view states beside them (``side_tricks``, ``winner``).

- every call the bidding part knows is listed, legal or not, in its order;
  the legal ones are exactly ``legal_moves()``, and every other one is
  refused by ``check`` with the bidding part's own reason;
- a state and every seat's view list the same calls; outside the bidding
  there are none;
- a user's bidding part that lists other calls is followed, and one whose
  ``calls`` answer something that is not a tuple of calls is a
  ``RuleSetError`` naming it;
- ``side_tricks`` adds each seat's tricks to its side's, and a view's
  ``winner`` is the state's.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

import attrs
import pytest

import backalley as ba
from backalley.errors import Reason
from backalley.rules.registry import _REGISTRY, register

from ..randomgames import NAMES, walk


@attrs.frozen(slots=True)
class NoBoardButton(ba.rules.OnceAroundBidding):
    """A user's bidding that knows no board call (and so never offers it)."""

    tag: ClassVar[str] = "test-no-board-button"

    def calls(self, ctx: Any) -> Any:
        return tuple(c for c in super().calls(ctx) if not isinstance(c, ba.BoardBid))


@attrs.frozen(slots=True)
class ListedCalls(ba.rules.OnceAroundBidding):
    """A broken bidding part: its calls are a list with a text in it."""

    tag: ClassVar[str] = "test-listed-calls"

    def calls(self, ctx: Any) -> Any:
        return [*super().calls(ctx), "bid 99"]


@pytest.fixture(autouse=True, scope="module")
def _test_parts() -> Iterator[None]:
    for cls in (NoBoardButton, ListedCalls):
        register(cls)
    yield
    for cls in (NoBoardButton, ListedCalls):
        _REGISTRY.get(cls.part, {}).pop(cls.tag, None)


def _refusal(state: ba.GameState, move: ba.Move) -> tuple[Reason, str] | None:
    try:
        state.check(move)
    except ba.IllegalMoveError as exc:
        return exc.reason, str(exc)
    return None


@pytest.mark.parametrize("name", NAMES)
def test_the_known_calls_are_the_bidding_parts_and_check_answers_each(name: str) -> None:
    rules = ba.variants.get(name)
    plan = rules.plan
    biddings = 0
    for state, _move in walk(rules, seed=7, move_seed=3):
        known = state.known_calls()
        views = [state.view(s).known_calls() for s in range(rules.players)]
        assert all(v == known for v in views)
        if state.phase is not ba.Phase.BIDDING:
            assert known == ()
            continue
        biddings += 1
        ctx = plan.bidding_context(state._ctx, state.calls)
        assert known == rules.bidding.calls(ctx)
        assert tuple(c for c in known if _refusal(state, c) is None) == state.legal_moves()
        for call in known:
            why = _refusal(state, call)
            if why is not None:
                part = rules.bidding.refusal(ctx, call)
                assert part is not None and why == (part[0], part[1])
        if biddings > 40:
            break
    assert biddings > 0


def test_the_hooked_call_is_known_and_refused_with_its_reason() -> None:
    state = ba.new_game("hook", seed=2)
    for text in ("bid 3", "bid 4", "bid 2"):
        state = state.apply_text(text)
    hooked = ba.Bid(state.hand_size - 9)
    assert hooked in state.known_calls()
    assert hooked not in state.legal_moves()
    assert state.to_act is not None
    view = state.view(state.to_act)
    with pytest.raises(ba.IllegalMoveError, match="you are the last to bid") as info:
        view.check(hooked)
    assert info.value.reason is Reason.BID_MAKES_TOTAL
    # a seat that has spoken knows the same calls, each refused as spoken
    assert state.to_act is not None
    other = state.view((state.to_act + 1) % 4)
    assert other.known_calls() == state.known_calls()
    with pytest.raises(ba.IllegalMoveError) as info:
        other.check(hooked)
    assert info.value.reason is Reason.ALREADY_BID


def test_a_users_bidding_that_knows_other_calls_is_followed() -> None:
    state = ba.new_game(ba.variants.GAMERULES.replace(bidding=NoBoardButton()), seed=1)
    assert ba.BoardBid() not in state.known_calls()
    assert ba.BoardBid() in ba.new_game("gamerules", seed=1).known_calls()
    assert state.known_calls()[0] == ba.Pass()


def test_calls_that_are_not_a_tuple_of_calls_name_the_part() -> None:
    state = ba.new_game(ba.variants.GAMERULES.replace(bidding=ListedCalls()), seed=1)
    with pytest.raises(ba.RuleSetError, match=r"ListedCalls\.calls must answer a tuple"):
        state.known_calls()


def test_side_tricks_and_the_winner_of_states_and_views() -> None:
    rng = random.Random(4)
    for name in ("gamerules", "vietnam-cutthroat"):
        state = ba.new_game(name, seed=5)
        rules = state.rules
        checked = 0
        while not state.is_over:
            if state.phase is ba.Phase.PLAYING and state.tricks:
                sides = [0] * len(rules.teams)
                for trick in state.tricks:
                    sides[rules.seat_teams[trick.winner]] += 1
                assert state.side_tricks == tuple(sides)
                assert sum(state.side_tricks) == len(state.tricks)
                assert state.view(1).side_tricks == state.side_tricks
                checked += 1
            assert state.winner is None and state.view(0).winner is None
            state = state.apply(rng.choice(state.legal_moves()))
        assert checked > 0
        winner = rules.plan.game_winner(state.scores)
        assert state.winner == winner
        assert all(state.view(s).winner == winner for s in range(rules.players))
