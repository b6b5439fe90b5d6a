"""The OpenSpiel game (backalley.adapters.openspiel): OpenSpiel's own checks on every
variant, chance nodes that deal the drawn order, observations that hide what
they must, returns from the scores, serialization, and an MCTS bot."""

from __future__ import annotations

import pickle
import random
import runpy
import subprocess
import sys

import attrs
import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import backalley as ba  # noqa: E402
from backalley.adapters.encoding import Actions  # noqa: E402
from backalley.adapters.openspiel import BackAlleyGame, load_game  # noqa: E402

from .. import ROOT  # noqa: E402
from ..helpers import deck_order  # noqa: E402
from ..marks import by_variant  # noqa: E402

EXAMPLE = ROOT / "examples" / "openspiel_mcts.py"


def short_deals(name: str) -> int:
    """The fewest first deals of a variant's schedule that still make a valid rule set
    (bab-online's rainbow needs its 4-card deal, the fifth)."""
    rules = ba.variants.get(name)
    for k in range(1, rules.schedule.deals + 1):
        try:
            rules.replace(schedule=ba.rules.Schedule(rules.schedule.hand_sizes[:k]))
        except ba.RuleSetError:
            continue
        return k
    raise AssertionError(name)  # pragma: no cover


@pytest.mark.parametrize("name", by_variant(ba.variants.names()))
def test_random_sim_test_passes_for_every_variant(name: str) -> None:
    game = load_game(name, deals=short_deals(name))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_random_sim_test_passes_for_a_whole_gamerules_game() -> None:
    game = load_game("gamerules")
    assert game.num_players() == 4
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_game_is_registered_and_loads_by_name_with_parameters() -> None:
    assert "python_backalley" in [t.short_name for t in pyspiel.registered_games()]
    game = pyspiel.load_game("python_backalley", {"variant": "vietnam-42", "deals": 1})
    assert game.num_distinct_actions() == 76
    assert game.max_chance_outcomes() == 54
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.rules.schedule.hand_sizes == (10,)
    assert pyspiel.load_game(str(game)).rules == game.rules


def test_a_custom_rule_set_travels_in_the_game_string() -> None:
    rules = ba.variants.GAMERULES.replace(
        trump=ba.rules.FixedTrump(ba.Suit.SPADES), schedule=ba.rules.Schedule((2, 1))
    )
    game = load_game(rules)
    again = pyspiel.load_game(str(game))
    assert again.rules == rules
    assert load_game(ba.variants.VIETNAM).get_parameters()["variant"] == "vietnam"


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"variant": "no-such-game"}, ba.UnknownVariantError),
        ({"deals": 0}, ba.SetupError),
        ({"deals": 26}, ba.SetupError),
        ({"dealer": -2}, ba.SetupError),
        ({"dealer": True}, ba.SetupError),
        ({"variant": "bab-online", "deals": 1}, ba.RuleSetError),
    ],
)
def test_bad_arguments_are_refused_with_the_library_errors(
    kwargs: dict[str, object], error: type[Exception]
) -> None:
    with pytest.raises(error):
        load_game(**kwargs)  # type: ignore[arg-type]


def load_both_ways(params: dict[str, object]) -> list[pytest.ExceptionInfo[Exception]]:
    """What refusing ``params`` looks like through ``pyspiel.load_game`` (as a
    dict and as a game string) and through the game's constructor."""
    string = "python_backalley(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")"
    caught = []
    for load in (
        lambda: pyspiel.load_game("python_backalley", params),
        lambda: pyspiel.load_game(string),
        lambda: BackAlleyGame(params),
    ):
        with pytest.raises(Exception) as info:
            load()
        caught.append(info)
    return caught


def assert_refused(params: dict[str, object], error: type[Exception], *words: str) -> None:
    """``params`` are refused with the library's ``error`` by every entry point,
    with one message that names ``words``."""
    caught = load_both_ways(params)
    assert [info.type for info in caught] == [error] * len(caught)
    messages = {str(info.value) for info in caught}
    assert len(messages) == 1, messages
    (message,) = messages
    for word in words:
        assert word in message, message


def test_negative_deals_are_refused() -> None:
    assert_refused({"deals": -1}, ba.SetupError, "deals", "1..25", "-1")
    with pytest.raises(ba.SetupError, match=r"deals must be None .* 1\.\.25, not -1"):
        load_game(deals=-1)


