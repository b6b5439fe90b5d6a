"""What one seat may know: ``state.view(seat)`` (backalley/engine/views.py, hidden
information).

- a view never leaks: no card of another hand or of the stock, no seed, no
  deck order, appears in its JSON; two deals that differ only in what a seat
  cannot see give that seat the same view;
- the view answers ``legal_moves()``/``check()`` as the full state does for
  the seat to act; every other seat's view has no legal moves and refuses
  with NOT_YOUR_TURN (ALREADY_BID for a seat that has called, NOT_DECLARER
  for a seat other than the declarer while trump is named);
- ``possible_cards(seat)`` always holds the seat's real hand, never a card
  seen, and shows the voids a failure to follow reveals.
"""

from __future__ import annotations

import json
import random
import re

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backalley as ba
from backalley import lowlevel
from backalley.io.serialize import to_data
from backalley.io.vectors import probe_moves

from ..helpers import apply_all, position
from ..marks import by_variant
from ..randomgames import NAMES, games, positions, walk


def fast(examples: int) -> settings:
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


PUBLIC_KEYS = {
    "format",
    "version",
    "rules",
    "seat",
    "phase",
    "to_act",
    "dealer",
    "hand_size",
    "hand",
    "hand_counts",
    "turn_up",
    "discards",
    "trump",
    "calls",
    "bids",
    "declarer",
    "contracts",
    "trump_known",
    "trump_broken",
    "tricks_won",
    "side_tricks",
    "side_seats",
    "deals_played",
    "deals",
    "winner",
    "tricks",
    "trick",
    "leader",
    "scores",
    "deal_results",
    "legal_moves",
    "cards",
    "call_answers",
}


def hidden_from(state: ba.GameState, seat: int) -> list[ba.Card]:
    """The cards ``seat`` may not know: the other hands and the stock."""
    cards = [c for other, hand in enumerate(state.hands) if other != seat for c in hand]
    return cards + list(state.stock)


def assert_no_leak(state: ba.GameState, seat: int) -> None:
    view = state.view(seat)
    data = to_data(view)
    assert set(data) == PUBLIC_KEYS
    # Earlier deals are public and may name any card (their turn-ups): they
    # must be the state's, and the rest of the view must not name a hidden card.
    assert view.deal_results == state.deal_results
    current = json.dumps({k: v for k, v in data.items() if k != "deal_results"})
    for card in hidden_from(state, seat):
        assert f'"{card}"' not in current, f"seat {seat}'s view shows {card}"
    text = ba.to_json(view)
    assert '"seed"' not in text and '"stock"' not in text and '"decks"' not in text
    assert '"hands"' not in text
    if state.seed >= 10**6:
        assert not re.search(rf"\b{state.seed}\b", text), "the seed is in the view"
    for order in lowlevel.core(state).match.decks:
        assert " ".join(map(str, order[:8])) not in text
    # what the view holds itself, not only its JSON
    assert view.hand == state.hand(seat)
    assert view.hand_counts == tuple(len(h) for h in state.hands)
    assert not {"seed", "match", "decks", "stock_order", "dealt_bits"} & {
        f.name for f in attrs.fields(ba.PlayerView)
    }
    # the view read back by a client is the same view, and leaks nothing either
    loaded = ba.from_json(text, ba.PlayerView)
    assert loaded == view


@fast(40)
@given(positions())
def test_a_view_never_shows_another_hand_the_stock_or_the_seed(state: ba.GameState) -> None:
    for seat in range(state.players):
        assert_no_leak(state, seat)


@pytest.mark.parametrize("name", NAMES)
def test_views_of_every_variant_leak_nothing(name: str) -> None:
    for k, (state, _move) in enumerate(walk(ba.variants.get(name), 10**7 + len(name), 3)):
        if k % 23 == 0 or state.is_over:
            assert_no_leak(state, k % state.players)


