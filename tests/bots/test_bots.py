"""The bots (backalley.bots): registry, legality in every variant, views only,
seeded reproducibility, hand-made positions, and the match runner."""

from __future__ import annotations

import random

import attrs
import pytest

import backalley as ba
from backalley import lowlevel
from backalley.bots import (
    HeuristicBot,
    MonteCarloBot,
    RandomBot,
    bot_names,
    make_bot,
    register_bot,
)
from backalley.bots.match import duplicate_match, play_games
from backalley.bots.montecarlo import sample_hands
from backalley.cards import CARDS
from backalley.rules.scoring import ContractScoring

from ..helpers import bot_move, deck_order, short
from ..marks import by_variant

VARIANTS = ba.variants.names()


def _position(rules: ba.RuleSet, hands: list[str], turn_up: str, moves: list[str]) -> ba.GameState:
    order = deck_order(hands, turn_up, dealer=0)
    state = ba.new_game(rules, seed=1, dealer=0, decks=[order])
    for text in moves:
        state = state.apply(ba.parse_move(text))
    return state


# ----------------------------------------------------------------- registry


def test_registry_names_and_unknown_bot() -> None:
    assert {"random", "heuristic", "montecarlo"} <= set(bot_names())
    assert isinstance(make_bot("Heuristic", seed=1), HeuristicBot)
    assert isinstance(make_bot("montecarlo"), MonteCarloBot)
    assert isinstance(make_bot("random", seed=3), RandomBot)
    with pytest.raises(ba.SetupError, match="unknown bot 'nobody'"):
        make_bot("nobody")


def test_register_your_own_bot() -> None:
    class FirstMove:
        def __init__(self, seed: object = None) -> None:
            self.seed = seed

        def choose(self, view: ba.PlayerView) -> ba.Move:
            return view.legal_moves()[0]

    register_bot("first-move-test", FirstMove)
    bot = make_bot("first-move-test", seed=5)
    assert isinstance(bot, FirstMove) and bot.seed == 5
    state = ba.new_game(seed=2)
    assert bot.choose(state.view(state.to_act)) == state.legal_moves()[0]
    with pytest.raises(ba.SetupError, match="registered already"):
        register_bot("first-move-test", FirstMove)
    register_bot("first-move-test", RandomBot, replace=True)
    assert isinstance(make_bot("first-move-test"), RandomBot)
    with pytest.raises(ba.SetupError):
        register_bot("", FirstMove)
    with pytest.raises(ba.SetupError, match="callable"):
        register_bot("not-callable", 3)  # type: ignore[arg-type]


# ----------------------------------------------------------- legality, views


@pytest.mark.parametrize("name", by_variant(VARIANTS))
def test_heuristic_plays_legal_moves_in_every_variant(name: str) -> None:
    rules = ba.variants.get(name)
    for seed in (1, 2):
        state = ba.new_game(rules, seed=seed)
        bots = [HeuristicBot(seed=(seed, s)) for s in range(rules.players)]
        while not state.is_over and state.deals_played < 3:
            state = bot_move(state, bots)


@pytest.mark.parametrize("name", ["gamerules", "vietnam", "bab-online", "cutthroat-3"])
def test_montecarlo_plays_legal_moves(name: str) -> None:
    rules = short(ba.variants.get(name), 3, 4)
    state = ba.new_game(rules, seed=4)
    bots = [MonteCarloBot(seed=s, samples=2, budget=None) for s in range(rules.players)]
    while not state.is_over:
        state = bot_move(state, bots)


def _same_view_other_hands(state: ba.GameState, seat: int, seed: int) -> ba.GameState:
    view = state.view(seat)
    hands = sample_hands(view, random.Random(seed))
    assert hands is not None
    other = lowlevel.determinise(view, hands)
    assert _public(other.view(seat)) == _public(view)
    return other


