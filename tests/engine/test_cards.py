"""Cards and their notation: rank then suit (``10C`` accepted for ``TC``), jokers ``BJ``, ``LJ``."""

from __future__ import annotations

import attrs
import pytest

import backalley as ba
from backalley.cards import BIG_JOKER, LITTLE_JOKER

SUITS = "CDHS"
RANKS = "23456789TJQKA"
ALL_TEXTS = [r + s for s in SUITS for r in RANKS] + ["LJ", "BJ"]


def test_there_are_54_distinct_cards():
    """52 standard cards plus two distinguishable jokers."""
    assert len(ba.CARDS) == 54
    assert len(set(ba.CARDS)) == 54
    assert [str(c) for c in ba.CARDS] == ALL_TEXTS
    jokers = [c for c in ba.CARDS if c.is_joker]
    assert jokers == [LITTLE_JOKER, BIG_JOKER]
    assert LITTLE_JOKER != BIG_JOKER


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_parse_and_str_round_trip(text):
    card = ba.parse_card(text)
    assert str(card) == text
    assert ba.parse_card(str(card)) == card
    assert ba.parse_card(text.lower()) == card
    assert ba.parse_card(f"  {text} ") == card
    assert ba.parse_card(card) is card


@pytest.mark.parametrize("suit", SUITS)
def test_ten_aliases(suit):
    ten = ba.parse_card("T" + suit)
    assert ba.parse_card("10" + suit) == ten
    assert ba.parse_card("10" + suit.lower()) == ten
    assert ba.parse_card(" t" + suit.lower() + " ") == ten
    assert str(ba.parse_card("10" + suit)) == "T" + suit
    assert ten.rank is ba.Rank.TEN


def test_parse_card_fields():
    qs = ba.parse_card("QS")
    assert qs.rank is ba.Rank.QUEEN and qs.suit is ba.Suit.SPADES
    assert qs == ba.Card(ba.Rank.QUEEN, ba.Suit.SPADES)
    assert ba.parse_card("BJ") == ba.Card(ba.Rank.BIG_JOKER)
    assert ba.parse_card("LJ") == ba.Card(ba.Rank.LITTLE_JOKER)
    assert ba.parse_card("bj").suit is None
    assert ba.parse_card("Lj").is_joker
    assert not qs.is_joker


def test_parse_cards():
    assert ba.parse_cards("AH 3C, BJ") == (
        ba.parse_card("AH"),
        ba.parse_card("3C"),
        ba.parse_card("BJ"),
    )
    assert ba.parse_cards(["10D", "2s"]) == (ba.parse_card("TD"), ba.parse_card("2S"))


@pytest.mark.parametrize(
    "bad",
    [
        "1X",
        "",
        "   ",
        "11H",
        "1H",
        "0H",
        "H10",
        "10",
        "Q",
        "S",
        "QX",
        "XS",
        "BJS",
        "JOKER",
        "QS QS",
        "10 H",
        "1 0H",
        "010H",
        "Q-S",
        "BB",
        "LB",
    ],
)
def test_bad_card_text(bad):
    with pytest.raises(ba.NotationError) as info:
        ba.parse_card(bad)
    assert isinstance(info.value, ValueError)
    assert str(info.value)  # a readable message


@pytest.mark.parametrize("bad", [None, 12, 1.5, b"QS", ["QS"], ("Q", "S"), object()])
def test_non_str_card(bad):
    with pytest.raises(ba.NotationError):
        ba.parse_card(bad)


def test_notation_error_is_a_value_error():
    assert issubclass(ba.NotationError, ValueError)
    assert issubclass(ba.NotationError, ba.BackAlleyError)


def test_card_validation():
    with pytest.raises(ba.NotationError):
        ba.Card(ba.Rank.BIG_JOKER, ba.Suit.SPADES)  # a joker has no suit
    with pytest.raises(ba.NotationError):
        ba.Card(ba.Rank.LITTLE_JOKER, ba.Suit.HEARTS)
    with pytest.raises(ba.NotationError):
        ba.Card(ba.Rank.QUEEN)  # a plain card needs a suit
    with pytest.raises(ba.NotationError):
        ba.Card(ba.Rank.QUEEN, "S")  # a suit is a Suit, not text
    with pytest.raises(ba.NotationError):
        ba.Card(12, ba.Suit.SPADES)  # a rank is a Rank


def test_cards_are_frozen_and_hashable():
    qs = ba.parse_card("QS")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        qs.rank = ba.Rank.KING  # type: ignore[misc]
    assert {qs: 1}[ba.Card(ba.Rank.QUEEN, ba.Suit.SPADES)] == 1


def test_card_index():
    """Clubs 0..12, diamonds 13..25, hearts 26..38, spades 39..51 (2 up to A), LJ 52, BJ 53."""
    for i, card in enumerate(ba.CARDS):
        assert card.index == i
    assert ba.parse_card("2C").index == 0
    assert ba.parse_card("AC").index == 12
    assert ba.parse_card("2D").index == 13
    assert ba.parse_card("2H").index == 26
    assert ba.parse_card("AS").index == 51
    assert ba.parse_card("LJ").index == 52
    assert ba.parse_card("BJ").index == 53
    for suit_index, suit in enumerate(ba.Suit):
        assert suit.index == suit_index
        for rank in ba.Rank:
            if not rank.is_joker:
                assert ba.Card(rank, suit).index == 13 * suit_index + rank.value - 2


def test_card_ordering():
    assert sorted(reversed(ba.CARDS)) == list(ba.CARDS)
    assert ba.parse_card("2C") < ba.parse_card("3C") < ba.parse_card("AC") < ba.parse_card("2D")
    assert ba.parse_card("AS") < ba.parse_card("LJ") < ba.parse_card("BJ")
    assert ba.parse_card("BJ") > ba.parse_card("AS")
    assert not ba.parse_card("QS") < ba.parse_card("QS")


def test_rank_order_and_letters():
    assert [r.letter for r in ba.Rank] == [*RANKS, "LJ", "BJ"]
    assert ba.Rank.ACE < ba.Rank.LITTLE_JOKER < ba.Rank.BIG_JOKER
    assert ba.Rank.LITTLE_JOKER.is_joker and not ba.Rank.ACE.is_joker
    assert [s.letter for s in ba.Suit] == list(SUITS)
    assert ba.Suit.parse("h") is ba.Suit.HEARTS
    assert ba.Suit.parse("hearts") is ba.Suit.HEARTS
    with pytest.raises(ba.NotationError):
        ba.Suit.parse("X")
    with pytest.raises(ba.NotationError):
        ba.Suit.parse(3)  # type: ignore[arg-type]


def test_cards_have_the_full_ordering_of_their_index() -> None:
    """Cards sort by engine index: clubs, diamonds, hearts, spades (2 up to A), LJ, BJ."""
    two_c, ace_s, bj = ba.parse_card("2C"), ba.parse_card("AS"), ba.parse_card("BJ")
    assert two_c < ace_s <= ace_s < bj
    assert bj > ace_s >= two_c
    assert sorted([bj, ace_s, two_c]) == [two_c, ace_s, bj]
