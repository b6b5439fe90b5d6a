"""backalley.engine.lowlevel: dealing a known deck order at the opening of a deal
(``deal_order``), and opening a position's current deal again (``opening``)."""

from __future__ import annotations

import pytest

import backalley as ba
from backalley import lowlevel

from ..helpers import short


def later_deal(name: str = "rotating-trump") -> ba.GameState:
    """A state in the play of the second deal."""
    state = ba.new_game(short(ba.variants.get(name), 3, 4), seed=4)
    while not (state.deals_played == 1 and state.phase is ba.Phase.PLAYING):
        state = state.apply(state.legal_moves()[-1])
    return state


def test_deal_order_deals_the_given_cards_at_the_opening_of_a_deal() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=1)
    order = list(reversed(range(54)))
    dealt = lowlevel.deal_order(state, order)
    assert lowlevel.stock_order(dealt) == tuple(order[4 * 13 + 1 :])
    # the same deal; only what its opening shows (the turn-up) is the new order's
    ctx = lowlevel.deal_context(dealt)
    assert ctx._replace(shown=ba.CardSet()) == lowlevel.deal_context(state)._replace(
        shown=ba.CardSet()
    )
    assert ctx.shown == ba.CardSet(1 << order[4 * 13])  # the first stock card, turned up
    with pytest.raises(ba.SetupError, match="opening of a deal"):
        lowlevel.deal_order(state.apply(state.legal_moves()[0]), order)


def test_opening_keeps_the_deal_index_scores_and_results_of_a_view() -> None:
    state = later_deal()
    view = state.view(state.to_act)  # type: ignore[arg-type]
    order = list(reversed(range(54)))  # the rotating-trump deck: all 54 cards
    again = lowlevel.opening(view, order)
    assert again.phase is ba.Phase.BIDDING and not again.calls
    ctx, before = lowlevel.deal_context(again), lowlevel.deal_context(state)
    assert (ctx.deal_index, ctx.dealer, ctx.hand_size) == (1, before.dealer, before.hand_size)
    assert again.trump is state.trump is ba.Suit.DIAMONDS  # rotating: diamonds
    assert (again.scores, again.deal_results) == (state.scores, state.deal_results)
    # the order is dealt: the first card goes left of the dealer
    assert lowlevel.dealt_bits(again)[(ctx.dealer + 1) % 4] >> order[0] & 1


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ([0] * 54, "twice"),
        (list(range(53)), "exactly the rule set's deck"),
        ([*range(53), 54], "not a card index"),
        (["XX", *range(1, 54)], r"order\[0\]"),
    ],
)
def test_opening_refuses_an_order_that_is_not_the_deck(order: list[object], message: str) -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=1)
    with pytest.raises(ba.SetupError, match=message):
        lowlevel.opening(state, order)  # type: ignore[arg-type]
    with pytest.raises(ba.SetupError, match=message):
        lowlevel.deal_order(state, order)  # type: ignore[arg-type]


def test_opening_refuses_a_finished_game() -> None:
    state = ba.new_game(short(ba.variants.GAMERULES, 1), seed=1)
    while not state.is_over:
        state = state.apply(state.legal_moves()[-1])
    with pytest.raises(ba.SetupError, match="game is over"):
        lowlevel.opening(state, range(54))


def test_trump_index_still_answers_a_number_with_a_deprecation_warning() -> None:
    state = later_deal()
    with pytest.deprecated_call(match="position.trump"):
        assert lowlevel.trump_index(state) == 1  # diamonds: the trump crosses as a suit now


def test_a_tools_trump_is_a_suit_or_none() -> None:
    """The trump crosses the interface as a suit (``None``: no trump suit):
    the card order, the raw position and the trumps a declarer may name."""
    assert (*ba.Suit, None) == lowlevel.TRUMPS
    for trump in lowlevel.TRUMPS:
        assert lowlevel.card_order(ba.variants.GAMERULES, trump).trump is trump
    state = later_deal()
    raw = lowlevel.raw_position(state)
    assert raw is not None and raw.trump is state.trump
    assert lowlevel.order_of(state) == lowlevel.card_order(state.rules, state.trump)
    vietnam = ba.new_game(ba.variants.VIETNAM, seed=3)
    assert all(t is None or isinstance(t, ba.Suit) for t in lowlevel.trump_choices(vietnam))


def test_winner_if_names_the_seat_that_takes_the_trick() -> None:
    state = later_deal()
    while len(state.trick) < state.players - 1:
        state = state.apply(state.legal_moves()[0])
    move = state.legal_moves()[0]
    after = state.apply(move)
    assert isinstance(move, ba.Play)
    winner = lowlevel.winner_if(state, move.card.index)
    if after.tricks:
        assert after.tricks[-1].winner == winner


def test_the_sampler_answers_from_its_old_home_with_a_deprecation_warning() -> None:
    from backalley.engine import sampling

    with pytest.deprecated_call(match="lowlevel.sample_hands"):
        assert sampling.sample_hands is lowlevel.sample_hands
    with pytest.raises(AttributeError):
        _ = sampling.nothing_here


def test_the_raw_form_has_one_name_and_core_still_imports_with_a_warning() -> None:
    """``lowlevel.core(state)`` answers the kernel's raw form, ``lowlevel.Raw``;
    ``lowlevel.Core``, its former second name, warns and is the same class."""
    from backalley.engine.kernel import Raw

    state = ba.new_game(ba.variants.GAMERULES, seed=1)
    assert lowlevel.Raw is Raw and isinstance(lowlevel.core(state), lowlevel.Raw)
    with pytest.deprecated_call(match="use lowlevel.Raw"):
        assert lowlevel.Core is Raw
    with pytest.raises(AttributeError):
        _ = lowlevel.Cores
