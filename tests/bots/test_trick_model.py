"""The learned trick model (backalley/bots/data/tricks_selfplay.json): it
loads, the heuristic (and pimc) bid from it when asked, and a data file of
the wrong shape is refused with a clear error."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import backalley as ba
from backalley.bots import HeuristicBot, PimcBot, trick_model
from backalley.bots import _tricks_table as TT
from backalley.bots.bidding_model import is_auction, table_row
from backalley.bots.hand_reading import FEATURES, features_of, unseen_bits
from backalley.engine import lowlevel


def _document() -> dict[str, Any]:
    data = json.loads(trick_model.SELFPLAY_PATH.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_shipped_model_loads_and_says_how_it_was_made() -> None:
    rows = trick_model.selfplay_rows()
    assert {(r[0], r[1]) for r in rows} == {(4, True)}
    assert {r[2] for r in rows} == set(range(1, 14))
    for row in rows:
        assert len(row[4]) == len(row[6]) == len(FEATURES)
        assert row[3] >= 20 and row[5] > 0 and row[7] > 0
        assert 0 < row[8] <= row[2]
    made = _document()["made_with"]
    assert made["deals"] >= 50_000 and isinstance(made["seed"], int)
    assert "benchmarks/selfplay_tricks.py" in made["how"]
    assert trick_model.selfplay_rows() is rows  # read once


def test_the_learned_rows_are_read_where_each_seat_calls_once() -> None:
    """The default model reads the learned rows for four players in two
    partnerships, each seat calling once, an overtrick free; the trick
    table's rows everywhere else, and everywhere under ``"table"``."""
    assert trick_model.active() == trick_model.DEFAULT == "selfplay"
    assert table_row(4, True, 7) in trick_model.selfplay_rows()
    # no learned rows for players alone, where an overtrick costs, in an auction
    assert table_row(4, False, 7) in TT.ROWS
    assert table_row(4, True, 7, exact=True) in TT.ROWS
    assert table_row(4, True, 7, auction=True) in TT.ROWS
    with trick_model.using("table"):
        assert trick_model.active() == "table"
        assert table_row(4, True, 7) in TT.ROWS
        with trick_model.using(None):  # None: the model in force
            assert trick_model.active() == "table"
    assert trick_model.active() == "selfplay"


def test_the_bidding_asks_whether_it_is_an_auction() -> None:
    """A Vietnam auction's bidder reads the table even under the learned model,
    from its first call (where ``is_auction`` asks the legal numbers) on."""
    vietnam = ba.new_game(ba.variants.get("vietnam"), seed=2)
    gamerules = ba.new_game(ba.variants.GAMERULES, seed=2)
    first = vietnam.view(vietnam.to_act)  # type: ignore[arg-type]
    assert is_auction(first) and not is_auction(gamerules.view(gamerules.to_act))  # type: ignore[arg-type]
    learned, table = HeuristicBot(tricks="selfplay"), HeuristicBot(tricks="table")
    assert learned.bidding_estimate(first) == table.bidding_estimate(first)
    state = vietnam
    while state.phase is ba.Phase.BIDDING:
        view = state.view(state.to_act)  # type: ignore[arg-type]
        assert is_auction(view)
        assert learned.bidding_estimate(view) == table.bidding_estimate(view)
        # a seat not to act asks too (the calls to come are public)
        other = state.view((state.to_act + 1) % 4)  # type: ignore[operator]
        assert not other.legal_moves() and lowlevel.calls_to_act(other) == view.legal_moves()
        assert is_auction(other)
        assert learned.bidding_estimate(other) == table.bidding_estimate(other)
        state = state.apply(table.choose(view))
    if state.phase is ba.Phase.PLAYING:  # the contracts, once known, tell
        assert is_auction(state.view(0))


def _view(seed: int) -> ba.PlayerView:
    return ba.new_game(ba.variants.GAMERULES, seed=seed).view(0)


def test_the_heuristic_bids_from_the_learned_model_when_asked() -> None:
    learned = HeuristicBot(tricks="selfplay")
    table = HeuristicBot(tricks="table")
    view = next(
        v
        for v in map(_view, range(50))
        if learned.bidding_estimate(v).share != table.bidding_estimate(v).share
    )
    # the learned estimate: the hand's features weighed by the learned row
    row = next(r for r in trick_model.selfplay_rows() if r[2] == view.hand_size)
    hand = lowlevel.hand_bits(view, view.seat)
    feats = features_of(
        hand, unseen_bits(view, hand), lowlevel.card_order(view.rules, view.trump), 0.5
    )
    share = max(0.0, sum(w * f for w, f in zip(row[4], feats)))
    assert learned.bidding_estimate(view).share == pytest.approx(share)
    # a bot naming no model follows the one in force around it (a search
    # bot's), else the default
    plain = HeuristicBot()
    assert plain.bidding_estimate(view) == learned.bidding_estimate(view)
    with trick_model.using("table"):
        assert plain.bidding_estimate(view) == table.bidding_estimate(view)
        assert learned.bidding_estimate(view) != table.bidding_estimate(view)