def _public(view: ba.PlayerView) -> tuple[object, ...]:
    """What a view shows of the current deal."""
    return (
        view.seat, view.phase, view.to_act, view.dealer, view.hand, view.hand_counts,
        view.turn_up, view.discards, view.trump, view.calls, view.trick, view.tricks,
        view.tricks_won, view.legal_moves(),
    )  # fmt: skip


@pytest.mark.parametrize(
    "name", by_variant(["gamerules", "vietnam", "bab-online"], quick={"gamerules"})
)
def test_bots_choose_from_the_view_alone(name: str) -> None:
    """Positions that differ only in cards the seat cannot see get the same choice."""
    rules = ba.variants.get(name)
    state = ba.new_game(rules, seed=11)
    players = [HeuristicBot(seed=1) for _ in range(rules.players)]
    for step in range(16):
        seat = state.to_act
        assert seat is not None
        if step % 5 == 0:
            others = [_same_view_other_hands(state, seat, k) for k in range(3)]
            assert any(o.hands != state.hands for o in others)
            choices = {HeuristicBot(seed=9).choose(o.view(seat)) for o in (state, *others)}
            assert len(choices) == 1
            mc = {
                MonteCarloBot(seed=9, samples=2, budget=None).choose(o.view(seat))
                for o in (state, *others)
            }
            assert len(mc) == 1
        state = state.apply(players[seat].choose(state.view(seat)))


def test_bots_are_reproducible_from_their_seed() -> None:
    rules = short(ba.variants.GAMERULES, 4)
    state = ba.new_game(rules, seed=8)
    for _ in range(10):
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        a = MonteCarloBot(seed=("x", 1), samples=3, budget=None).choose(view)
        b = MonteCarloBot(seed=("x", 1), samples=3, budget=None).choose(view)
        assert a == b
        assert RandomBot(seed=4).choose(view) == RandomBot(seed=4).choose(view)
        state = state.apply(HeuristicBot(seed=0).choose(view))


# -------------------------------------------------------------- the adapter


@pytest.mark.parametrize("t", range(5))
def test_beaters_agree_with_the_trick_winner(t: int) -> None:
    rules = ba.variants.GAMERULES
    order = lowlevel.card_order(rules, lowlevel.TRUMPS[t])
    assert order.standard
    ctx = rules.plan.deal_context(0, 0, 13, trump=order.trump)
    rng = random.Random(t)
    for _ in range(300):
        cards = rng.sample(range(54), 5)
        trick, extra = tuple(cards[: rng.randint(1, 3)]), cards[4]
        wins = rules.plan.trick_position(ctx, (*trick, extra)) == len(trick)
        assert wins == bool(order.beaters(trick) >> extra & 1)


@pytest.mark.parametrize("name", VARIANTS)
def test_determinise_reproduces_the_deal(name: str) -> None:
    rules = ba.variants.get(name)
    rng = random.Random(3)
    for seed in range(4):
        state = ba.new_game(rules, seed=seed)
        bot = HeuristicBot()
        for _ in range(rng.randint(0, 3 * rules.players)):
            if state.deals_played:
                break
            state = state.apply(bot.choose(state.view(state.to_act)))  # type: ignore[arg-type]
        if state.deals_played:
            continue
        seat = state.to_act
        assert seat is not None
        again = lowlevel.determinise(state.view(seat), lowlevel.core(state).hand_bits)
        assert again.hands == state.hands
        assert again.legal_moves() == state.legal_moves()
        assert _public(again.view(seat)) == _public(state.view(seat))