def test_more_deals_than_the_schedule_holds_are_refused() -> None:
    assert_refused({"variant": "cutthroat-5", "deals": 20}, ba.SetupError, "deals", "1..19", "20")
    assert load_game("cutthroat-5", deals=19).rules.schedule.deals == 19
    with pytest.raises(ba.SetupError, match=r"1\.\.19, not 20"):
        load_game("cutthroat-5", deals=20)


def test_zero_deals_as_a_parameter_is_the_whole_schedule_but_load_game_spells_it_none() -> None:
    assert pyspiel.load_game("python_backalley", {"deals": 0}).rules == ba.variants.GAMERULES
    with pytest.raises(ba.SetupError, match="deals must be None"):
        load_game(deals=0)


def test_a_negative_throw_in_limit_is_refused() -> None:
    assert_refused({"max_throw_ins": -5}, ba.SetupError, "max_throw_ins", "0..100", "-5")
    with pytest.raises(ba.SetupError, match="max_throw_ins"):
        load_game(max_throw_ins=-5)


def test_throw_in_limit_above_bound_is_refused_with_the_librarys_error() -> None:
    from backalley.io.serialize.limits import MAX_THROW_INS

    assert MAX_THROW_INS == 100
    for value in (MAX_THROW_INS + 1, 2**31 - 1):  # the largest a C++ int parameter holds
        assert_refused({"max_throw_ins": value}, ba.SetupError, "max_throw_ins", "0..100")
    with pytest.raises(ba.SetupError, match=r"max_throw_ins must be a whole number 0\.\.100"):
        load_game(max_throw_ins=10**12)


def test_the_throw_in_limit_adds_one_pass_per_seat_to_the_game_length() -> None:
    lengths = [load_game(deals=1, max_throw_ins=k).max_game_length() for k in (0, 1, 100)]
    assert lengths == [lengths[0], lengths[0] + 4, lengths[0] + 400]
    assert lengths[0] == 4 + 1 + 4 * 13  # the bids, the trump call and the cards of one deal
    assert pyspiel.load_game("python_backalley").max_game_length() == load_game().max_game_length()


def test_a_dealer_that_is_no_seat_is_refused() -> None:
    for dealer in (-2, 4):
        assert_refused({"dealer": dealer}, ba.SetupError, "dealer", "0..3", str(dealer))
    assert_refused({"variant": "cutthroat-3", "dealer": 3}, ba.SetupError, "0..2")
    with pytest.raises(ba.SetupError, match="dealer must be None"):
        load_game(dealer=-1)
    assert pyspiel.load_game("python_backalley", {"dealer": 3}).fixed_dealer == 3


def test_an_unknown_variant_parameter_is_refused_with_the_known_names() -> None:
    assert_refused({"variant": "no-such-game"}, ba.UnknownVariantError, "no-such-game", "vietnam")


def test_a_rules_parameter_that_is_no_encoded_rule_set_is_refused() -> None:
    not_json = "bm90IGpzb24"  # "not json"
    assert_refused({"rules": not_json}, ba.SerializationError, "rules parameter")
    unknown_key = "eyJ4IjoxfQ"  # {"x":1}
    assert_refused({"rules": unknown_key}, ba.SerializationError, "rules parameter", "'x'")


def test_variant_and_rules_parameters_together_are_refused() -> None:
    custom = load_game(ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((2, 1))))
    encoded = custom.get_parameters()["rules"]
    assert pyspiel.load_game("python_backalley", {"rules": encoded}).rules == custom.rules
    assert_refused({"variant": "vietnam", "rules": encoded}, ba.SetupError, "variant or rules")


def test_unknown_parameter_names_are_refused() -> None:
    with pytest.raises(ba.SetupError, match="unknown game parameter 'colour'; the parameters are"):
        BackAlleyGame({"colour": "red"})
    # pyspiel.load_game refuses a name outside the parameter specification itself,
    # before the game is built, with its own error.
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("python_backalley", {"colour": "red"})


