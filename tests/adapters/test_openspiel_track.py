"""The OpenSpiel game's bookkeeping without OpenSpiel (backalley.adapters.track
and backalley.adapters.resampling): a track deals a drawn order as the engine
deals it, remembers every deal as each seat saw it, and resamples a position
a seat cannot tell from the true one - built from the seat's view alone,
without replaying the game.  None of these tests needs pyspiel or numpy."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import backalley as ba
from backalley.adapters.encoding import describe, table_of_view
from backalley.adapters.resampling import Uniform, redealt, resample
from backalley.adapters.track import (
    Track,
    advance,
    chance_outcomes,
    current_seat,
    deal_lines,
    is_over,
    receivers,
    start,
)

from ..helpers import deck_order


def short(rules: ba.RuleSet, *sizes: int) -> ba.RuleSet:
    return rules.replace(schedule=ba.rules.Schedule(sizes))


def draws(seed: int) -> Uniform:
    return Uniform(random.Random(seed).random)


def replayed(track: Track) -> Track:
    """The track that every action of ``track`` gives from the start."""
    again = start(track.rules, track.fixed_dealer)
    for action in track.actions:
        again = advance(again, action)
    return again


def random_tracks(rules: ba.RuleSet, seed: int, dealer: int | None = 0) -> list[Track]:
    """The track at every decision of a random game (and at its end)."""
    rng = random.Random(seed)
    track = start(rules, dealer)
    out = []
    while not is_over(track):
        if current_seat(track) is None:
            outcomes = [o for o, _p in chance_outcomes(track)]
            track = advance(track, rng.choice(outcomes))
        else:
            out.append(track)
            state = track.state
            assert state is not None
            track = advance(track, track.codes.id_of(rng.choice(state.legal_moves())))
    out.append(track)
    return out


def seen_by(track: Track, seat: int) -> tuple[str, str]:
    """What ``seat`` knows at ``track``: its view's description (hand, counts,
    calls, tricks) and its lines of every deal so far."""
    state = track.state
    assert state is not None
    return describe(table_of_view(state.view(seat))), "\n".join(deal_lines(track, seat))


def test_this_module_imports_no_framework() -> None:
    code = (
        "import sys, backalley.adapters.track, backalley.adapters.resampling; "
        "assert not {'pyspiel', 'numpy', 'open_spiel'} & set(sys.modules), sys.modules.keys()"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_drawn_order_is_dealt_as_a_new_game_deals_it() -> None:
    rules = short(ba.variants.GAMERULES, 3)
    hands = ["KH 5D 6D", "4H 7D 8D", "3H 9D TD", "AH 2H 9S"]
    order = [ba.parse_card(c).index for c in deck_order(hands, "2C", dealer=0)]
    track = start(rules, 0)
    for k, card in enumerate(order[:-1]):
        assert current_seat(track) is None and track.dealing
        # the cards go one at a time from the dealer's left; the rest is the stock
        assert receivers(track) == tuple((j + 1) % 4 if j < 12 else None for j in range(k))
        track = advance(track, card)
    assert not track.dealing and track.orders == (tuple(order),)
    expected = ba.new_game(rules, seed=0, dealer=0, decks=[[ba.CARDS[i] for i in order]])
    assert track.state == expected
    assert current_seat(track) == 1


def test_a_card_drawn_twice_or_no_seat_as_first_dealer_is_refused() -> None:
    rules = short(ba.variants.GAMERULES, 3)
    track = advance(start(rules, 0), 5)
    with pytest.raises(ba.SetupError, match="cannot be drawn now"):
        advance(track, 5)
    with pytest.raises(ba.SetupError, match=r"first dealer is a seat 0\.\.3, not 7"):
        advance(start(rules, None), 7)


def test_each_finished_deal_is_remembered_as_each_seat_saw_it() -> None:
    rules = short(ba.variants.GAMERULES, 2, 1)
    end = random_tracks(rules, 3)[-1]
    assert is_over(end) and len(end.recalled) >= 2
    for seat in range(4):
        mine = deal_lines(end, seat)
        hidden = deal_lines(end, seat, private=False)
        assert len(mine) == len(hidden) == len(end.recalled)
        first = end.recalled[0]
        hand = first.opening.view(seat).hand
        assert all(str(card) in mine[0].split("; ")[0] for card in hand)
        assert "hand ?," in hidden[0]
        # every move of the deal, in order, after the deal's facts
        assert mine[0].endswith(" ".join(map(str, first.moves)))
    assert end == replayed(end)


@pytest.mark.parametrize(
    ("rules", "seed"),
    [
        (short(ba.variants.GAMERULES, 5, 3), 1),
        (short(ba.variants.VIETNAM, 4), 2),
        (short(ba.variants.get("cutthroat-3"), 4), 3),
    ],
    ids=["gamerules", "vietnam", "cutthroat-3"],
)
def test_a_resampled_track_is_the_same_to_its_seat_and_is_the_replay_of_its_actions(
    rules: ba.RuleSet, seed: int
) -> None:
    checked = 0
    for track in random_tracks(rules, seed)[:-1]:
        for seat in range(rules.players):
            other = resample(track, seat, draws(checked))
            checked += 1
            assert seen_by(other, seat) == seen_by(track, seat)
            assert other.moves == track.moves and other.recalled == track.recalled
            assert other == replayed(other)
            state, again = track.state, other.state
            assert state is not None and again is not None
            assert again.hand(seat) == state.hand(seat)
            assert again.to_act == state.to_act
    assert checked > 40


def test_the_resample_depends_on_the_seats_information_alone() -> None:
    """Two positions seat 2 cannot tell apart resample alike from the same
    draws: nothing of the true hidden hands gets through."""
    rules = short(ba.variants.GAMERULES, 6)
    for track in random_tracks(rules, 4)[4:-1:5]:
        twin = resample(track, 2, draws(99))
        assert twin.state != track.state  # other hidden hands
        for k in range(5):
            assert resample(twin, 2, draws(k)) == resample(track, 2, draws(k))


def test_many_resamples_keep_every_hidden_card_hidden_and_respect_voids() -> None:
    rules = short(ba.variants.GAMERULES, 3)
    hands = ["KH 5D 6D", "4H 7D 8D", "3H 9D TD", "AH 2H 9S"]
    order = [ba.parse_card(c).index for c in deck_order(hands, "2C", dealer=0)]
    track = start(rules, 0)
    for card in order[:-1]:
        track = advance(track, card)
    for move in ("bid 1", "pass", "pass", "bid 2", "play 5D", "play 7D", "play 9D", "play 9S"):
        track = advance(track, track.codes.id_of(ba.parse_move(move)))
    diamonds = set(ba.parse_cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"))
    true = track.state
    assert true is not None
    held: list[set[frozenset[ba.Card]]] = [set() for _ in range(4)]
    for k in range(200):
        other = resample(track, 1, draws(k))
        state = other.state
        assert state is not None
        assert state.hand(1) == true.hand(1)
        assert not set(state.hand(3)) & diamonds  # seat 3 showed out of diamonds
        for seat in range(4):
            held[seat].add(frozenset(state.hand(seat)))
    assert len(held[1]) == 1 and all(len(held[s]) > 10 for s in (0, 2, 3))


def test_a_redealt_track_keeps_the_deals_before_it() -> None:
    rules = short(ba.variants.GAMERULES, 2, 3)
    track = next(t for t in random_tracks(rules, 6) if len(t.openings) == 2 and t.moves)
    other = resample(track, 0, draws(1))
    before = len(track.actions) - (len(track.moves) - track.openings[-1][1]) - 53
    assert other.actions[:before] == track.actions[:before]
    assert other.orders[:-1] == track.orders[:-1] and other.orders[-1] != track.orders[-1]
    assert other.openings[0] == track.openings[0]
    assert redealt(track, track.orders[-1]) == track


def test_an_order_the_deals_moves_do_not_fit_is_refused() -> None:
    rules = short(ba.variants.GAMERULES, 3)
    track = next(t for t in random_tracks(rules, 7) if t.state and t.state.tricks)
    with pytest.raises(ba.IllegalMoveError):
        redealt(track, tuple(reversed(track.orders[-1])))
