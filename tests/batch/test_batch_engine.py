"""The batch engine's own bookkeeping (backalley.batch.BatchGames): each
game's chance from its seed, restarting games in a running batch, and the
arrays a reader of the batch sees between tricks."""

from __future__ import annotations

import numpy as np
import pytest

import backalley as ba

batch = pytest.importorskip("backalley.batch")
from backalley.batch.engine import OVER, deck_order, first_dealer, game_seed  # noqa: E402

RULES = ba.variants.VIETNAM


def _play_out(games: batch.BatchGames) -> None:
    while True:
        live = np.flatnonzero(games.phase != OVER)
        if not len(live):
            return
        games.step_unchecked(live, games.random_actions(live))


def test_a_game_deals_the_same_in_any_batch() -> None:
    alone = batch.BatchGames(RULES, 1, seeds=[game_seed(7, 3)])
    among = batch.BatchGames(RULES, 5, seed=7)
    assert (alone.hands[0] == among.hands[3]).all()
    assert alone.first_dealer[0] == among.first_dealer[3]


def test_deck_orders_and_first_dealers_come_from_the_seed_alone() -> None:
    seeds = np.array([1, 2, 1], dtype=np.uint64)
    cards = np.array(RULES.plan.deck_cards, dtype=np.intp)
    orders = deck_order(seeds, np.array([0, 0, 0]), cards)
    assert (orders[0] == orders[2]).all() and not (orders[0] == orders[1]).all()
    assert sorted(orders[0].tolist()) == sorted(cards.tolist())
    dealers = first_dealer(seeds, 4)
    assert dealers[0] == dealers[2] and 0 <= dealers[1] < 4


def test_a_restarted_game_plays_as_a_new_game_of_its_seed_and_records_from_its_start() -> None:
    games = batch.BatchGames(RULES, 3, seed=1)
    for _ in range(30):  # into the play of the first deal
        live = np.flatnonzero(games.phase != OVER)
        games.step_unchecked(live, games.random_actions(live))
    games.restart([1], [game_seed(9, 0)])
    fresh = batch.BatchGames(RULES, 1, seeds=[game_seed(9, 0)])
    assert (games.hands[1] == fresh.hands[0]).all()
    assert games.phase[1] == batch.BIDDING and games.scores[1].tolist() == [0, 0]
    _play_out(games)
    for g, record in enumerate(games.records()):
        state = record.start()
        for move in record.moves:
            state = state.apply(move)
        assert state.is_over and list(state.scores) == games.scores[g].tolist()
    assert games.records()[1].first_dealer == int(fresh.first_dealer[0])


def test_restart_refuses_places_without_seeds() -> None:
    games = batch.BatchGames(RULES, 2)
    with pytest.raises(ba.SetupError, match="one seed for each"):
        games.restart([0, 1], [5])
    with pytest.raises(ba.SetupError, match="places 0 to 1"):
        games.restart([2], [5])


def test_the_trick_in_progress_is_empty_between_tricks() -> None:
    games = batch.BatchGames(RULES, 4, seed=2)
    seen_between = 0
    for _ in range(60):
        live = np.flatnonzero(games.phase != OVER)
        games.step_unchecked(live, games.random_actions(live))
        between = (games.phase == batch.PLAYING) & (games.in_trick == 0)
        if between.any():
            seen_between += 1
            assert (games.trick_cards[between] == -1).all()
            assert (games.trick[between] == 0).all()
    assert seen_between


@pytest.mark.parametrize(("old", "new"), [("chance", "seeds"), ("tables", "compiled_tables")])
def test_a_module_answers_under_its_former_name_with_a_deprecation_warning(
    old: str, new: str
) -> None:
    """``backalley.batch.chance`` is now ``backalley.batch.seeds`` and
    ``backalley.batch.tables`` ``backalley.batch.compiled_tables``: the old
    names still give the same module, with a warning naming the new place."""
    import importlib

    module = importlib.import_module(f"backalley.batch.{new}")
    with pytest.deprecated_call(match=rf"use backalley\.batch\.{new} "):
        assert getattr(batch, old) is module
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        batch.nothing  # noqa: B018


def test_the_former_module_names_still_import() -> None:
    """``from backalley.batch import chance`` (or ``tables``) gives the module
    under its new name, with a warning naming it."""
    from backalley.batch import compiled_tables, seeds

    with pytest.deprecated_call(match=r"use backalley\.batch\.seeds "):
        from backalley.batch import chance
    with pytest.deprecated_call(match=r"use backalley\.batch\.compiled_tables "):
        from backalley.batch import tables
    assert chance is seeds and tables is compiled_tables