def _same_for_seat(rules: ba.RuleSet, seed: int, seat: int) -> tuple[list[str], list[str]]:
    """Two deck orders that deal ``seat`` the same hand, turn up the same cards
    and leave the jokers where they were, but give every other seat (and the
    stock) different cards."""
    n, h = rules.players, rules.schedule.hand_sizes[0]
    deck = [str(c) for c in ba.CARDS if int((rules.deck).cards) >> c.index & 1]
    rng = random.Random(seed)
    order = list(deck)
    rng.shuffle(order)
    fixed = {k for k in range(len(order)) if k < n * h and (1 + k) % n == seat}
    fixed |= set(
        range(n * h, min(len(order), n * h + 4))
    )  # the turn-up (and a turned joker's next cards)
    fixed |= {k for k, c in enumerate(order) if c in ("BJ", "LJ")}
    free = [k for k in range(len(order)) if k not in fixed]
    other = list(order)
    moved = [order[k] for k in free]
    moved = moved[1:] + moved[:1]  # every free card to another place
    for k, c in zip(free, moved, strict=True):
        other[k] = c
    return order, other


@fast(25)
@given(st.sampled_from(NAMES), st.integers(0, 10**6), st.integers(0, 3), st.integers(0, 10))
def test_deals_that_differ_only_in_hidden_cards_give_the_same_view(
    name: str, seed: int, seat: int, calls: int
) -> None:
    rules = ba.variants.get(name)
    seat %= rules.players
    a_order, b_order = _same_for_seat(rules, seed, seat)
    a = ba.new_game(rules, dealer=0, decks=[a_order], seed=1)
    b = ba.new_game(rules, dealer=0, decks=[b_order], seed=2)
    assert a.hands[seat] == b.hands[seat]
    assert a.hands != b.hands
    rng = random.Random(seed)
    for _ in range(calls):  # calls do not depend on the cards: the same calls are legal in both
        if a.phase is not ba.Phase.BIDDING or a.deals_played or b.deals_played:
            break
        assert a.legal_moves() == b.legal_moves()
        move = rng.choice(a.legal_moves())
        a, b = a.apply(move), b.apply(move)
    if a.deals_played == 0 and lowlevel.core(a).match.deal_number == 1:
        assert a.view(seat) == b.view(seat)
        assert ba.to_json(a.view(seat)) == ba.to_json(b.view(seat))


# ------------------------------------------------------------------ legality


def _reason(
    target: ba.GameState | ba.PlayerView, move: ba.Move, **kw: int
) -> tuple[ba.Reason, str] | None:
    try:
        target.check(move, **kw)  # type: ignore[call-arg]
    except ba.IllegalMoveError as exc:
        return exc.reason, str(exc)
    return None


def assert_view_answers_as_the_state(state: ba.GameState, rng: random.Random) -> None:
    probes = list(probe_moves(state.hand_size))
    sample = rng.sample(probes, min(12, len(probes))) + list(state.legal_moves())
    for seat in range(state.players):
        view = state.view(seat)
        client = ba.from_json(ba.to_json(view), ba.PlayerView)
        if seat == state.to_act:
            assert view.legal_moves() == state.legal_moves()
            assert client.legal_moves() == state.legal_moves()
            for move in sample:
                expected = _reason(state, move)
                assert _reason(view, move) == expected, (seat, str(move))
                assert _reason(client, move) == expected
                assert view.is_legal(move) == (expected is None)
            continue
        assert view.legal_moves() == ()
        assert client.legal_moves() == ()
        for move in sample[:6]:
            got = _reason(view, move)
            assert got is not None
            if state.is_over:
                assert got[0] is ba.Reason.GAME_OVER
                assert got[0] == _reason(state, move)[0]  # type: ignore[index]
            elif state.phase is ba.Phase.BIDDING and state.bids[seat] is not None:
                assert got[0] is ba.Reason.ALREADY_BID
            elif state.phase is ba.Phase.NAMING_TRUMP:
                assert got[0] is ba.Reason.NOT_DECLARER
            else:
                assert got[0] is ba.Reason.NOT_YOUR_TURN
            if not state.is_over:
                assert got[0] == _reason(state, move, seat=seat)[0]  # type: ignore[index]
            assert _reason(client, move) == got


@fast(35)
@given(positions(), st.randoms(use_true_random=False))
def test_the_view_of_the_seat_to_act_answers_as_the_state(
    state: ba.GameState, rng: random.Random
) -> None:
    assert_view_answers_as_the_state(state, rng)


@pytest.mark.parametrize("name", NAMES)
def test_views_answer_as_the_state_through_a_game_of_every_variant(name: str) -> None:
    rng = random.Random(name)
    for k, (state, _move) in enumerate(walk(ba.variants.get(name), 77, 78)):
        if k % 31 == 0 or state.is_over:
            assert_view_answers_as_the_state(state, rng)


