"""Golden games: whole games stored as data (``tests/data/golden/*.json``,
written by ``tests/make_golden.py``): each file holds the finished game's
state document and the deal results the engine made of its moves.

The state document loads (by replaying its moves) to the same game as the
moves applied one by one from ``new_game``, and both give the stored deal
results, final scores and winner, compared as values.  The gamerules games
are also scored independently here, from nothing but the move texts and the
recorded trump of each deal (who bids when, who leads, who wins each trick,
the points); the Vietnam games from the auction and its points.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import backalley as ba

from .. import ROOT

GOLDEN = ROOT / "tests" / "data" / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def moves(doc: dict[str, Any]) -> list[str]:
    return list(doc["state"]["moves"])


def replay(doc: dict[str, Any]) -> ba.GameState:
    state = ba.new_game(ba.variants.get(doc["variant"]), seed=doc["seed"])
    assert state.dealer == doc["state"]["first_dealer"]
    for k, text in enumerate(moves(doc)):
        assert not state.is_over, f"the game ended before move {k}"
        state = state.apply(ba.parse_move(text))
    return state


def results(doc: dict[str, Any]) -> tuple[ba.DealResult, ...]:
    return tuple(ba.from_json(json.dumps(d), ba.DealResult) for d in doc["deals"])


def test_there_are_golden_games_of_gamerules_and_vietnam():
    variants = {load(p)["variant"] for p in FILES}
    assert "gamerules" in variants
    assert any(v.startswith("vietnam") for v in variants)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_game_replays_to_the_same_results(path):
    doc = load(path)
    assert doc["format"] == 2
    state = replay(doc)
    assert state.is_over
    assert state.deal_results == results(doc)
    assert list(state.scores) == doc["scores"]
    assert state.winner == doc["winner"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_state_document_loads_to_the_replayed_game(path):
    doc = load(path)
    loaded = ba.from_json(json.dumps(doc["state"]), ba.GameState)
    assert loaded == replay(doc)
    assert loaded.rules == ba.variants.get(doc["variant"])
    assert loaded.deal_results == results(doc)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_golden_moves_are_canonical_text(path):
    for text in moves(load(path)):
        assert str(ba.parse_move(text)) == text


# ------------------------------------------- independent scoring: gamerules

RANKS = "23456789TJQKA"


def _suit(card: str, trump: str | None) -> str | None:
    """The suit a card belongs to: its own, or the trump suit for a joker."""
    return trump if card in ("BJ", "LJ") else card[1]


def _trump_rank(card: str) -> int:
    """Trump order, high to low: BJ, LJ, A, K, ..., 2."""
    return {"BJ": 100, "LJ": 99}.get(card, RANKS.index(card[0]) if card[0] in RANKS else -1)


def trick_winner(cards: list[str], trump: str | None) -> int:
    """The index of the winning card: the highest trump, else the highest
    card of the suit led."""
    trumps = [i for i, c in enumerate(cards) if c in ("BJ", "LJ") or (trump and c[1] == trump)]
    if trumps:
        return max(trumps, key=lambda i: _trump_rank(cards[i]))
    led = _suit(cards[0], trump)
    same = [i for i, c in enumerate(cards) if _suit(c, trump) == led]
    return max(same, key=lambda i: RANKS.index(cards[i][0]))


def points(contract: tuple[str, int, int], tricks: int, hand_size: int) -> int:
    """A numeric contract of b made: +5b + (t-b), set: -5b; a board: +-10*h*m."""
    kind, b, m = contract
    if kind == "board":
        return 10 * hand_size * m if tricks == hand_size else -10 * hand_size * m
    return 5 * b + (tricks - b) if tricks >= b else -5 * b


def score_gamerules(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """Every scored deal of a gamerules game, recomputed from the moves."""
    schedule = list(range(13, 0, -1)) + list(range(2, 14))
    moves = list(doc["state"]["moves"])
    trumps = [d["trump"] for d in doc["deals"]]
    dealer = doc["state"]["first_dealer"]
    out: list[dict[str, Any]] = []
    pos = 0
    while len(out) < len(schedule):
        h = schedule[len(out)]
        # each player once, starting left of the dealer
        calls = {(dealer + 1 + i) % 4: moves[pos + i] for i in range(4)}
        pos += 4
        if all(c == "pass" for c in calls.values()):
            dealer = (dealer + 1) % 4  # thrown in: the next dealer, the same size
            continue
        order = [(dealer + 1 + i) % 4 for i in range(4)]
        boards = [s for s in order if calls[s] == "board"]
        numbers = {s: int(calls[s].split()[1]) if calls[s].startswith("bid") else 0 for s in order}
        contracts = []
        for team in ((0, 2), (1, 3)):
            if any(s in boards for s in team):
                contracts.append(("board", h, len(boards)))
            else:
                contracts.append(("bid", sum(numbers[s] for s in team), 1))
        # the last board claimer, else the earliest highest bid leads
        if boards:
            leader = boards[-1]
        else:
            best = max(numbers.values())
            leader = next(s for s in order if numbers[s] == best)
        trump = trumps[len(out)]
        won = [0, 0]
        for _ in range(h):
            cards = [moves[pos + i].split()[1] for i in range(4)]
            pos += 4
            winner = (leader + trick_winner(cards, trump)) % 4
            won[winner % 2] += 1
            leader = winner
        out.append(
            {
                "dealer": dealer,
                "hand_size": h,
                "bids": [calls[s] for s in range(4)],
                "tricks": won,
                "points": [points(contracts[t], won[t], h) for t in range(2)],
            }
        )
        dealer = (dealer + 1) % 4
    assert pos == len(moves), "moves left over after the 25th deal"
    return out


@pytest.mark.parametrize(
    "path", [p for p in FILES if load(p)["variant"] == "gamerules"], ids=lambda p: p.stem
)
def test_gamerules_golden_game_scored_by_hand(path):
    """The game recomputed without the engine: calls, leads, tricks, points."""
    doc = load(path)
    mine = score_gamerules(doc)
    assert len(mine) == len(doc["deals"]) == 25
    for want, got in zip(doc["deals"], mine):
        for key in ("dealer", "hand_size", "bids", "tricks", "points"):
            assert got[key] == want[key], (want["number"], key)
    totals = [sum(d["points"][t] for d in mine) for t in range(2)]
    assert totals == doc["scores"]
    winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
    assert winner == doc["winner"]


def test_the_hand_scorer_knows_the_worked_examples():
    """The formulas above against worked examples (so that they are right)."""
    assert points(("bid", 2, 1), 5, 13) == 13
    assert points(("bid", 7, 1), 8, 13) == 36
    assert points(("bid", 7, 1), 6, 13) == -35
    assert points(("bid", 2, 1), 7, 13) == 15
    assert points(("board", 4, 2), 4, 4) == 80
    assert points(("bid", 1, 1), 0, 4) == -5
    assert trick_winner(["3C", "AC", "2S", "KC"], "S") == 2
    assert trick_winner(["3C", "LJ", "AS", "BJ"], "S") == 3
    assert trick_winner(["3C", "AD", "KC", "2C"], "S") == 2
    assert trick_winner(["5D", "AD", "KC", "2C"], None) == 1


# ------------------------------------------- independent scoring: vietnam


def score_vietnam_deal(deal: dict[str, Any], teams: list[list[int]]) -> list[int]:
    """The last number sets the contract and its caller declares, the counters on it
    multiplying it (counter_holder = announcer); the declarer's side scores 10 per trick
    taken times the multiplier if it makes it, else loses 10 per contracted trick times
    the multiplier; the defenders score 0."""
    dealer, calls = deal["dealer"], deal["bids"]
    n = len(calls)
    tricks = contract = 0
    mult, declarer = 1, None
    for i in range(n):
        seat = (dealer + 1 + i) % n
        call = calls[seat]
        if call.startswith("bid"):
            contract, mult, declarer = int(call.split()[1]), 1, seat
        elif call == "counter":  # the number's announcer keeps the contract, multiplied
            mult += 1
    assert declarer is not None
    points = []
    for t, team in enumerate(teams):
        tricks = deal["tricks"][t]
        if declarer not in team:
            points.append(0)
        elif tricks >= contract:
            points.append(10 * tricks * mult)
        else:
            points.append(-10 * contract * mult)
    return points


@pytest.mark.parametrize(
    "path", [p for p in FILES if load(p)["variant"].startswith("vietnam")], ids=lambda p: p.stem
)
def test_vietnam_golden_game_scored_by_hand(path):
    doc = load(path)
    rules = ba.variants.get(doc["variant"])
    teams = [list(t) for t in rules.teams]
    for deal in doc["deals"]:
        assert sum(deal["tricks"]) == deal["hand_size"]
        assert score_vietnam_deal(deal, teams) == deal["points"]
    assert [sum(d["points"][t] for d in doc["deals"]) for t in range(len(teams))] == doc["scores"]


def test_golden_files_are_up_to_date_with_their_generator():
    """make_golden.py, run again, makes the same games (the engine still plays
    the same games from the same seeds and move choices), compared as values:
    a new rule option with a default rewrites no file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "make_golden", GOLDEN.parents[1] / "make_golden.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    names = {module.file_name(n, s) for n, s in module.GAMES}
    assert names == {p.name for p in FILES}
    for name, seed in module.GAMES:
        stored = load(GOLDEN / module.file_name(name, seed))
        made = module.record(name, seed)
        assert ba.from_json(json.dumps(stored["state"]), ba.GameState) == module.final_state(
            name, seed
        )
        assert results(stored) == results(made)
        assert {k: v for k, v in stored.items() if k not in ("state", "deals")} == {
            k: v for k, v in made.items() if k not in ("state", "deals")
        }
