"""Moves and their text form (fixed points of the public contract)."""

from __future__ import annotations

import contextlib
import pickle

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import backalley as ba

from ..helpers import fuzz_examples
from .test_cards import ALL_TEXTS

EVERY_MOVE = [
    ba.Pass(),
    *[ba.Bid(n) for n in range(0, 14)],
    ba.BoardBid(),
    ba.Counter(),
    *[ba.Counter(k) for k in (2, 3, 4)],
    *[ba.NameTrump(s) for s in ba.Suit],
    ba.NameTrump(None),
    *[ba.Play(c) for c in ba.CARDS],
]


@pytest.mark.parametrize(
    "move, text",
    [
        (ba.Pass(), "pass"),
        (ba.Bid(3), "bid 3"),
        (ba.Bid(0), "bid 0"),
        (ba.Bid(13), "bid 13"),
        (ba.BoardBid(), "board"),
        (ba.Counter(), "counter"),
        (ba.NameTrump(ba.Suit.HEARTS), "trump H"),
        (ba.NameTrump(ba.Suit.CLUBS), "trump C"),
        (ba.Play(ba.parse_card("QS")), "play QS"),
        (ba.Play(ba.parse_card("10H")), "play TH"),
        (ba.Play(ba.parse_card("BJ")), "play BJ"),
    ],
)
def test_canonical_text(move, text):
    assert str(move) == text
    assert ba.parse_move(text) == move


@pytest.mark.parametrize("move", EVERY_MOVE, ids=str)
def test_round_trip(move):
    assert ba.parse_move(str(move)) == move
    assert ba.parse_move(str(move).upper()) == move
    assert ba.parse_move(f"  {move!s}  ") == move


@pytest.mark.parametrize("move", EVERY_MOVE, ids=str)
def test_a_move_pickles_to_an_equal_move(move):
    """A pickle keeps what the move says (a direct counter keeps its multiplier)."""
    back = pickle.loads(pickle.dumps(move))
    assert back == move and str(back) == str(move)


@pytest.mark.parametrize(
    "text, move",
    [
        ("double", ba.Counter()),
        ("triple", ba.Counter()),
        ("quadruple", ba.Counter()),
        ("DOUBLE", ba.Counter()),
        ("QS", ba.Play(ba.parse_card("QS"))),
        ("qs", ba.Play(ba.parse_card("QS"))),
        ("10h", ba.Play(ba.parse_card("TH"))),
        ("play 10h", ba.Play(ba.parse_card("TH"))),
        ("bj", ba.Play(ba.parse_card("BJ"))),
        ("trump H", ba.NameTrump(ba.Suit.HEARTS)),
        ("trump h", ba.NameTrump(ba.Suit.HEARTS)),
        ("trump hearts", ba.NameTrump(ba.Suit.HEARTS)),
        ("Trump   S", ba.NameTrump(ba.Suit.SPADES)),
        ("PASS", ba.Pass()),
        ("Board", ba.BoardBid()),
        ("bid  7", ba.Bid(7)),
        ("bid 03", ba.Bid(3)),
    ],
)
def test_aliases(text, move):
    assert ba.parse_move(text) == move


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_bare_card_is_a_play(text):
    assert ba.parse_move(text) == ba.Play(ba.parse_card(text))


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "   ",
        "bid",
        "bid x",
        "bid -1",
        "bid 3.5",
        "bid 3 4",
        "bid three",
        "play",
        "play XX",
        "play 1X",
        "play QS QS",
        "trump",
        "trump Q",
        "trump HS",
        "trump 3",
        "QS QH",
        "1X",
        "foo",
        "pass pass",
        "board 2",
        "counter 2",
        "doubled",
        "passs",
        "bidd 3",
        "11H",
    ],
)
def test_bad_move_text(bad):
    with pytest.raises(ba.NotationError) as info:
        ba.parse_move(bad)
    assert isinstance(info.value, ValueError)
    assert str(info.value)


@pytest.mark.parametrize("bad", [None, 3, 1.0, b"pass", ["pass"], object()])
def test_non_str_move(bad):
    with pytest.raises(ba.NotationError):
        ba.parse_move(bad)


def test_parse_move_passes_moves_through():
    for move in EVERY_MOVE:
        assert ba.parse_move(move) is move


def test_move_validation():
    with pytest.raises(ba.NotationError):
        ba.Bid(-1)
    with pytest.raises(ba.NotationError):
        ba.Bid("3")  # type: ignore[arg-type]
    with pytest.raises(ba.NotationError):
        ba.Bid(True)
    with pytest.raises(ba.NotationError):
        ba.NameTrump("H")  # type: ignore[arg-type]
    with pytest.raises(ba.NotationError):
        ba.Play("QS")  # type: ignore[arg-type]


def test_moves_are_values():
    assert ba.Bid(3) == ba.Bid(3) and ba.Bid(3) != ba.Bid(4)
    assert ba.Pass() == ba.Pass() and ba.Pass() != ba.Bid(0)
    assert len({*EVERY_MOVE, *EVERY_MOVE}) == len(EVERY_MOVE)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        ba.Bid(3).tricks = 4  # type: ignore[misc]


# ------------------------------------------------------------- properties

WORDS = [
    "pass",
    "bid",
    "board",
    "counter",
    "double",
    "triple",
    "quadruple",
    "trump",
    "play",
    "nt",
    "10",
    "-1",
    "0",
    "13",
    *ALL_TEXTS,
    *"CDHSTJQKAX0123456789",
]
structured = st.lists(
    st.one_of(st.sampled_from(WORDS), st.text(alphabet="abcdhjklpqstx0123456789 -", max_size=4)),
    max_size=3,
).map(" ".join)


def _only_notation_errors(parse, text):
    with contextlib.suppress(ba.NotationError):
        parse(text)


@settings(max_examples=fuzz_examples(300), deadline=None)
@given(st.one_of(structured, st.text(alphabet=st.characters(codec="ascii"), max_size=12)))
def test_random_ascii_text_only_raises_notation_error(text):
    _only_notation_errors(ba.parse_move, text)
    _only_notation_errors(ba.parse_card, text)


@settings(max_examples=fuzz_examples(300), deadline=None)
@given(st.one_of(structured, st.text(max_size=12)))
def test_random_text_into_parse_card_only_raises_notation_error(text):
    _only_notation_errors(ba.parse_card, text)


@settings(max_examples=fuzz_examples(300), deadline=None)
@given(st.one_of(structured, st.text(max_size=12)))
@example("bid ²")
def test_random_text_into_parse_move_only_raises_notation_error(text):
    _only_notation_errors(ba.parse_move, text)


@settings(max_examples=fuzz_examples(200), deadline=None)
@given(st.sampled_from(EVERY_MOVE))
def test_parsed_text_is_canonical(move):
    text = str(move)
    assert str(ba.parse_move(text)) == text


def test_bid_with_a_non_decimal_digit_is_a_notation_error():
    with pytest.raises(ba.NotationError):
        ba.parse_move("bid ²")
