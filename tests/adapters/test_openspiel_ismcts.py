"""The OpenSpiel game's resample_from_infostate (backalley.adapters.openspiel):
resampled states that a seat cannot tell from the true one, whose history
replays to them, drawn reproducibly from the sampler; and OpenSpiel's
information-set MCTS playing whole games through it."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import backalley as ba  # noqa: E402
from backalley.adapters.openspiel import BackAlleyGame, load_game  # noqa: E402

from ..helpers import deck_order  # noqa: E402


def short(rules: ba.RuleSet, *sizes: int) -> ba.RuleSet:
    return rules.replace(schedule=ba.rules.Schedule(sizes))


def sampler(seed: int) -> object:
    return random.Random(seed).random


def positions(game: BackAlleyGame, seed: int, *, chance_every: int = 9) -> Iterator[object]:
    """Every decision node of a random game, and every ``chance_every``-th chance node."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    chance = 0
    while not state.is_terminal():
        if state.is_chance_node():
            if chance % chance_every == 0:
                yield state
            chance += 1
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            yield state
            state.apply_action(rng.choice(state.legal_actions()))
    yield state


def hands_of(state: object) -> tuple[frozenset[ba.Card], ...]:
    engine = state.engine_state  # type: ignore[attr-defined]
    return tuple(frozenset(h) for h in engine.hands)


@pytest.mark.parametrize(
    ("rules", "seed"),
    [
        (short(ba.variants.GAMERULES, 3, 2), 1),
        (short(ba.variants.VIETNAM, 3, 2), 2),
        (short(ba.variants.get("cutthroat-3"), 3, 2), 3),
        (short(ba.variants.get("rotating-trump"), 2, 3), 4),
    ],
    ids=["gamerules", "vietnam", "cutthroat-3", "rotating-trump"],
)
def test_a_resampled_state_is_the_same_to_its_seat_and_replays_from_its_history(
    rules: ba.RuleSet, seed: int
) -> None:
    game = load_game(rules)
    checked = 0
    for state in positions(game, seed):
        for seat in range(game.num_players()):
            other = state.resample_from_infostate(seat, sampler(checked))  # type: ignore[attr-defined]
            checked += 1
            assert other.information_state_string(seat) == state.information_state_string(seat)  # type: ignore[attr-defined]
            assert np.array_equal(
                other.information_state_tensor(seat),
                state.information_state_tensor(seat),  # type: ignore[attr-defined]
            )
            assert other.observation_string(seat) == state.observation_string(seat)  # type: ignore[attr-defined]
            assert other.current_player() == state.current_player()  # type: ignore[attr-defined]
            if seat == state.current_player():  # type: ignore[attr-defined]
                assert other.legal_actions() == state.legal_actions()  # type: ignore[attr-defined]
            players = [step.player for step in other.full_history()]
            assert players == [step.player for step in state.full_history()]  # type: ignore[attr-defined]
            assert game.state_of(other.history()).track == other.track
    assert checked > 100


def test_the_hidden_hands_differ_between_samples_and_the_seats_own_do_not() -> None:
    game = load_game(short(ba.variants.GAMERULES, 5), dealer=0)
    state = next(s for s in positions(game, 5) if not s.is_chance_node())  # type: ignore[attr-defined]
    true = hands_of(state)
    samples = [hands_of(state.resample_from_infostate(1, sampler(k))) for k in range(8)]  # type: ignore[attr-defined]
    assert all(hands[1] == true[1] for hands in samples)
    assert len({hands[0] for hands in samples}) > 4
    assert any(hands != true for hands in samples)
    for hands in samples:  # every card dealt once, each seat its count
        assert sorted(len(h) for h in hands) == [5, 5, 5, 5]
        assert len(frozenset().union(*hands)) == 20