@pytest.mark.parametrize(
    "kwargs",
    [{"deals": 1.5}, {"deals": True}, {"dealer": "0"}, {"max_throw_ins": 2**31}],
)
def test_values_pyspiel_refuses_itself_are_refused_by_load_game_with_the_librarys_error(
    kwargs: dict[str, object],
) -> None:
    with pytest.raises(ba.SetupError, match=next(iter(kwargs))):
        load_game(**kwargs)  # type: ignore[arg-type]
    # pyspiel.load_game checks the types (and C++ int range) before the game sees them.
    with pytest.raises(RuntimeError):
        pyspiel.load_game("python_backalley", kwargs)


def test_a_constructor_error_passes_through_pyspiel_unchanged() -> None:
    """pyspiel.load_game re-raises the Python exception the game's constructor
    raised: the same class, the same message, the same object attributes."""
    with pytest.raises(ba.SerializationError) as info:
        pyspiel.load_game("python_backalley", {"rules": "eyJ4IjoxfQ"})
    assert type(info.value) is ba.SerializationError and info.value.path == "$.x"
    game = load_game(deals=1)
    text = pyspiel.serialize_game_and_state(game, game.new_initial_state())
    assert "deals=1" in text
    with pytest.raises(ba.SetupError) as setup:
        pyspiel.deserialize_game_and_state(text.replace("deals=1", "deals=-1"))
    assert "deals must be 0" in str(setup.value)


def test_every_action_id_is_one_move_and_back() -> None:
    actions = Actions()
    assert actions.size == 76
    moves = [actions.move_of(i) for i in range(actions.size)]
    assert len({str(m) for m in moves}) == actions.size
    assert [actions.id_of(m) for m in moves] == list(range(actions.size))
    assert str(moves[0]) == "play 2C" and str(moves[53]) == "play BJ"
    assert [str(moves[i]) for i in (54, 55, 68, 69, 70, 71, 74, 75)] == [
        "pass",
        "bid 0",
        "bid 13",
        "board",
        "counter",
        "trump C",
        "trump S",
        "trump NT",
    ]
    with pytest.raises(ba.NotationError):
        actions.move_of(76)
    with pytest.raises(ba.NotationError):
        actions.id_of(ba.Bid(14))


def test_the_first_dealer_and_every_card_are_uniform_chance_nodes() -> None:
    game = load_game("gamerules", deals=1)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(seat, 0.25) for seat in range(4)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "first dealer 2"
    state.apply_action(2)
    seen = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 54 - len(seen)
        assert all(p == pytest.approx(1 / len(outcomes)) for _o, p in outcomes)
        assert not {o for o, _p in outcomes} & set(seen)
        seen.append(outcomes[len(outcomes) // 2][0])
        state.apply_action(seen[-1])
    assert len(seen) == 53  # the last card follows without a chance node
    assert state.current_player() == 3  # left of dealer 2 bids first


def test_the_drawn_order_is_dealt_as_the_rules_deal() -> None:
    hands = ["AS KS QS", "2C 3C 4C", "2D 3D 4D", "2H 3H 4H"]
    order = [ba.parse_card(c).index for c in deck_order(hands, "JH", dealer=3, hand_size=3)][:-1]
    rules = ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((3,)))
    state = load_game(rules, dealer=3).state_of(order)
    engine = state.engine_state
    assert engine is not None
    assert [set(h) for h in engine.hands] == [set(ba.parse_cards(h)) for h in hands]
    assert str(engine.turn_up) == "JH" and engine.trump is ba.Suit.HEARTS
    assert state.current_player() == 0


def play_randomly(game: object, seed: int) -> object:
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", ["gamerules", "vietnam-cutthroat", "cutthroat-3"])
def test_returns_are_each_seats_side_score(name: str) -> None:
    state = play_randomly(load_game(name, deals=2), seed=5)
    engine = state.engine_state  # type: ignore[attr-defined]
    assert engine.is_over
    rules = engine.rules
    expected = [0.0] * rules.players
    for side, team in enumerate(rules.teams):
        for seat in team:
            expected[seat] = float(engine.scores[side])
    assert state.returns() == expected  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ["gamerules", "vietnam-cutthroat", "cutthroat-3"])