@pytest.mark.parametrize("name", ["rotating-trump", "gamerules", "vietnam"])
def test_determinise_reproduces_a_later_deal_with_its_context(name: str) -> None:
    """A sampled deal is the view's deal: its index (which rotating trump reads),
    dealer, scores and results; the montecarlo bot's moves stay legal in it."""
    rules = short(ba.variants.get(name), 3, 4)
    bots = [HeuristicBot(seed) for seed in range(rules.players)]
    state = ba.new_game(rules, seed=2)
    checked = 0
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if state.deals_played and state.phase is ba.Phase.PLAYING:
            hands = sample_hands(view, random.Random(checked))
            assert hands is not None
            again = lowlevel.determinise(view, hands)
            assert lowlevel.deal_context(again) == lowlevel.deal_context(state)
            assert (again.scores, again.deal_results) == (state.scores, state.deal_results)
            assert _public(again.view(seat)) == _public(view)
            move = MonteCarloBot(seed=checked, samples=2, budget=None).choose(view)
            assert move in view.legal_moves()
            checked += 1
        state = state.apply(bots[seat].choose(view))
    assert checked


def test_determinise_swapped_joker() -> None:
    """A turned Little Blooper: the Big Blooper's holder swapped it for the next stock card."""
    rules = short(ba.variants.GAMERULES, 3)
    hands = ["AS 5H 6D", "3S 7H BJ", "4S 8H 8D", "5S AH 3H"]
    order = deck_order(hands, "LJ", dealer=0, stock=["9C"])
    state = ba.new_game(rules, seed=1, dealer=0, decks=[order])
    assert state.discards == (ba.parse_card("BJ"),)
    for seat in range(4):
        view = state.view(seat)
        hands_now = sample_hands(view, random.Random(seat))
        assert hands_now is not None
        again = lowlevel.determinise(view, hands_now)
        assert _public(again.view(seat)) == _public(view)


# ------------------------------------------------------- hand-made positions


def test_heuristic_takes_an_obvious_trick() -> None:
    # dealer 0; seat 0 bid 2 and leads; seat 3's side (1 & 3) needs its trick
    state = _position(
        short(ba.variants.GAMERULES, 3),
        ["KH 5D 6D", "4H 7D 8D", "3H 9D TD", "AH 2H 9S"],
        "2C",
        ["bid 1", "pass", "pass", "bid 2", "play KH", "play 4H", "play 3H"],
    )
    assert state.to_act == 3
    assert HeuristicBot().choose(state.view(3)) == ba.parse_move("play AH")


_DUCK_HANDS = ["5S AH 3H", "AS 5H 6D", "3S 7H 7D", "4S 8H 8D"]
_DUCK_MOVES = [
    "bid 1", "pass", "pass", "pass",  # seat 1 contracts 1, seats 0 & 2 nothing
    "play AS", "play 3S", "play 4S", "play 5S",  # seat 1 makes its contract
    "play 5H", "play 7H", "play 8H",
]  # fmt: skip


def test_heuristic_ducks_an_overtrick_worth_nothing() -> None:
    """Both contracts are settled and overtricks score nothing: seat 0 ducks."""
    rules = short(ba.variants.GAMERULES, 3).replace(scoring=ContractScoring(per_overtrick=0))
    state = _position(rules, _DUCK_HANDS, "2C", _DUCK_MOVES)
    assert state.to_act == 0
    assert HeuristicBot().choose(state.view(0)) == ba.parse_move("play 3H")


def test_heuristic_takes_an_overtrick_that_scores() -> None:
    """The same position under the gamerules, where an overtrick scores a point."""
    state = _position(short(ba.variants.GAMERULES, 3), _DUCK_HANDS, "2C", _DUCK_MOVES)
    assert HeuristicBot().choose(state.view(0)) == ba.parse_move("play AH")


