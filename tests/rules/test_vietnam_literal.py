"""The literal reading of the Vietnam auction:
options ``speakers`` and ``counter_style`` of the auction, and the preset
``vietnam-literal`` (one announcement per side; a multiple of the first
announcement doubles, triples or quadruples the contract).

Positions are dealt with dealer 0, so seat 1 speaks first (for side 1) and
seat 2 second (for side 0).
"""

from __future__ import annotations

import pickle
from typing import Any, ClassVar

import attrs
import pytest

import backalley as ba
from backalley import houserules
from backalley.rules import Auction, CounterHolder, CounterStyle, Speakers

from ..helpers import calls, refused

V = ba.variants
R = ba.Reason
LITERAL = V.VIETNAM_LITERAL


def game(rules: ba.RuleSet = LITERAL, seed: int = 3) -> ba.GameState:
    return ba.new_game(rules, dealer=0, seed=seed)


def with_auction(**options: Any) -> ba.RuleSet:
    return V.VIETNAM.replace(bidding=Auction(**options))


def sheet(rules: ba.RuleSet) -> str:
    return " ".join(rules.describe().split())


# ------------------------------------------------------------ the preset


def test_the_preset_is_vietnam_with_the_literal_auction() -> None:
    """The vietnam-literal preset is VIETNAM with speakers = one-per-team and
    counter_style = multiple-bid, registered with a note."""
    assert V.get("vietnam-literal") is LITERAL
    assert (
        V.VIETNAM.replace(
            bidding=Auction(speakers=Speakers.ONE_PER_TEAM, counter_style=CounterStyle.MULTIPLE_BID)
        )
        == LITERAL
    )
    assert "vietnam-literal" in V.names() and V.PRESET_NOTES["vietnam-literal"]
    assert Auction().speakers is Speakers.EACH_PLAYER
    assert Auction().counter_style is CounterStyle.STEP
    assert Auction().counter_holder is CounterHolder.ANNOUNCER
    loaded = houserules.loads(
        'base = "vietnam"\n[bidding]\nspeakers = "one-per-team"\ncounter_style = "multiple-bid"\n'
    )
    assert loaded == LITERAL
    assert ba.from_json(ba.to_json(LITERAL), ba.RuleSet) == LITERAL


def test_the_literal_preset_sheet() -> None:
    """The sheet states the one announcement per side and the multiples."""
    text = sheet(LITERAL)
    assert "each side makes exactly one announcement, starting left of the dealer" in text
    assert "then the next player clockwise for the other side" in text
    assert (
        "at least 2 times carries x2; at least 3 times carries x3; at least 4 times carries x4"
        in text
    )
    assert "3 then 7 is a double" in text
    assert "counter (" not in text and "each player speaks once" not in text
    assert "times the contract's multiplier" in text


# ---------------------------------------------------- speakers = one-per-team


def test_each_team_makes_one_announcement() -> None:
    """Left of the dealer speaks for their side, then the next
    player for the other side; the higher announcement declares, names trump and leads."""
    state = game()
    assert state.to_act == 1
    state = calls(state, "bid 3")
    assert state.to_act == 2 and state.phase is ba.Phase.BIDDING
    assert refused(state, "bid 3") is R.BID_NOT_HIGHER
    state = calls(state, "bid 5")
    assert state.phase is ba.Phase.NAMING_TRUMP
    assert state.bids == (None, ba.Bid(3), ba.Bid(5), None)
    assert state.declarer == 2 and state.to_act == 2
    assert state.contracts == (ba.Contract(5, declarer=2), None)
    state = calls(state, "trump H")
    assert state.phase is ba.Phase.PLAYING and state.to_act == 2


def test_the_second_team_may_pass() -> None:
    """The second side overbids or passes; a pass leaves the first side declarer."""
    state = calls(game(), "bid 4", "pass")
    assert state.declarer == 1 and state.contracts == (None, ba.Contract(4, declarer=1))
    assert state.phase is ba.Phase.NAMING_TRUMP


def test_the_second_team_may_announce_after_a_pass() -> None:
    """If the first side passes, the second may still announce."""
    state = calls(game(), "pass", "bid 2")
    assert state.declarer == 2 and state.contracts == (ba.Contract(2, declarer=2), None)