def test_a_seat_that_has_called_is_told_already_bid() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=5)
    first = state.to_act
    state = state.apply(state.legal_moves()[-1])
    with pytest.raises(ba.IllegalMoveError) as info:
        state.view(first).check(ba.Bid(1))
    assert info.value.reason is ba.Reason.ALREADY_BID
    waiting = (state.to_act + 1) % 4
    with pytest.raises(ba.IllegalMoveError) as info:
        state.view(waiting).check(ba.Bid(1))
    assert info.value.reason is ba.Reason.NOT_YOUR_TURN
    assert state.view(state.to_act).check(ba.Pass()) is None


def test_a_view_explains_a_refused_card_as_the_state_does() -> None:
    state = position(["AH 2C", "KH 3C", "QH 4C", "JH 5C"], "2S", dealer=3)
    state = apply_all(state, ["bid 1", "pass", "pass", "pass"])
    leader = state.to_act
    state = state.apply(ba.parse_move("play AH"))
    seat = state.to_act
    view = state.view(seat)
    card = next(c for c in view.hand if c.suit is ba.Suit.CLUBS)
    with pytest.raises(ba.IllegalMoveError) as from_view:
        view.check(ba.Play(card))
    with pytest.raises(ba.IllegalMoveError) as from_state:
        state.check(ba.Play(card))
    assert from_view.value.reason is from_state.value.reason is ba.Reason.MUST_FOLLOW_SUIT
    assert str(from_view.value) == str(from_state.value)
    assert "heart" in str(from_view.value)
    assert leader != seat


# ------------------------------------------------------------ possible cards


def _effective(card: ba.Card, trump: ba.Suit | None) -> str:
    """The suit a card counts as: jokers are trumps (a suit of their own without trump)."""
    if card.is_joker or card.suit == trump:
        return "trump"
    assert card.suit is not None
    return card.suit.value


def _voids(state: ba.GameState) -> dict[int, set[str]]:
    """The suits each seat has shown it lacks, by failing to follow this deal."""
    out: dict[int, set[str]] = {s: set() for s in range(state.players)}
    tricks = [t.plays for t in state.tricks] + [state.trick]
    for plays in tricks:
        if not plays:
            continue
        led = _effective(plays[0][1], state.trump)
        for seat, card in plays[1:]:
            if _effective(card, state.trump) != led:
                out[seat].add(led)
    return out


def assert_possible_cards(state: ba.GameState) -> None:
    voids = _voids(state)
    for observer in range(state.players):
        view = state.view(observer)
        seen = set(view.hand) | set(view.discards) | {c for _s, c in view.trick}
        seen |= {c for t in view.tricks for c in t.cards}
        if view.turn_up is not None:
            seen.add(view.turn_up)
        assert set(view.unseen_cards()).isdisjoint(seen)
        for seat in range(state.players):
            possible = set(view.possible_cards(seat))
            real = set(state.hand(seat))
            assert real <= possible, (
                f"seat {observer} rules out cards seat {seat} holds: {real - possible}"
            )
            if seat == observer:
                assert possible == real
                continue
            assert possible.isdisjoint(seen)
            assert len(possible) >= view.hand_counts[seat]
            for suit in voids[seat]:
                shown = {c for c in possible if _effective(c, state.trump) == suit}
                assert not shown, f"seat {seat} showed it has no {suit}, yet {shown} are possible"


@fast(40)
@given(positions())
def test_possible_cards_hold_the_real_hand_and_show_voids(state: ba.GameState) -> None:
    assert_possible_cards(state)