def test_heuristic_ducks_when_its_contract_is_hopeless() -> None:
    """Seat 0 bid board and lost the first trick; the other side has made its
    contract.  Under a scoring without overtrick points the trick is worth
    nothing to anyone, and seat 0 ducks; under the gamerules it is not."""
    hands = ["2D AH 3H", "AS AD 5H", "3S 4D 7D", "4S 5D 8D"]
    moves = ["pass", "pass", "bid 1", "board"]
    moves += ["play 2D", "play AD", "play 4D", "play 5D", "play 5H", "play 7D", "play 8D"]
    rules = short(ba.variants.GAMERULES, 3)
    state = _position(rules, hands, "2C", moves)
    assert state.to_act == 0
    assert HeuristicBot().trick_value(state.view(0)) > 0  # an overtrick still scores
    rules = rules.replace(scoring=ContractScoring(per_overtrick=0))
    state = _position(rules, hands, "2C", moves)
    assert HeuristicBot().trick_value(state.view(0)) == 0
    assert HeuristicBot().choose(state.view(0)) == ba.parse_move("play 3H")


def test_heuristic_bids_board_with_an_obvious_hand() -> None:
    state = _position(
        short(ba.variants.GAMERULES, 3), ["2D 3H 4S", "BJ LJ AC", "5D 6H 7S", "8D 9H TS"], "2C", []
    )
    assert state.to_act == 1
    assert HeuristicBot().choose(state.view(1)) == ba.BoardBid()
    assert MonteCarloBot(seed=1, samples=3, budget=None).choose(state.view(1)) == ba.BoardBid()
    # and a hand with nothing does not
    state = state.apply(ba.BoardBid())
    assert HeuristicBot().choose(state.view(2)) != ba.BoardBid()


def test_heuristic_names_its_strongest_suit() -> None:
    rules = short(ba.variants.VIETNAM, 4)
    hands = ["AS KS QS JS", "2D 3D 4D 5D", "2H 3H 4H 5H", "2C 3C 4C 5C"]
    state = _position(rules, hands, "6C", [])
    while state.phase is ba.Phase.BIDDING:
        state = state.apply(HeuristicBot().choose(state.view(state.to_act)))  # type: ignore[arg-type]
    # the spade hand's side holds the contract, or has doubled the other side's
    assert state.phase is ba.Phase.NAMING_TRUMP
    contract = state.contracts[0] or state.contracts[1]
    assert contract is not None
    assert state.contracts[0] is not None or contract.multiplier > 1
    # declaring, the spade hand names spades
    state = _position(rules, hands, "6C", ["pass", "pass", "pass", "bid 4"])
    assert state.phase is ba.Phase.NAMING_TRUMP and state.to_act == 0
    assert HeuristicBot().choose(state.view(0)) == ba.NameTrump(ba.Suit.SPADES)


# ------------------------------------------------------------- match runner


def test_duplicate_match_and_games() -> None:
    rules = short(ba.variants.GAMERULES, 3, 2)

    def heuristic(seed: object) -> HeuristicBot:
        return HeuristicBot(seed)

    def rnd(seed: object) -> RandomBot:
        return RandomBot(seed)

    result = duplicate_match(rules, heuristic, rnd, deals=12, seed=1)
    assert result.deals == len(result.differences) == 12
    lo, hi = result.interval
    assert lo <= result.mean <= hi
    assert result.mean > 0
    same = duplicate_match(rules, heuristic, heuristic, deals=6, seed=1)
    assert same.mean == 0  # the same bot on both sides of the same cards
    games = play_games(rules, heuristic, rnd, games=6, seed=1)
    assert games.wins + games.losses + games.draws == 6
    assert games.wins >= 4
    cut = duplicate_match(short(ba.variants.get("cutthroat-3"), 2), heuristic, rnd, deals=3)
    assert cut.deals == 3
    with pytest.raises(ba.SetupError):
        duplicate_match(rules, heuristic, rnd, deals=0)


@pytest.mark.slow
def test_heuristic_beats_random_in_every_one_of_100_games() -> None:
    """Whole 25-deal gamerules games (seeds 0..99, the heuristic's side taking
    turns): the heuristic wins all 100.  Under the vietnam auction, where one
    deal of two can swing a game, it wins at least 95 of 100."""
    games = play_games(ba.variants.GAMERULES, HeuristicBot, RandomBot, games=100, seed=0)
    assert (games.wins, games.losses, games.draws) == (100, 0, 0)
    vietnam = play_games(ba.variants.VIETNAM, HeuristicBot, RandomBot, games=100, seed=0)
    assert vietnam.wins >= 95, vietnam