def test_both_pass_is_all_pass() -> None:
    """Both sides pass -> all_pass (redeal by the next dealer)."""
    state = calls(game(), "pass", "pass")
    assert state.phase is ba.Phase.BIDDING
    assert state.dealer == 1 and state.deals_played == 0 and state.calls == ()
    assert state.to_act == 2


def test_seats_that_do_not_speak_are_told_so() -> None:
    """Only the first two seats speak; others are not to act."""
    state = calls(game(), "bid 4")
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(ba.Pass(), seat=3)
    assert info.value.reason is R.NOT_YOUR_TURN
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(ba.Pass(), seat=1)
    assert info.value.reason is R.ALREADY_BID


def test_one_per_team_with_step_counters_allows_one_double() -> None:
    """With one announcement per side and counter_style = step, the second side's one call
    may be the double."""
    rules = with_auction(speakers=Speakers.ONE_PER_TEAM)
    state = calls(game(rules), "bid 5")
    assert ba.Counter() in state.legal_moves()
    state = calls(state, "counter")
    assert state.phase is ba.Phase.NAMING_TRUMP
    # the double multiplies side 1's 5 (counter_holder = announcer, the default) ...
    assert state.contracts == (None, ba.Contract(5, multiplier=2, declarer=1))
    # ... or, as the source has it, side 0 takes it over (counter_holder = countering-side)
    taken = with_auction(
        speakers=Speakers.ONE_PER_TEAM, counter_holder=CounterHolder.COUNTERING_SIDE
    )
    state = calls(game(taken), "bid 5", "counter")
    assert state.contracts == (ba.Contract(5, multiplier=2, declarer=2), None)


def test_cutthroat_one_per_team_is_every_player() -> None:
    """Choice (docs): without partnerships each player is a side, so every player speaks."""
    rules = V.VIETNAM_CUTTHROAT.replace(bidding=LITERAL.bidding)
    state = calls(game(rules), "bid 2", "bid 3", "bid 4")
    assert state.phase is ba.Phase.BIDDING and state.to_act == 0
    state = calls(state, "bid 8")
    assert state.phase is ba.Phase.NAMING_TRUMP
    assert state.declarer == 0 and state.contracts[0] == ba.Contract(8, multiplier=2, declarer=0)


@attrs.frozen
class Neighbours:
    """A test seating: partners side by side (0 & 1 against 2 & 3)."""

    tag: ClassVar[str] = "test-neighbours"
    part: ClassVar[str] = "seating"

    @property
    def players(self) -> int:
        return 4

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        return ((0, 1), (2, 3))

    def team_of(self, seat: int) -> int:
        return seat // 2

    def describe(self) -> str:
        return "Partners side by side."

    def needs(self) -> frozenset[str]:
        return frozenset()

    def provides(self) -> frozenset[str]:
        return frozenset()

    def problems(self, rules: Any) -> list[str]:
        return []

    def options(self) -> dict[str, Any]:
        return {}

    def summary(self) -> str:
        return self.tag


