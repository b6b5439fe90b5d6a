"""The text diagram of a position (backalley.render.diagram) and suit symbols in notation."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings

import backalley as ba
from backalley.render.diagram import diagram, hand_text

from .randomgames import positions


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


def test_the_trick_calls_and_contracts_show() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=11)
    rng = random.Random(2)
    while state.phase is not ba.Phase.PLAYING or len(state.trick) < 2:
        state = state.apply(rng.choice(state.legal_moves()))
    text = state.diagram(ascii=True)
    names = ["North", "East", "South", "West"]
    (leader, _), (second, card) = state.trick[:2]
    assert f"Trick: {names[leader]} " in text and f"{names[second]} {card}" in text
    assert f"({names[leader]} led)" in text
    for seat, call in enumerate(state.bids):
        (line,) = [x for x in text.splitlines() if x[2:].startswith(names[seat])]
        assert str(call) in line
    assert "contract" in text.splitlines()[-1]
    legal = diagram(state, ascii=True, legal=True).splitlines()
    assert "Legal: " + " ".join(str(m) for m in state.legal_moves()) in legal


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_a_view_diagram_shows_its_own_hand_and_counts_of_the_others(state: ba.GameState) -> None:
    names = [f"Seat {k + 1}" for k in range(state.players)]  # unambiguous line starts
    for seat in range(state.players):
        view = state.view(seat)
        for ascii in (False, True):
            lines = diagram(view, ascii=ascii, names=names).splitlines()
            for other, hand in enumerate(state.hands):
                (line,) = [x for x in lines if x[2:].startswith(names[other] + " ")]
                if other == seat:
                    assert line.endswith(hand_text(hand, ascii) if hand else "(no cards)")
                else:
                    assert line.endswith(f"won {view.tricks_won[other]:<3} ({len(hand)} cards)")
            public = " ".join(lines[:1] + [x for x in lines if x.startswith(("Trick", "Last"))])
            known = set(view.hand) | set(view.discards) | {c for _s, c in view.trick}
            known |= {view.turn_up} | (set(view.tricks[-1].cards) if view.tricks else set())
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