def test_sample_hands_respects_voids() -> None:
    state = _position(
        short(ba.variants.GAMERULES, 3),
        ["KH 5D 6D", "4H 7D 8D", "3H 9D TD", "AH 2H 9S"],
        "2C",
        ["bid 1", "pass", "pass", "bid 2", "play 5D", "play 7D", "play 9D", "play 9S"],
    )
    view = state.view(1)
    for k in range(20):
        hands = sample_hands(view, random.Random(k))
        assert hands is not None
        diamonds = sum(1 << c.index for c in CARDS[13:26])
        assert not hands[3] & diamonds  # seat 3 showed out of diamonds
        assert [h.bit_count() for h in hands] == list(view.hand_counts)


def test_montecarlo_settings_and_evaluators(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    with pytest.raises(ba.SetupError, match="samples"):
        MonteCarloBot(samples=0)
    with pytest.raises(ba.SetupError, match="budget"):
        MonteCarloBot(budget=-1)
    with pytest.raises(ba.SetupError, match="evaluator"):
        MonteCarloBot(evaluator="oracle")  # type: ignore[arg-type]
    state = _position(
        short(ba.variants.GAMERULES, 3),
        ["KH 5D 6D", "4H 7D 8D", "3H 9D TD", "AH 2H 9S"],
        "2C",
        ["bid 1", "pass", "pass", "bid 2", "play KH", "play 4H", "play 3H"],
    )
    view = state.view(3)
    seen: list[ba.GameState] = []

    def value(after: ba.GameState, seat: int) -> float:
        seen.append(after)
        return 1.0 if ba.parse_card("2H") in after.tricks[-1].cards else 0.0

    # a callable evaluator decides: it prefers the deuce
    assert MonteCarloBot(seed=1, samples=2, evaluator=value).choose(view) == ba.parse_move("2H")
    assert len(seen) == 4  # two samples, two distinct cards (AH, 2H; 9S is not legal)

    # the solver evaluator uses backalley.solver when it exists
    calls: list[ba.GameState] = []

    def solve(s: ba.GameState) -> int:
        calls.append(s)
        return 0

    monkeypatch.setitem(sys.modules, "backalley.solver", types.SimpleNamespace(solve=solve))
    move = MonteCarloBot(seed=1, samples=2, evaluator="solver").choose(view)
    assert calls and move in view.legal_moves()


class _Passer:
    """A player who never contracts: every deal is thrown in."""

    def choose(self, view: ba.PlayerView) -> ba.Move:
        return ba.Pass() if ba.Pass() in view.legal_moves() else view.legal_moves()[0]


def test_a_game_thrown_in_deal_after_deal_is_stopped_not_dealt_forever() -> None:
    from backalley.bots import THROW_IN_LIMIT, check_throw_ins

    state = ba.new_game(ba.variants.GAMERULES, seed=1)
    for _ in range(4 * THROW_IN_LIMIT):
        state = state.apply(ba.Pass())
    assert lowlevel.thrown_in(state) == THROW_IN_LIMIT and state.deals_played == 0
    check_throw_ins(state)  # at the limit: the game goes on
    state = state.apply(ba.Pass()).apply(ba.Pass()).apply(ba.Pass()).apply(ba.Pass())
    with pytest.raises(ba.SetupError, match="thrown in"):
        check_throw_ins(state)
    with pytest.raises(ba.SetupError, match="would never end"):
        play_games(ba.variants.GAMERULES, lambda seed: _Passer(), lambda seed: _Passer(), games=1)


def test_heuristic_prefers_a_worthless_contract_to_a_throw_in() -> None:
    """Nothing scored for a made contract, bid 0 allowed: bidding 0 is worth
    nothing, as a throw-in is, and gets the deal played."""
    auction = attrs.evolve(ba.variants.VIETNAM.bidding, min_bid=0)
    scoring = attrs.evolve(ba.variants.VIETNAM.scoring, per_trick=0, set_per_trick=9)
    rules = ba.variants.VIETNAM.replace(bidding=auction, scoring=scoring, name=None)
    result = play_games(rules, HeuristicBot, HeuristicBot, games=1)
    assert result.games == 1


def test_rollout_value_plays_the_current_deal_and_refuses_a_finished_game() -> None:
    from backalley.bots.montecarlo import rollout_value

    rules = short(ba.variants.GAMERULES, 2)
    state = ba.new_game(rules, seed=3)
    value = rollout_value(state, 0)
    assert isinstance(value, float)
    while not state.is_over:
        state = state.apply(state.legal_moves()[-1])
    with pytest.raises(ba.SetupError, match="game is over"):
        rollout_value(state, 0)


def test_sample_hands_find_the_one_assignment_that_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    # seat 1 may hold only a, b, c; seat 2 only those or d, e, f; seat 3 only
    # d..i: the one fitting deal gives abc, def, ghi - a draw that lets seat 3
    # take d strands seat 2, so each card is kept only while the rest still fit
    view = _position(
        short(ba.variants.GAMERULES, 3),
        ["KH 5D 6D", "4H 7D 8D", "3H 9D TD", "AH 2H 9S"],
        "2C",
        [],
    ).view(0)
    a_to_i = [c.index for c in ba.parse_cards("2S 3S 4S 5S 6S 7S 8S TS JS")]
    allowed = {
        1: sum(1 << c for c in a_to_i[:3]),
        2: sum(1 << c for c in a_to_i[:6]),
        3: sum(1 << c for c in a_to_i[3:]),
    }
    monkeypatch.setattr(lowlevel, "possible_bits", lambda v, s: allowed[s])
    for k in range(30):
        hands = sample_hands(view, random.Random(k))
        assert hands is not None
        assert hands[1:] == [sum(1 << c for c in a_to_i[i : i + 3]) for i in (0, 3, 6)]


def test_sample_hands_answer_none_when_no_cards_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    view = _position(
        short(ba.variants.GAMERULES, 3),
        ["KH 5D 6D", "4H 7D 8D", "3H 9D TD", "AH 2H 9S"],
        "2C",
        [],
    ).view(0)
    # a rule whose possible cards leave seat 1 one card short
    real = lowlevel.possible_bits
    monkeypatch.setattr(
        lowlevel, "possible_bits", lambda v, s: real(v, s) & (0b11 if s == 1 else ~0)
    )
    assert sample_hands(view, random.Random(0)) is None


def test_montecarlo_counts_failed_samples_and_warns_on_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = _position(
        short(ba.variants.GAMERULES, 3),
        ["KH 5D 6D", "4H 7D 8D", "3H 9D TD", "AH 2H 9S"],
        "2C",
        ["bid 1", "pass", "pass", "bid 2"],
    )
    view = state.view(0)
    bot = MonteCarloBot(seed=1, samples=3, budget=None, evaluator=lambda s, seat: 0.0)
    bot.choose(view)
    assert (bot.stats.decisions, bot.stats.samples, bot.stats.failed) == (1, 3, 0)

    def refuse(view: ba.PlayerView, hands: object) -> ba.GameState:
        raise ba.SetupError("no deal reproduces this view")

    monkeypatch.setattr(lowlevel, "determinise", refuse)
    with pytest.warns(RuntimeWarning, match="heuristic bot decides"):
        move = bot.choose(view)
    assert move == HeuristicBot(1).choose(view)
    assert (bot.stats.decisions, bot.stats.samples, bot.stats.failed) == (2, 3, 3)
    assert bot.stats.fallbacks == 1