def test_zero_sum_returns_are_each_sides_score_less_the_others_mean(name: str) -> None:
    game = load_game(name, deals=2, zero_sum=True)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.utility_sum() == 0.0
    assert game.max_utility() == 2 * load_game(name, deals=2).max_utility()
    state = play_randomly(game, seed=5)
    engine = state.engine_state  # type: ignore[attr-defined]
    rules = engine.rules
    scores = engine.scores
    expected = [0.0] * rules.players
    for side, team in enumerate(rules.teams):
        others = [s for k, s in enumerate(scores) if k != side]
        for seat in team:
            expected[seat] = scores[side] - sum(others) / len(others)
    assert state.returns() == pytest.approx(expected)  # type: ignore[attr-defined]
    assert sum(state.returns()) == pytest.approx(0.0, abs=1e-9)  # type: ignore[attr-defined]
    if len(rules.teams) == 2:  # one side's margin is the other's loss
        assert expected[rules.teams[0][0]] == scores[0] - scores[1] != 0


def test_zero_sum_is_a_parameter_that_is_true_or_false_and_false_by_default() -> None:
    assert load_game("gamerules", deals=1).get_type().utility == (
        pyspiel.GameType.Utility.GENERAL_SUM
    )
    game = pyspiel.load_game("python_backalley", {"deals": 1, "zero_sum": True})
    assert game.get_parameters()["zero_sum"] is True
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    again = pyspiel.load_game(str(game))
    assert again.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    with pytest.raises(ba.SetupError, match=r"zero_sum must be True .* or False .*, not 1"):
        load_game("gamerules", zero_sum=1)  # type: ignore[arg-type]
    with pytest.raises(ba.SetupError, match="zero_sum must be True"):
        BackAlleyGame({"zero_sum": "yes"})


def test_zero_sum_games_pass_openspiels_random_simulation() -> None:
    for name in ("gamerules", "cutthroat-3"):
        game = load_game(name, deals=1, zero_sum=True)
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_an_all_pass_deal_is_thrown_in_and_the_next_dealer_draws_a_new_deck() -> None:
    game = load_game("gamerules", deals=1, dealer=0)
    state = game.state_of(range(53))
    assert not state.is_chance_node()
    for _ in range(4):
        state.apply_action(54)  # pass
    assert state.is_chance_node()
    assert len(state.chance_outcomes()) == 54
    state.apply_action(53)  # the second deck starts with BJ...
    for card in range(52):
        if state.is_chance_node():
            state.apply_action(card)
    engine = state.engine_state
    assert engine is not None and engine.dealer == 1 and engine.deals_played == 0
    assert ba.parse_card("BJ") in engine.hands[2]  # ...dealt to the left of dealer 1


def test_observations_show_only_what_a_seat_knows() -> None:
    # Two deals that give seat 1 the same cards and turn-up, the others different ones.
    rules = ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((3,)))
    game = load_game(rules, dealer=0)
    a = ["2C 3C 4C", "AS KS QS", "2D 3D 4D", "2H 3H 4H"]
    b = ["2H 3D 4C", "AS KS QS", "2D 3C 4H", "2C 3H 4D"]
    states = [
        game.state_of([ba.parse_card(c).index for c in deck_order(h, "JH", hand_size=3)][:-1])
        for h in (a, b)
    ]
    same = [s.observation_string(1) for s in states]
    assert same[0] == same[1]
    recalled = [s.information_state_string(1) for s in states]
    assert recalled[0] == recalled[1]
    assert np.array_equal(states[0].observation_tensor(1), states[1].observation_tensor(1))
    assert np.array_equal(
        states[0].information_state_tensor(1), states[1].information_state_tensor(1)
    )
    assert states[0].observation_string(0) != states[1].observation_string(0)
    text = states[0].information_state_string(1)
    assert "hand QS KS AS" in text and "2C" not in text and "2D" not in text
    # the hand piece of the tensor is the seat's own hand
    obs = game.make_py_observer()
    obs.set_from(states[0], 1)
    hand = sorted(ba.parse_card(c).index for c in a[1].split())
    assert list(np.flatnonzero(obs.dict["hand"])) == hand
    public = game.make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    public.set_from(states[0], 1)
    assert not public.dict["hand"].any()
    assert "AS" not in public.string_from(states[0], 1)


def test_serialization_round_trips_through_the_action_list() -> None:
    rules = ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((2, 1)))
    game = load_game(rules)
    state = play_randomly(game, seed=3)
    history = state.history()  # type: ignore[attr-defined]
    for cut in (0, 1, 30, 60, len(history)):
        part = game.state_of(history[:cut])
        text = part.serialize()
        again = game.deserialize_state(text)
        assert again.history() == part.history()
        assert str(again) == str(part)
        assert again.track == part.track
        assert pickle.loads(pickle.dumps(part.track)) == part.track
        g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, part))
        assert g2.rules == rules and str(s2) == str(part)


