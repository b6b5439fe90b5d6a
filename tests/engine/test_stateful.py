"""Random legal games of every registered variant, with the engine's
invariants checked after every move (hypothesis stateful testing): card
conservation, ``legal_moves`` and ``check`` agreeing on legal
and illegal moves, refused moves changing nothing, scores changing only when a
deal is scored, and each seat's view answering as the full state.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import backalley as ba

from ..helpers import check_conservation, examples, state_fields

VARIANTS = ba.variants.names()

CARD_MOVES = [ba.Play(c) for c in ba.CARDS]
CALLS = [ba.Pass(), ba.BoardBid(), ba.Counter(), *[ba.Bid(n) for n in range(0, 16)]]
TRUMP_CALLS = [*[ba.NameTrump(s) for s in ba.Suit], ba.NameTrump(None)]
ANY_MOVE = st.sampled_from(CARD_MOVES + CALLS + TRUMP_CALLS)


def check_step(before: ba.GameState, move: ba.Move, after: ba.GameState) -> None:
    """What may change with one move: scores only when a deal is scored."""
    if after.deals_played == before.deals_played:
        assert after.scores == before.scores, f"{move} changed the scores mid-deal"
    else:
        assert after.deals_played == before.deals_played + 1
        points = after.deal_results[-1].points
        assert after.scores == tuple(a + b for a, b in zip(before.scores, points))
        assert before.phase is ba.Phase.PLAYING  # a deal is scored by its last card
    assert len(after.deal_results) == after.deals_played
    if after.is_over:
        assert after.phase is ba.Phase.GAME_OVER and after.to_act is None
        assert after.deals_played == after.rules.schedule.deals


def check_agreement(state: ba.GameState, moves: list[ba.Move]) -> None:
    """``m in legal_moves()`` exactly when ``check(m)`` passes; a refusal
    changes nothing and carries a reason and a message."""
    legal = state.legal_moves()
    assert len(set(legal)) == len(legal)
    for m in moves:
        before = state_fields(state)
        if m in legal:
            state.check(m)
            assert state.is_legal(m)
        else:
            with pytest.raises(ba.IllegalMoveError) as info:
                state.apply(m)
            assert isinstance(info.value.reason, ba.Reason)
            assert str(info.value)
            assert not state.is_legal(m)
            assert state_fields(state) == before


def check_views(state: ba.GameState) -> None:
    """The view of the seat to act gives the same legal moves; others give none."""
    legal = state.legal_moves()
    for seat in range(state.players):
        view = state.view(seat)
        if seat == state.to_act:
            assert view.legal_moves() == legal
            for m in legal:
                view.check(m)
        else:
            assert view.legal_moves() == ()
            for m in legal[:3]:
                with pytest.raises(ba.IllegalMoveError):
                    view.check(m)


class RandomGames(RuleBasedStateMachine):
    """Plays a random legal game of a random variant, checking every state."""

    state: ba.GameState

    @initialize(name=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 1))
    def start(self, name: str, seed: int) -> None:
        self.state = ba.new_game(ba.variants.get(name), seed=seed)

    def _apply(self, move: ba.Move) -> None:
        before = self.state
        after = before.apply(move)
        check_step(before, move, after)
        self.state = after

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        self._apply(data.draw(st.sampled_from(self.state.legal_moves()), label="move"))

    @precondition(lambda self: not self.state.is_over)
    @rule(seed=st.integers(0, 2**16), moves=st.integers(1, 300))
    def play_on(self, seed: int, moves: int) -> None:
        """Many random legal moves at once, so that games reach their later
        deals and their end (cheap checks after each move)."""
        rng = random.Random(seed)
        for _ in range(moves):
            if self.state.is_over:
                break
            before = self.state
            move = rng.choice(before.legal_moves())
            after = before.apply(move)
            check_step(before, move, after)
            check_conservation(after)
            self.state = after

    @rule(moves=st.lists(ANY_MOVE, min_size=1, max_size=12))
    def random_moves_are_judged_alike(self, moves: list[ba.Move]) -> None:
        check_agreement(self.state, moves)

    @rule(seat=st.integers(0, 7), data=st.data())
    def other_seats_are_refused(self, seat: int, data: st.DataObject) -> None:
        state = self.state
        seat %= state.players
        if state.is_over or seat == state.to_act:
            return
        move = data.draw(st.sampled_from(state.legal_moves()), label="legal move")
        with pytest.raises(ba.IllegalMoveError) as info:
            state.check(move, seat=seat)
        reason = info.value.reason
        assert reason in (ba.Reason.NOT_YOUR_TURN, ba.Reason.ALREADY_BID, ba.Reason.NOT_DECLARER)
        if reason is ba.Reason.ALREADY_BID:
            assert state.phase is ba.Phase.BIDDING and state.bids[seat] is not None
        if reason is ba.Reason.NOT_DECLARER:
            assert state.phase is ba.Phase.NAMING_TRUMP

    @invariant()
    def cards_are_conserved(self) -> None:
        check_conservation(self.state)
        if self.state.is_over:
            event("a game over was reached")

    @invariant()
    def legal_moves_and_check_agree(self) -> None:
        state = self.state
        legal = list(state.legal_moves())
        assert (len(legal) == 0) == state.is_over
        check_agreement(state, legal)

    @invariant()
    def views_answer_as_the_state(self) -> None:
        check_views(self.state)

    @invariant()
    def scores_add_up(self) -> None:
        state = self.state
        sides = len(state.rules.teams)
        assert len(state.scores) == sides
        total = [sum(r.points[i] for r in state.deal_results) for i in range(sides)]
        assert tuple(total) == state.scores


RandomGames.TestCase.settings = settings(
    max_examples=examples(50),
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestRandomGames = RandomGames.TestCase


# ------------------------------------------------- 100 seeded gamerules games


def play_checked_game(seed: int) -> ba.GameState:
    rng = random.Random(seed)
    state = ba.new_game(ba.variants.GAMERULES, seed=seed)
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        after = state.apply(move)
        check_step(state, move, after)
        check_conservation(after)
        state = after
    return state


@pytest.mark.slow
def test_100_random_gamerules_games_keep_the_invariants():
    """The gamerules game end to end: 100 seeded random games reach the end after 25
    scored deals, with cards conserved and scores the sum of deal points."""
    for seed in range(100):
        state = play_checked_game(seed)
        assert state.is_over and state.deals_played == 25
        assert [r.hand_size for r in state.deal_results] == list(state.rules.schedule.hand_sizes)
        assert state.scores == tuple(sum(r.points[t] for r in state.deal_results) for t in range(2))
        a, b = state.scores
        assert state.winner == (None if a == b else (0 if a > b else 1))


@pytest.mark.parametrize("seed", [0, 17, 2**40])
def test_same_seed_same_game(seed):
    """The same seed (and the same moves) give the same game."""
    first = play_checked_game(seed)
    again = play_checked_game(seed)
    assert again == first
    assert again.deal_results == first.deal_results
    assert ba.new_game(seed=seed) == ba.new_game(seed=seed)
    assert ba.new_game(seed=seed).hands == ba.new_game(seed=seed).hands
    assert ba.new_game(seed=seed + 1).hands != ba.new_game(seed=seed).hands