def test_only_the_current_deals_dealing_outcomes_change() -> None:
    game = load_game(short(ba.variants.GAMERULES, 2, 3))
    for state in positions(game, 6, chance_every=1000):
        engine = state.engine_state  # type: ignore[attr-defined]
        if engine is not None and engine.deals_played == 1 and len(engine.tricks) == 1:
            break
    history = state.history()  # type: ignore[attr-defined]
    other = state.resample_from_infostate(2, sampler(0)).history()  # type: ignore[attr-defined]
    moves = len(state.track.moves) - state.track.openings[-1][1]  # type: ignore[attr-defined]
    start = len(history) - moves - 53  # the first dealer, deal 1, its moves: as they were
    assert other[:start] == history[:start]
    assert other[len(history) - moves :] == history[len(history) - moves :]
    assert other[start : start + 53] != history[start : start + 53]


def test_resampling_is_reproducible_from_the_sampler() -> None:
    game = load_game(short(ba.variants.GAMERULES, 4))
    state = next(s for s in positions(game, 7) if not s.is_chance_node())  # type: ignore[attr-defined]
    one = state.resample_from_infostate(0, sampler(3)).history()  # type: ignore[attr-defined]
    assert state.resample_from_infostate(0, sampler(3)).history() == one  # type: ignore[attr-defined]
    assert state.resample_from_infostate(0, sampler(4)).history() != one  # type: ignore[attr-defined]
    draws = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    again = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    assert (
        state.resample_from_infostate(0, draws).history()  # type: ignore[attr-defined]
        == state.resample_from_infostate(0, again).history()  # type: ignore[attr-defined]
    )


def test_a_resampled_state_serializes_and_plays_on() -> None:
    game = load_game(short(ba.variants.GAMERULES, 3), dealer=2)
    state = next(s for s in positions(game, 8) if not s.is_chance_node())  # type: ignore[attr-defined]
    other = state.resample_from_infostate(state.current_player(), sampler(1))  # type: ignore[attr-defined]
    again = game.deserialize_state(other.serialize())
    assert again.history() == other.history() and str(again) == str(other)
    rng = random.Random(0)
    while not other.is_terminal():
        other.apply_action(rng.choice(other.legal_actions()))
    assert other.engine_state.is_over
    assert not state.is_terminal()  # type: ignore[attr-defined]