def test_an_openspiel_mcts_bot_plays_a_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("open_spiel.python.algorithms.mcts")
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE)])
    module = runpy.run_path(str(EXAMPLE))
    state = module["play"](seed=4, simulations=40)
    assert state.is_terminal()
    engine = state.engine_state
    assert engine.is_over and engine.deals_played == 1
    out = capsys.readouterr().out
    assert "seat 0 (MCTS): " in out
    assert state.returns() == [float(engine.scores[s % 2]) for s in range(4)]


@pytest.mark.slow
def test_the_research_page_code_runs() -> None:
    page = ROOT / "docs" / "research.rst"
    blocks = page.read_text().split(".. code-block:: python\n")[1:]
    assert len(blocks) >= 2
    namespaces = []
    for block in blocks:
        lines = []
        for line in block.splitlines()[1:]:
            if line and not line.startswith("   "):
                break
            lines.append(line[3:])
        namespace: dict[str, object] = {}
        exec(compile("\n".join(lines), str(page), "exec"), namespace)
        namespaces.append(namespace)
    state = namespaces[0]["state"]  # the first: a game dealt, the first call to make
    assert state.legal_actions() == [54, *range(56, 69)]  # type: ignore[attr-defined]
    searched = namespaces[1]  # the second: ISMCTS over resampled deals
    assert searched["action"] in searched["state"].legal_actions()  # type: ignore[attr-defined]


def test_importing_backalley_imports_no_framework() -> None:
    code = (
        "import sys, backalley, backalley.variants; "
        "assert not {'pyspiel', 'pettingzoo', 'numpy', 'backalley.adapters.encoding'} & set(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


@pytest.mark.parametrize(("name", "most"), [("gamerules", 4), ("bab-online", 16), ("vietnam", 4)])
def test_the_utility_bounds_cover_every_deal_won_at_the_highest_multiplier(
    name: str, most: int
) -> None:
    game = load_game(name)
    sizes = game.rules.schedule.hand_sizes
    assert game.max_utility() == -game.min_utility()
    assert game.max_utility() >= sum(10 * h * most for h in sizes)


def direct_counter_rules() -> ba.RuleSet:
    """The Vietnam game with ``counter_style = direct`` (``counter x2`` .. ``x4``)."""
    auction = ba.variants.VIETNAM.bidding
    return ba.variants.VIETNAM.replace(
        bidding=attrs.evolve(auction, counter_style=ba.rules.CounterStyle.DIRECT), name=None
    )


def test_direct_counters_have_their_own_action_ids_after_the_others() -> None:
    rules = direct_counter_rules()
    actions = Actions.for_rules(rules)
    assert (actions.direct_counters, actions.size, actions.call_slots) == (3, 79, 20)
    assert Actions.for_rules(ba.variants.VIETNAM).size == 76  # a layout without them is unchanged
    assert [str(actions.move_of(i)) for i in (75, 76, 77, 78)] == [
        "trump NT",
        "counter x2",
        "counter x3",
        "counter x4",
    ]
    assert [actions.id_of(ba.Counter(k)) for k in (2, 3, 4)] == [76, 77, 78]
    assert [actions.call_slot(ba.Counter(k)) for k in (2, 3, 4)] == [17, 18, 19]
    assert actions.call_slot(ba.Counter()) == 16
    with pytest.raises(ba.NotationError, match=r"x2\.\.x4"):
        actions.id_of(ba.Counter(5))
    with pytest.raises(ba.NotationError, match="no direct counters"):
        Actions().id_of(ba.Counter(2))


def test_a_direct_counter_game_plays_through_its_action_ids() -> None:
    game = load_game(direct_counter_rules(), deals=1, dealer=0)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    while state.is_chance_node():  # deal: the cards in chance order
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 1
    state.apply_action(55 + 7)  # seat 1: bid 7
    assert 76 in state.legal_actions() and 75 not in state.legal_actions()
    state.apply_action(77)  # seat 2: counter x3
    assert state.legal_actions() == [54]  # a direct counter cannot be answered: pass only
    assert "counter x3" in state.action_to_string(2, 77)
