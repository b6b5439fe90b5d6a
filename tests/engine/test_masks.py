"""The mask algebra (backalley.masks): expressions of sets of cards and
conditions, evaluated on one position - the form in which the lead and follow
parts state their restrictions, which both the one-game engine and the batch
engine evaluate."""

from __future__ import annotations

import pytest

import backalley as ba
from backalley import masks
from backalley.masks import (
    ALL,
    HAND,
    NOTHING,
    PLAYED,
    SEAT_PLAYED,
    SHOWN,
    TRICK,
    Cards,
    Choose,
    Fact,
    Heads,
    Highest,
    Lowest,
    Position,
    PositionFact,
    Some,
    evaluate,
)
from backalley.rules.context import DealContext

RULES = ba.variants.GAMERULES


def cards(text: str) -> ba.CardSet:
    return ba.CardSet.of(text.split())


def position(
    hand: str,
    trick: str = "",
    *,
    trump: ba.Suit | None = ba.Suit.SPADES,
    played: str = "",
    shown: str = "",
    broken: bool = False,
    seat: int = 1,
    leader: int = 0,
) -> Position:
    ctx: DealContext = RULES.plan.deal_context(0, 3, 13, None, trump)
    ctx = ctx._replace(shown=cards(shown), played=cards(played), broken=broken)
    trick_cards = tuple(ba.parse_card(c) for c in trick.split())
    return Position(ctx, seat, int(cards(hand)), trick_cards, leader, broken)


def test_sets_combine_with_and_or_minus_and_every_card_but() -> None:
    at = position("AH 2H 3C QS")
    hearts = Cards(cards("2H 3H AH KH"))
    assert evaluate(HAND & hearts, at) == int(cards("AH 2H"))
    assert evaluate(HAND | hearts, at) == int(cards("AH 2H 3H KH 3C QS"))
    assert evaluate(HAND - hearts, at) == int(cards("3C QS"))
    assert evaluate(~hearts, at) == int(ba.CardSet.of(c for c in ba.CARDS if c not in hearts.cards))
    assert evaluate(NOTHING, at) == 0


def test_the_position_gives_the_hand_the_trick_and_the_cards_played_and_shown() -> None:
    at = position("AH", "KD 2D", played="3C 4C 5C 6C", shown="7H BJ")
    assert evaluate(HAND, at) == int(cards("AH"))
    assert evaluate(TRICK, at) == int(cards("KD 2D"))
    assert evaluate(PLAYED, at) == int(cards("3C 4C 5C 6C"))
    assert evaluate(SHOWN, at) == int(cards("7H BJ"))
    assert evaluate(SEAT_PLAYED, at) == 0  # no completed trick by seat


def test_highest_and_lowest_follow_the_ranking_under_the_trump() -> None:
    trumps = Cards(cards("2S 9S AS LJ BJ"))
    at = position("2S 9S AS LJ 4D")
    assert evaluate(Highest(HAND & trumps), at) == int(cards("LJ"))  # the jokers top the trumps
    assert evaluate(Lowest(HAND & trumps), at) == int(cards("2S"))
    assert evaluate(Highest(HAND & Cards(cards("2C"))), at) == 0  # empty: nothing


def test_heads_are_the_cards_that_would_win_the_trick_so_far() -> None:
    at = position("AD 3D 2S 4C", "KD 5D")
    assert evaluate(Heads(HAND), at) == int(cards("AD 2S"))  # the ace, or any trump
    assert evaluate(Heads(HAND), position("AD 2S")) == 0  # before a lead: none


def test_conditions_choose_between_sets() -> None:
    hearts = Cards(cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"))
    follow = Choose(Some(HAND & hearts), hearts, ALL)
    assert evaluate(follow, position("AH 3C")) == int(hearts.cards)
    assert evaluate(follow, position("3C 4C")) == int(ALL.cards)
    broken = Choose(Fact(PositionFact.BROKEN), NOTHING, ALL)
    assert evaluate(broken, position("3C", broken=True)) == 0
    first = Choose(Fact(PositionFact.FIRST_TRICK) & ~Fact(PositionFact.OPPONENT), NOTHING, ALL)
    assert evaluate(first, position("3C", seat=2, leader=0)) == 0  # partners, first trick
    assert evaluate(first, position("3C", seat=1, leader=0)) == int(ALL.cards)


def test_restrictions_leave_out_the_rules_that_allow_every_card() -> None:
    hearts = Cards(cards("2H AH"))
    form = (
        (Choose(Some(HAND & hearts), hearts, ALL), ba.Reason.MUST_FOLLOW_SUIT),
        (ALL, ba.Reason.HOUSE_RULE),
    )
    assert masks.restrictions(form, position("AH 3C")) == (
        (cards("2H AH"), ba.Reason.MUST_FOLLOW_SUIT),
    )
    assert masks.restrictions(form, position("3C")) == ()


def test_expressions_are_values_with_a_readable_text() -> None:
    rule = Choose(Some(HAND & Cards(cards("2H AH"))), Cards(cards("2H AH")), ALL)
    same = Choose(Some(HAND & Cards(cards("AH 2H"))), Cards(cards("2H AH")), ALL)
    assert rule == same and hash(rule) == hash(same)
    assert str(rule) == "choose(some(hand & {2H AH}), {2H AH}, all)"
    assert [type(e).__name__ for e in masks.walk(rule)][:3] == ["Choose", "Some", "Meet"]


def test_a_cards_expression_refuses_what_is_not_a_set_of_cards() -> None:
    with pytest.raises(ba.RuleSetError, match="CardSet"):
        Cards("AH")  # type: ignore[arg-type]


def test_the_follow_part_answers_by_evaluating_its_form() -> None:
    follow = RULES.follow
    at = position("BJ 9S 2S 4D", "LJ", trump=ba.Suit.SPADES, seat=2, leader=0)
    form = follow.restrictions_form(RULES.ranking, ba.Suit.SPADES, ba.parse_card("LJ"))  # type: ignore[attr-defined]
    expected = masks.restrictions(form, at)
    got = follow.restrictions(at.ctx, 2, cards("BJ 9S 2S 4D"), (ba.parse_card("LJ"),), 0)
    assert got == expected
    assert got[0] == (cards("2S"), ba.Reason.MUST_PLAY_LOWEST_TRUMP)  # the Little Blooper led