def test_a_seat_shown_void_gets_no_card_of_the_suit() -> None:
    rules = short(ba.variants.GAMERULES, 3)
    hands = ["KH 5D 6D", "4H 7D 8D", "3H 9D TD", "AH 2H 9S"]
    order = [ba.parse_card(c).index for c in deck_order(hands, "2C", dealer=0)][:-1]
    state = load_game(rules, dealer=0).state_of(order)
    for move in ("bid 1", "pass", "pass", "bid 2", "play 5D", "play 7D", "play 9D", "play 9S"):
        state.apply_action(state.track.codes.id_of(ba.parse_move(move)))
    diamonds = {c for c in ba.parse_cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD")}
    seen = set()
    for k in range(20):
        held = hands_of(state.resample_from_infostate(1, sampler(k)))
        assert not held[3] & diamonds  # seat 3 showed out of diamonds
        seen.add(held[3])
    assert len(seen) > 1


def test_a_swapped_joker_is_dealt_again_as_the_trump_part_deals_it() -> None:
    """A turned Little Blooper: the Big Blooper's holder swapped it for the next stock card."""
    rules = short(ba.variants.GAMERULES, 3)
    hands = ["AS 5H 6D", "3S 7H BJ", "4S 8H 8D", "5S AH 3H"]
    order = [ba.parse_card(c).index for c in deck_order(hands, "LJ", dealer=0, stock=["9C"])]
    game = load_game(rules, dealer=0)
    state = game.state_of(order[:-1])
    assert state.engine_state.discards == (ba.parse_card("BJ"),)
    for seat in range(4):
        for k in range(3):
            other = state.resample_from_infostate(seat, sampler(k))
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.engine_state.discards == state.engine_state.discards
            assert game.state_of(other.history()).track == other.track


def test_a_thrown_in_deal_stays_and_the_deal_after_it_is_drawn_again() -> None:
    game = load_game(short(ba.variants.GAMERULES, 3), dealer=0)
    state = game.state_of(range(53))
    for _ in range(4):
        state.apply_action(54)  # pass: thrown in
    for card in [53, *range(52)]:
        if state.is_chance_node():
            state.apply_action(card)
    assert len(state.track.openings) == 2 and state.engine_state.dealer == 1
    for k in range(5):
        other = state.resample_from_infostate(0, sampler(k))
        assert other.history()[: 53 + 4] == state.history()[: 53 + 4]
        assert other.information_state_string(0) == state.information_state_string(0)
        assert game.state_of(other.history()).track == other.track


def test_during_the_dealing_the_seats_cards_stay_and_the_others_are_drawn_again() -> None:
    game = load_game(short(ba.variants.GAMERULES, 5), dealer=3)
    state = game.state_of(range(30))
    assert state.is_chance_node()
    for k in range(5):
        other = state.resample_from_infostate(2, sampler(k))
        assert other.is_chance_node() and len(other.history()) == 30
        assert other.information_state_string(2) == state.information_state_string(2)
        assert other.chance_outcomes() != state.chance_outcomes()  # other cards left to draw
    # seat 2's cards so far: drawn at positions 2, 6, 10, ... (the dealer's left is seat 0)
    assert [other.history()[k] for k in range(2, 20, 4)] == list(range(2, 20, 4))


def test_where_nothing_is_hidden_the_state_itself_comes_back() -> None:
    game = load_game(short(ba.variants.GAMERULES, 1))
    start = game.new_initial_state()
    assert start.resample_from_infostate(0, sampler(0)).history() == []
    end = next(s for s in positions(game, 9) if s.is_terminal())  # type: ignore[attr-defined]
    again = end.resample_from_infostate(1, sampler(0))  # type: ignore[attr-defined]
    assert again.is_terminal() and again.history() == end.history()  # type: ignore[attr-defined]


def test_a_seat_or_sampler_that_is_not_one_is_refused() -> None:
    game = load_game(short(ba.variants.GAMERULES, 2), dealer=0)
    state = game.state_of(range(53))
    with pytest.raises(ba.SetupError, match=r"player_id must be a seat 0\.\.3, not 4"):
        state.resample_from_infostate(4, sampler(0))
    with pytest.raises(ba.SetupError, match=r"returned 1\.5"):
        state.resample_from_infostate(0, lambda: 1.5)
    with pytest.raises(ba.SetupError, match="not True"):
        state.resample_from_infostate(True, sampler(0))
    with pytest.raises(ba.SetupError, match="probability sampler must be a callable"):
        state.resample_from_infostate(0, 0.5)
    other = state.resample_from_infostate(np.int64(2), sampler(0))  # a numpy seat is a seat
    assert other.information_state_string(2) == state.information_state_string(2)


def test_openspiels_ismcts_plays_a_whole_game_at_every_seat() -> None:
    ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    game = load_game(short(ba.variants.GAMERULES, 3, 2), dealer=0)
    rng = np.random.RandomState(2)
    draws = sampler(2)
    bots = []
    for _seat in range(4):
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 12, random_state=rng)
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, draws))
        bots.append(bot)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            action = int(bots[state.current_player()].step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
    engine = state.engine_state
    assert engine.is_over and engine.deals_played == 2 and decisions >= 4 * 5 + 4
    assert state.returns() == [float(engine.scores[s % 2]) for s in range(4)]


def test_openspiels_ismcts_draws_with_its_own_sampler_too() -> None:
    """Without a resampler of its own, the bot passes a fresh
    ``pyspiel.UniformProbabilitySampler`` to every call."""
    ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    game = load_game(short(ba.variants.GAMERULES, 3), dealer=0)
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 10, random_state=rng)
    state = game.state_of(range(53))
    assert bot.step(state) in state.legal_actions()