def test_what_a_seats_plays_rule_out_is_public_and_remembered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cards a seat's plays rule out do not depend on who asks: two
    observers' possible cards for a seat agree on every card neither sees.
    The plan remembers the answer by the public history: asked again, it
    asks the rules nothing; another observer's candidates cost only the
    cards the first could see (its own hand)."""
    from backalley.rules.plan import Plan

    rules = attrs.evolve(ba.variants.GAMERULES, name="ruled out")  # a plan of its own
    rng = random.Random(5)
    state = ba.new_game(rules, seed=5)
    while state.phase is not ba.Phase.PLAYING or len(state.tricks) < 4:
        state = state.apply(rng.choice(state.legal_moves()))
    asked: list[int] = []
    real = Plan.play_mask

    def counting(self: Plan, *args: object) -> int:
        asked.append(1)
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Plan, "play_mask", counting)
    a, b, seat = state.view(0), state.view(1), 2
    first = set(a.possible_cards(seat))
    once = len(asked)
    assert once > 0 and set(a.possible_cards(seat)) == first and len(asked) == once
    second = set(b.possible_cards(seat))
    unseen_both = set(a.unseen_cards()) & set(b.unseen_cards())
    assert first & unseen_both == second & unseen_both
    plays = sum(1 for t in state.tricks for s, _c in t.plays if s == seat)
    assert len(asked) - once <= plays * len(a.hand)  # only the cards a held were new to b
    assert set(state.hand(seat)) <= first & second


@pytest.mark.parametrize("name", by_variant(NAMES))
def test_possible_cards_through_a_game_of_every_variant(name: str) -> None:
    for k, (state, _move) in enumerate(walk(ba.variants.get(name), 5, 6)):
        if k > 300:
            break
        if state.phase is ba.Phase.PLAYING and k % 3 == 0:
            assert_possible_cards(state)


def test_a_failure_to_follow_shows_a_void() -> None:
    # seat 1 holds no heart: when it discards on a heart lead, nobody thinks it holds one
    state = position(["AH 2C 3C", "4D 5D 6D", "QH 4C 5C", "JH 6C 7C"], "2S", dealer=3)
    state = apply_all(state, ["bid 1", "pass", "pass", "pass"])
    assert state.to_act == 0
    before = state.view(2).possible_cards(1)
    assert any(c.suit is ba.Suit.HEARTS for c in before)
    state = apply_all(state, ["play AH", "play 4D"])
    for observer in (0, 2, 3):
        after = state.view(observer).possible_cards(1)
        assert not any(c.suit is ba.Suit.HEARTS for c in after)
        assert set(state.hand(1)) <= set(after)
        assert ba.parse_card("AH") not in after  # seen
    assert state.view(1).possible_cards(1) == state.hand(1)


def test_possible_cards_of_a_seat_that_does_not_exist() -> None:
    view = ba.new_game(seed=1).view(0)
    for seat in (4, -1, "1"):
        with pytest.raises(ba.BackAlleyError):
            view.possible_cards(seat)  # type: ignore[arg-type]


@fast(15)
@given(games())
def test_possible_cards_through_the_deal_of_a_random_point(
    game: tuple[ba.GameState, ba.GameState, list[ba.Move]],
) -> None:
    """Every state of the deal the random point is in: the real hands stay possible."""
    start, state, moves = game
    replayed = start
    for move in moves:
        replayed = replayed.apply(move)
        if (
            lowlevel.core(replayed).match.deal_number == lowlevel.core(state).match.deal_number
            and replayed.phase is ba.Phase.PLAYING
        ):
            assert_possible_cards(replayed)


def test_a_joker_left_in_the_stock_is_in_no_possible_hand() -> None:
    # gamerules: a turned joker means no trump; the holder of the other joker
    # swaps it for the next stock card.  When nobody swaps, every seat knows the
    # other joker is in the stock, so no seat may hold it.
    state = position(["AH 2C", "4D 5D", "QH 4C", "JH 6C"], "BJ", stock="LJ 7S")
    assert state.turn_up == ba.parse_card("BJ") and not state.discards
    little = ba.parse_card("LJ")
    for observer in range(4):
        view = state.view(observer)
        assert little in view.unseen_cards()
        for seat in range(4):
            assert little not in view.possible_cards(seat)


def test_a_swapped_joker_leaves_the_other_hands_possible() -> None:
    # the other joker was held and swapped: it is a discard, seen by everyone,
    # and the stock card drawn for it may be in the holder's hand
    state = position(["AH LJ", "4D 5D", "QH 4C", "JH 6C"], "BJ", stock="7S")
    assert state.discards == (ba.parse_card("LJ"),)
    view = state.view(2)
    assert ba.parse_card("7S") in view.possible_cards(0)
    assert ba.parse_card("LJ") not in view.possible_cards(0)


def test_a_seat_is_a_plain_whole_number_for_possible_cards() -> None:
    view = position(["AH 2C", "4D 5D", "QH 4C", "JH 6C"], "2S").view(0)
    for seat in (True, 1.0, 4, -1):
        with pytest.raises(ba.SetupError):
            view.possible_cards(seat)  # type: ignore[arg-type]