def test_a_whole_deal_is_bid_from_the_learned_model() -> None:
    calls = {}
    for name in trick_model.MODELS:
        state = ba.new_game(ba.variants.GAMERULES, seed=3)
        bots = [HeuristicBot(s, tricks=name) for s in range(4)]
        seen = []
        for _ in range(400):
            if state.phase is not ba.Phase.BIDDING:
                break
            seat = state.to_act
            assert seat is not None
            move = bots[seat].choose(state.view(seat))
            seen.append(move)
            state = state.apply(move)
        calls[name] = seen
    assert all(calls.values())


def test_pimc_passes_the_model_to_its_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    assert PimcBot(0, samples=2).tricks is None
    with pytest.raises(ba.SetupError, match="tricks must name a trick model"):
        PimcBot(0, tricks="lightgbm")
    # inside its decision, every heuristic it asks reads the bot's model
    seen: list[str] = []
    real = trick_model.learned_rows

    def spy(*args: Any) -> Any:
        seen.append(trick_model.active())
        return real(*args)

    monkeypatch.setattr(trick_model, "learned_rows", spy)
    state = ba.new_game(ba.variants.GAMERULES, seed=1)
    assert state.to_act is not None
    bot = PimcBot(0, samples=2, bid_solver_cards=0, tricks="table")
    assert bot.tricks == "table"
    bot.choose(state.view(state.to_act))
    assert seen and set(seen) == {"table"}
    assert trick_model.active() == "selfplay"


def test_an_unknown_model_name_is_refused() -> None:
    with pytest.raises(
        ba.SetupError, match="tricks must name a trick model, one of 'table', 'selfplay'"
    ):
        HeuristicBot(tricks="learned")


@pytest.mark.parametrize(
    ("spoil", "where", "says"),
    [
        (
            lambda d: d["rows"][0].__setitem__("pair", d["rows"][0]["pair"][:13]),
            "$.rows[0].pair",
            "one weight per feature (14",
        ),
        (lambda d: d["rows"][2].pop("solo_sigma"), "$.rows[2]", "the row has no 'solo_sigma'"),
        (
            lambda d: d["rows"][1]["solo"].__setitem__(3, "0.2"),
            "$.rows[1].solo[3]",
            "expected a finite number, not '0.2'",
        ),
        (
            lambda d: d["rows"][0].__setitem__("hand_size", 0),
            "$.rows[0].hand_size",
            "whole number >= 1",
        ),
        (
            lambda d: d["rows"][0].__setitem__("partnered", 1),
            "$.rows[0].partnered",
            "true or false",
        ),
        (lambda d: d["rows"][0].__setitem__("extra", 1), "$.rows[0]", "unknown fields ['extra']"),
        (lambda d: d["rows"].append(d["rows"][0]), "$.rows[13]", "a second row"),
        (lambda d: d.pop("rows"), "$", "the trick model has no 'rows'"),
        (
            lambda d: d.__setitem__("format", "other"),
            "$.format",
            "expected 'backalley-trick-model'",
        ),
        (lambda d: d["features"].pop(), "$.features", "fit it again"),
    ],
)
def test_a_model_of_the_wrong_shape_is_refused(spoil: Any, where: str, says: str) -> None:
    data = copy.deepcopy(_document())
    spoil(data)
    with pytest.raises(ba.SerializationError, match=None) as info:
        trick_model.rows_from_document(data)
    assert info.value.path == where
    assert says in info.value.message


def test_a_file_that_is_not_a_model_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "model.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ba.SerializationError, match="is not JSON"):
        trick_model.load(bad)
    short = tmp_path / "short.json"
    data = _document()
    data["rows"][0]["pair"] = data["rows"][0]["pair"][:13]
    short.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(
        ba.SerializationError, match=r"\$\.rows\[0\]\.pair: expected one weight per feature"
    ):
        trick_model.load(short)
    with pytest.raises(ba.SerializationError, match="cannot read the trick model"):
        trick_model.load(tmp_path / "missing.json")


def test_the_shipped_model_round_trips() -> None:
    data = _document()
    rows = trick_model.rows_from_document(data)
    again = trick_model.model_document(rows, data["made_with"])
    assert again == data