def test_one_per_team_needs_consecutive_seats_of_different_sides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Choice (docs): one speaker per side speaks clockwise, so a seating where
    neighbours are partners is refused, naming the parts."""
    from backalley.rules import registry

    scratch = {part: dict(table) for part, table in registry._REGISTRY.items()}
    monkeypatch.setattr(registry, "_REGISTRY", scratch)  # the test class leaves no trace
    ba.rules.register(Neighbours)
    V.VIETNAM.replace(seating=Neighbours())  # each player speaking is fine
    with pytest.raises(ba.RuleSetError) as info:
        LITERAL.replace(seating=Neighbours())
    assert "bidding and seating" in str(info.value)


# ------------------------------------------------- counter_style = multiple-bid


@pytest.mark.parametrize(
    ("first", "second", "multiplier"),
    [
        (3, 7, 2),
        (3, 9, 3),
        (4, 8, 2),
        (3, 12, 4),
        (3, 5, 1),
        (3, 6, 2),
        (4, 12, 3),
        (4, 13, 3),
        (2, 13, 4),
    ],
)
def test_multiple_bid_multipliers(first: int, second: int, multiplier: int) -> None:
    """A second announcement of at least 2x, 3x or 4x the first
    carries x2, x3 or x4 (3 then 7 is a double, 3 then 9 a triple, 4 then 8 a double)."""
    state = calls(game(), f"bid {first}", f"bid {second}")
    assert state.contracts == (ba.Contract(second, multiplier=multiplier, declarer=2), None)


@pytest.mark.parametrize(
    ("first", "possible"),
    [
        (1, {2, 3, 4}),
        (3, {1, 2, 3, 4}),
        (4, {1, 2, 3}),
        (5, {1, 2}),
        (6, {1, 2}),
        (7, {1}),
        (12, {1}),
    ],
)
def test_large_first_announcements_leave_fewer_multiples(first: int, possible: set[int]) -> None:
    """Within 13 tricks a larger first announcement leaves fewer
    multiples: from 5 on only a double (10+) or a plain overbid; from 7 on only
    a plain overbid (a first 4 still allows a triple with 12 or 13, which the
    rule's own arithmetic gives)."""
    state = calls(game(), f"bid {first}")
    seen = set()
    for move in state.legal_moves():
        if isinstance(move, ba.Bid):
            contract = state.apply(move).contracts[0]  # type: ignore[index]
            seen.add(contract.multiplier)
    assert seen == possible


def test_multiple_bid_has_no_counter_calls() -> None:
    """With multiple-bid there are no counter calls."""
    state = calls(game(), "bid 3")
    assert not any(isinstance(m, ba.Counter) for m in state.legal_moves())
    assert refused(state, "counter") is R.COUNTER_NOT_ALLOWED
    assert refused(state, ba.Counter(2)) is R.COUNTER_NOT_ALLOWED


def test_multiple_bid_with_every_player_speaking() -> None:
    """Choice (docs): a multiple is counted against the number it overbids,
    and only against another side's; multipliers do not accumulate."""
    rules = with_auction(counter_style=CounterStyle.MULTIPLE_BID)
    assert calls(game(rules), "bid 2", "bid 4", "bid 8", "pass").contracts == (
        None,
        ba.Contract(8, multiplier=2, declarer=3),
    )
    # partner overbidding partner: no multiplier
    assert calls(game(rules), "bid 2", "pass", "bid 6", "pass").contracts == (
        None,
        ba.Contract(6, declarer=3),
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_multiplied_contracts_score_made_and_failed(seed: int) -> None:
    """The team that announced second and doubled the first
    scores 20 per trick when made; a failed doubled contract loses 20 per contracted trick."""
    state = calls(game(seed=seed), "bid 3", "bid 7", "trump S")
    contract = state.contracts[0]  # type: ignore[index]
    assert contract == ba.Contract(7, multiplier=2, declarer=2)
    while state.deals_played == 0:
        state = state.apply(state.legal_moves()[seed % len(state.legal_moves())])
    result = state.deal_results[0]
    taken = result.tricks[0]
    expected = 10 * taken * 2 if taken >= 7 else -10 * 7 * 2
    assert result.points == (expected, 0)
    scoring = LITERAL.scoring
    assert scoring.side_points([contract, None], (8, 5), 13, LITERAL.teams, [0] * 4, 0) == (160, 0)
    assert scoring.side_points([contract, None], (6, 7), 13, LITERAL.teams, [0] * 4, 0) == (-140, 0)
    tripled = ba.Contract(9, multiplier=3, declarer=2)
    assert scoring.side_points([tripled, None], (10, 3), 13, LITERAL.teams, [0] * 4, 0) == (300, 0)


# ------------------------------------------------------ counter_style = direct


def test_direct_counter_cannot_be_answered() -> None:
    """The other side answers a contract with one call of double,
    triple or quadruple, which cannot be answered (and, as the source has it, takes the
    contract over: counter_holder = countering-side)."""
    rules = with_auction(
        counter_style=CounterStyle.DIRECT, counter_holder=CounterHolder.COUNTERING_SIDE
    )
    state = calls(game(rules), "bid 7")
    counters = [m for m in state.legal_moves() if isinstance(m, ba.Counter)]
    assert counters == [ba.Counter(2), ba.Counter(3), ba.Counter(4)]
    assert refused(state, "counter") is R.COUNTER_NOT_ALLOWED
    state = calls(state, "counter x3")
    assert state.legal_moves() == (ba.Pass(),)
    assert refused(state, "bid 8") is R.COUNTER_LIMIT
    assert refused(state, ba.Counter(4)) is R.COUNTER_LIMIT
    state = calls(state, "pass", "pass")
    assert state.contracts == (ba.Contract(7, multiplier=3, declarer=2), None)
    assert state.declarer == 2
    # with the default counter_holder the counter multiplies seat 1's contract
    state = calls(game(with_auction(counter_style=CounterStyle.DIRECT)), "bid 7", "counter x3")
    assert state.legal_moves() == (ba.Pass(),)
    state = calls(state, "pass", "pass")
    assert state.contracts == (None, ba.Contract(7, multiplier=3, declarer=1))


def test_a_state_with_a_direct_counter_pickles_to_an_equal_state() -> None:
    rules = with_auction(counter_style=CounterStyle.DIRECT)
    state = calls(game(rules), "bid 7", "counter x3")
    back = pickle.loads(pickle.dumps(state))
    assert back.calls == state.calls and back.calls[-1] == ba.Counter(3)
    assert back.legal_moves() == state.legal_moves() == (ba.Pass(),)


def test_direct_counter_only_against_the_other_side() -> None:
    """A side cannot counter its own contract."""
    rules = with_auction(counter_style=CounterStyle.DIRECT)
    state = calls(game(rules), "bid 7", "pass")
    assert state.to_act == 3  # seat 1's partner
    assert refused(state, ba.Counter(2)) is R.COUNTER_NOT_ALLOWED
    state = calls(game(rules), "bid 7")
    assert refused(state, ba.Counter(5)) is R.COUNTER_LIMIT


def test_direct_counter_with_one_announcement_per_team() -> None:
    """One-per-team with direct counters: the second side's call is the counter."""
    rules = with_auction(
        speakers=Speakers.ONE_PER_TEAM,
        counter_style=CounterStyle.DIRECT,
        counter_holder=CounterHolder.COUNTERING_SIDE,
    )
    state = calls(game(rules), "bid 4", "counter x4")
    assert state.phase is ba.Phase.NAMING_TRUMP
    assert state.contracts == (ba.Contract(4, multiplier=4, declarer=2), None)


def test_step_counters_refuse_a_named_multiplier() -> None:
    """Step counters go one step at a time."""
    state = calls(game(V.VIETNAM), "bid 7")
    assert refused(state, ba.Counter(3)) is R.COUNTER_NOT_ALLOWED
    assert state.is_legal(ba.Counter())


def test_direct_counter_text() -> None:
    """A direct counter's text names its multiplier and round-trips."""
    for k in (2, 3, 4, 12):
        assert ba.parse_move(str(ba.Counter(k))) == ba.Counter(k)
    assert str(ba.Counter(3)) == "counter x3"
    assert ba.parse_move("double") == ba.Counter()  # the step counter, as before
    for bad in ("counter x1", "counter x", "counter x100", "counter 3"):
        with pytest.raises(ba.NotationError):
            ba.parse_move(bad)
    with pytest.raises(ba.NotationError):
        ba.Counter(1)


# --------------------------------------------------------- documents & views


def test_views_and_states_round_trip_mid_auction() -> None:
    """The view loader replays the calls through the bidding part, which ends
    the bidding after one call per side."""
    for state in (
        calls(game(), "bid 3"),
        calls(game(), "bid 3", "bid 7"),
        calls(game(), "bid 3", "bid 7", "trump D"),
    ):
        assert ba.from_json(ba.to_json(state), ba.GameState) == state
        for seat in range(4):
            view = state.view(seat)
            assert ba.from_json(ba.to_json(view), ba.PlayerView) == view
    rules = with_auction(counter_style=CounterStyle.DIRECT)
    state = calls(game(rules), "bid 7", "counter x3", "pass")
    assert ba.from_json(ba.to_json(state.view(0)), ba.PlayerView) == state.view(0)
