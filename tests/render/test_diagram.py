"""The text diagram of a position (backalley.render.diagram) and suit symbols in notation."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings

import backalley as ba
from backalley.render.diagram import card_text, diagram, hand_text

from ..randomgames import positions


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("Q♠", "QS"),
        ("q♤", "QS"),
        ("10♥", "TH"),
        ("T♡", "TH"),
        ("A♦", "AD"),
        ("2♢", "2D"),
        ("K♣", "KC"),
        (" J♧ ", "JC"),
    ],
)
def test_cards_read_suit_symbols(text: str, card: str) -> None:
    assert ba.parse_card(text) == ba.parse_card(card)
    assert str(ba.parse_card(text)) == card  # the canonical text stays ASCII


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("play Q♠", "play QS"),
        ("Q♠", "play QS"),
        ("10♡", "play TH"),
        ("trump ♥", "trump H"),
        ("TRUMP ♤", "trump S"),
    ],
)
def test_moves_read_suit_symbols(text: str, move: str) -> None:
    assert ba.parse_move(text) == ba.parse_move(move)
    assert str(ba.parse_move(text)) == move


@pytest.mark.parametrize(
    "text",
    [
        "Q\u017f",  # LATIN SMALL LETTER LONG S: "\u017f".upper() == "S"
        "\u212aS",  # KELVIN SIGN: "\u212a".lower() == "k"
        "Q\u0455",  # CYRILLIC SMALL LETTER DZE, looks like an s
        "QS\u00a0",  # a no-break space
        "Q♠\ufe0f",  # an emoji variation selector
        "Q★",
        "♠",
    ],
)
def test_other_characters_are_refused(text: str) -> None:
    with pytest.raises(ba.NotationError):
        ba.parse_card(text)
    with pytest.raises(ba.NotationError):
        ba.parse_move(f"play {text}")


@pytest.mark.parametrize(
    "text", ["play \u212aS", "bid \uff13", "trump \u017f", "pa\u017fs", "\u212a♠"]
)
def test_moves_with_other_characters_are_refused(text: str) -> None:
    with pytest.raises(ba.NotationError, match="U\\+"):
        ba.parse_move(text)


def test_suits_read_symbols() -> None:
    assert ba.Suit.parse("♥") is ba.Suit.HEARTS
    assert ba.Suit.parse("♧") is ba.Suit.CLUBS
    with pytest.raises(ba.NotationError):
        ba.Suit.parse("\u017f")


def test_a_state_diagram_shows_every_hand_and_the_facts() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=4)
    text = state.diagram()
    assert text == diagram(state)
    lines = text.splitlines()
    turn_up = state.turn_up
    assert turn_up is not None
    assert lines[0].startswith("gamerules · deal 1 of 25 · 13 cards · turn-up ")
    assert lines[1] == f"Bidding: {['North', 'East', 'South', 'West'][state.to_act]} to call"  # type: ignore[index]
    for seat, name in enumerate(["North", "East", "South", "West"]):
        (line,) = [x for x in lines if x[2:].startswith(name)]
        assert line.startswith("▶" if seat == state.to_act else " ")
        assert hand_text(state.hands[seat]) in line
        assert (" D " in line) == (seat == state.dealer)
    assert lines[-1] == "Scores: N\u2013S 0 · E\u2013W 0"
    ascii = state.diagram(ascii=True)
    assert ascii.isascii()
    assert "Scores: N-S 0 | E-W 0" in ascii


def test_hand_text_groups_by_suit() -> None:
    cards = ba.parse_cards("2C TH AS BJ KS 5D QH")
    assert hand_text(cards) == "BJ  ♠ A K  ♥ Q 10  ♣ 2  ♦ 5"
    assert hand_text(cards, ascii=True) == "BJ  S: A K  H: Q T  C: 2  D: 5"
    marked = ba.parse_cards("BJ KS TH")
    assert hand_text(cards, marked=marked) == "BJ*  ♠ A K*  ♥ Q 10*  ♣ 2  ♦ 5"
    assert hand_text(cards, ascii=True, marked=marked) == "BJ*  S: A K*  H: Q T*  C: 2  D: 5"


def test_the_trick_calls_and_contracts_show() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=11)
    rng = random.Random(2)
    while state.phase is not ba.Phase.PLAYING or len(state.trick) < 2:
        state = state.apply(rng.choice(state.legal_moves()))
    text = state.diagram(ascii=True)
    names = ["North", "East", "South", "West"]
    (leader, first), (second, card) = state.trick[:2]
    assert f"Trick: {names[leader]} led {first}, {names[second]} {card}" in text
    for seat, call in enumerate(state.bids):
        (line,) = [x for x in text.splitlines() if x[2:].startswith(names[seat])]
        assert str(call) in line
    assert "contract" in text.splitlines()[-1]
    legal = diagram(state, ascii=True, legal=True).splitlines()
    assert "Legal: " + " ".join(str(m) for m in state.legal_moves()) in legal


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_a_view_diagram_shows_its_own_hand_and_counts_of_the_others(state: ba.GameState) -> None:
    names = ba.rules.seats.seat_names(state.rules)
    players = [f"bot {k + 1}" for k in range(state.players)]
    for seat in range(state.players):
        view = state.view(seat)
        for ascii in (False, True):
            lines = diagram(view, ascii=ascii, players=players, legal=True).splitlines()
            for other, hand in enumerate(state.hands):
                label = f"{names[other]} ({players[other]}) "
                (line,) = [x for x in lines if x[2:].startswith(label)]
                if other == seat:
                    mine = view.legal_moves() if view.to_act == seat else ()
                    legal = {m.card for m in mine if isinstance(m, ba.Play)}
                    assert line.endswith(hand_text(hand, ascii, legal) if hand else "(no cards)")
                else:
                    assert line.endswith(f"won {view.tricks_won[other]:<3} ({len(hand)} cards)")
            public = " ".join(lines[:1] + [x for x in lines if x.startswith(("Trick", "Last"))])
            known = set(view.hand) | set(view.discards) | {c for _s, c in view.trick}
            known |= set(view.tricks[-1].cards) if view.tricks else set()
            if view.turn_up is not None:
                known.add(view.turn_up)
            for other, hand in enumerate(state.hands):
                for card in hand:
                    if other != seat and card not in known:
                        assert str(card) not in public.split()


def test_cutthroat_seats_are_numbered() -> None:
    state = ba.new_game(ba.variants.get("cutthroat-3"), seed=2)
    text = state.diagram()
    for k in (1, 2, 3):
        assert f"Seat {k}" in text
    assert "North" not in text
    assert "Scores: Seat 1 0 · Seat 2 0 · Seat 3 0" in text


COMPASS = ["North", "East", "South", "West"]


def seat_line(text: str, label: str) -> str:
    (line,) = [x for x in text.splitlines() if x[2:].startswith(label + " ")]
    return line


def test_seats_keep_their_names_with_the_players_beside_them() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=4)
    text = diagram(state, players=["heuristic"] * 4)
    for seat, name in enumerate(COMPASS):
        assert hand_text(state.hands[seat]) in seat_line(text, f"{name} (heuristic)")
    assert text.splitlines()[1].endswith(f"{COMPASS[state.to_act]} to call")  # type: ignore[index]
    assert text.splitlines()[-1] == "Scores: N\u2013S 0 · E\u2013W 0"
    assert "heuristic +" not in text
    # a seat's own name is not repeated; a long name is cut (to 24 characters)
    text = diagram(state, players=["North", "x" * 40, " ", "Di"], ascii=True)
    assert seat_line(text, "North").split()[1] != "(North)"
    assert seat_line(text, f"East ({'x' * 21}...)")
    assert seat_line(text, "South")
    assert seat_line(text, "West (Di)")
    with pytest.raises(ba.SetupError, match="players: give one name"):
        diagram(state, players=["A", "B"])


def playing_positions(name: str, seed: int) -> list[ba.GameState]:
    state = ba.new_game(ba.variants.get(name), seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.is_over:
        if state.phase is ba.Phase.PLAYING:
            out.append(state)
        state = state.apply(rng.choice(state.legal_moves()))
    return out


def starred(line: str) -> list[str]:
    return [word[:-1] for word in line.split() if word.endswith("*")]


def test_legal_marks_star_exactly_the_legal_cards_of_the_seat_to_act() -> None:
    partial = 0
    for state in playing_positions("must-head", 3)[::5]:
        seat = state.to_act
        assert seat is not None
        legal = sorted(m.card for m in state.legal_moves() if isinstance(m, ba.Play))
        for ascii in (False, True):
            text = diagram(state, ascii=ascii, legal=True)
            lines = text.splitlines()
            for other, name in enumerate(COMPASS):
                marks = starred(seat_line(text, name))
                if other != seat:
                    assert marks == []
                    continue
                assert len(marks) == len(legal)
                assert seat_line(text, name).endswith(hand_text(state.hands[seat], ascii, legal))
            plays = [m for m in state.legal_moves() if isinstance(m, ba.Play)]
            shown = [str(m) for m in plays] if ascii else [card_text(m.card) for m in plays]
            assert "Legal: " + " ".join(shown) in lines
        assert "*" not in diagram(state)  # off unless asked for
        assert "*" not in diagram(state.view((seat + 1) % 4), legal=True)
        own = diagram(state.view(seat), legal=True)
        assert len(starred(seat_line(own, COMPASS[seat]))) == len(legal)
        partial += len(legal) < len(state.hands[seat])
    assert partial


def test_the_leaders_card_comes_first_and_is_marked_led() -> None:
    for state in playing_positions("gamerules", 8)[:60]:
        text = diagram(state, ascii=True)
        if state.trick:
            plays = [f"{COMPASS[s]} {c}" for s, c in state.trick]
            plays[0] = plays[0].replace(" ", " led ", 1)
            assert f"Trick: {', '.join(plays)}" in text.splitlines()
        elif state.tricks:
            done = state.tricks[-1]
            plays = [f"{COMPASS[s]} {c}" for s, c in done.plays]
            plays[0] = plays[0].replace(" ", " led ", 1)
            line = f"Last trick: {', '.join(plays)}, won by {COMPASS[done.winner]}"
            assert line in text.splitlines()
