"""The library in the browser through its JavaScript API, run by Node with no
Python on its side (backalley.js loads Pyodide and the wheels from the folder
``backalley build-web`` writes): a whole gamerules game and a whole vietnam
game answer, ply by ply, what the Python library answers on the same seeds
(compared as documents), refusals carry the library's reason and sentence,
records replay with ``backalley check``, and the conformance vectors pass.

Needs node and the npm package pyodide (installed by ``npm ci`` into a cache
folder on first use, see tests/web_runtime.py); skipped, saying why, without them.
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

import backalley as ba
from backalley.bots import make_bot
from backalley.cli import main
from backalley.io import houserules
from backalley.render.facts import deal_end, table_facts
from tests.web_runtime import NODE, ROOT, build_site, pyodide_package

pytestmark = [
    pytest.mark.browser,  # Pyodide, in Node
    pytest.mark.skipif(NODE is None, reason="node (Node.js) is not on PATH"),
]

GAMES = [{"variant": "gamerules", "seed": 3}, {"variant": "vietnam", "seed": 5}]
NODE_SECONDS = 240


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder, why = pyodide_package()
    if folder is None:
        pytest.skip(why)
    return build_site(tmp_path_factory.mktemp("web") / "site", folder)


def _node(*args: str | Path) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    return subprocess.run(
        [NODE, *map(str, args)], capture_output=True, text=True, timeout=NODE_SECONDS, cwd=ROOT
    )


def _data(value: Any) -> Any:
    return json.loads(ba.to_json(value))


def _refusal(state: ba.GameState, view: dict[str, Any]) -> dict[str, Any] | None:
    """What the Python library refuses of the seat's calls, or else of its
    cards (as the script picks it), and why."""
    seat = state.to_act
    call = next((a for a in view["call_answers"] if not a["legal"]), None)
    card = next((a for a in view["cards"] if not a["playable"]), None)
    if call is not None:
        text = call["call"]
    elif card is not None:
        text = f"play {card['card']}"
    else:
        return None
    with pytest.raises(ba.IllegalMoveError) as caught:
        state.check(ba.parse_move(text), seat=seat)
    err = caught.value
    return {
        "move": text,
        "kind": type(err).__name__,
        "reason": err.reason.name,
        "message": err.message,
    }


def _python_games() -> list[dict[str, Any]]:
    """The lines web_games.mjs prints, as the Python library answers them."""
    lines: list[dict[str, Any]] = []
    for g, spec in enumerate(GAMES):
        seed = int(spec["seed"])
        state = ba.new_game(str(spec["variant"]), seed=seed)
        ply = 0
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            legal = [str(m) for m in state.legal_moves()]
            move = legal[(7 * ply + seed) % len(legal)]
            doc = _data(view)
            lines.append(
                {
                    "game": g,
                    "ply": ply,
                    "seat": seat,
                    "legal": legal,
                    "move": move,
                    "view": doc,
                    "facts": table_facts(view),
                    "refused": _refusal(state, doc),
                }
            )
            state = state.apply(ba.parse_move(move))
            ply += 1
        lines.append(
            {
                "game": g,
                "end": True,
                "state": _data(state),
                "record": _data(ba.GameRecord.from_state(state)),
                "scores": list(state.scores),
                "winner": state.winner,
            }
        )
    return lines


@pytest.fixture(scope="module")
def played(site: Path, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    games = tmp_path_factory.mktemp("games") / "games.json"
    games.write_text(json.dumps(GAMES), encoding="utf-8")
    done = _node(ROOT / "tests" / "js" / "web_games.mjs", site, games)
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_whole_games_through_the_javascript_api_answer_as_the_python_library(
    played: list[dict[str, Any]],
) -> None:
    from_node = [line for line in played if "game" in line]
    expected = _python_games()
    assert len(from_node) == len(expected)
    for got, want in zip(from_node, expected):
        assert got == want, f"game {want['game']} ply {want.get('ply', 'end')}"
    plies = [line for line in from_node if "ply" in line]
    assert {line["view"]["rules"]["name"] for line in plies} == {"gamerules", "vietnam"}
    assert all(line["end"] for line in from_node if "ply" not in line)
    refused = [line["refused"] for line in plies if line["refused"]]
    reasons = {r["reason"] for r in refused}
    assert {"MUST_FOLLOW_SUIT", "TRUMP_NOT_BROKEN", "BID_TOO_LOW"} <= reasons, reasons
    assert all(r["kind"] == "IllegalMoveError" and r["message"] for r in refused)


def test_a_record_written_by_the_javascript_api_replays_with_backalley_check(
    played: list[dict[str, Any]], tmp_path: Path
) -> None:
    for end in (line for line in played if line.get("end")):
        path = tmp_path / f"game{end['game']}.json"
        path.write_text(json.dumps(end["record"]), encoding="utf-8")
        out = io.StringIO()
        assert main(["check", str(path)], out=out) == 0
        assert "OK" in out.getvalue() and "game over" in out.getvalue()


def test_the_javascript_api_reads_rules_seeds_refusals_views_records_and_bots(
    played: list[dict[str, Any]],
) -> None:
    api = next(line["api"] for line in played if "api" in line)
    assert api["vietnam"] == {"name": "vietnam", "players": 4}
    assert api["house"] == {"name": None, "schedule": {"type": "schedule", "hand_sizes": [3, 2]}}
    house = houserules.loads("base = 'vietnam'\n[schedule]\nhand_sizes = [3, 2]\n")
    assert api["fromDocument"] == _data(house)
    assert api["unknownVariant"]["kind"] == "UnknownVariantError"
    assert "no-such-variant" in api["unknownVariant"]["message"]
    assert api["badToml"]["kind"] == "HouseRulesError"
    assert api["badToml"]["problems"] and "not valid TOML" in api["badToml"]["message"]
    # a seed given as a number, a BigInt or text; one past 2**53 kept exactly
    state36 = ba.to_json(ba.new_game("gamerules", seed=36))
    assert api["seeds"] == [state36] * 3
    assert api["bigSeed"] == ba.to_json(ba.new_game("gamerules", seed=2**62 + 1))
    # the refusals of the integration page, with their reasons and sentences
    assert api["notYourTurn"] == {
        "move": "bid 4",
        "legal": False,
        "reason": "NOT_YOUR_TURN",
        "message": "it is seat 0's turn, not seat 3's",
    }
    state = ba.new_game("gamerules", seed=36)
    for text in ["bid 4", "bid 3", "bid 3", "bid 2", "play KD"]:
        state = state.apply_text(text)
    assert api["cardsOfSeat1"] == _data(state.view(1))["cards"]
    assert api["followSuit"] == {
        "kind": "IllegalMoveError",
        "reason": "MUST_FOLLOW_SUIT",
        "message": "you hold a diamond, so you must follow diamonds",
        "move": "play AC",
        "seat": 1,
        "problems": [],
        "path": None,
    }
    assert api["notAMove"]["kind"] == "NotationError"
    view = api["view"]
    assert (view["kind"], view["seat"]) == ("view", 1)
    assert view["legal"] == ["play 4D", "play 7D", "play TD", "play QD"]
    assert view["check"]["reason"] == "MUST_FOLLOW_SUIT"
    assert (
        view["apply"]["kind"] == "SetupError" and "view cannot move on" in view["apply"]["message"]
    )
    assert view["other"]["kind"] == "SetupError"
    assert api["badDocument"]["kind"] == "SerializationError" and api["badDocument"]["path"]
    assert api["fromRecord"] is True
    assert "heuristic" in api["bots"]
    assert api["unknownBot"]["kind"] == "SetupError"
    # the bots in the page are the library's: the same seeds, the same game
    game = ba.new_game(house, seed=11)
    players = [make_bot("heuristic", f"s:{seat}") for seat in range(4)]
    ends = []
    while not game.is_over:
        assert game.to_act is not None
        move = players[game.to_act].choose(game.view(game.to_act))
        after = game.apply(move)
        end = deal_end(game, move, after)
        if end is not None:
            ends.append(end)
        game = after
    assert api["botGame"] == ba.to_json(game)
    # the end of each deal, as a table holds it: the last trick and who made it
    assert api["dealEnds"] == ends and [end["deal"] for end in ends] == [1, 2]
    assert all(end["last_trick"] and len(end["last_trick"]["cards"]) == 4 for end in ends)


def test_the_conformance_vectors_pass_through_the_javascript_api(
    site: Path, tmp_path: Path
) -> None:
    files = []
    for variant, games in (("gamerules", 1), ("vietnam", 1), ("vietnam-cutthroat", 1)):
        path = tmp_path / f"{variant}.jsonl"
        args = [
            "vectors",
            "--variant",
            variant,
            "--games",
            str(games),
            "--seed",
            "0",
            "-o",
            str(path),
        ]
        assert main(args, out=io.StringIO()) == 0
        files.append(path)
    done = _node(ROOT / "tests" / "js" / "web_vectors.mjs", site, *files)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(done.stdout)
    positions = sum(
        json.loads(line)["type"] == "position"
        for path in files
        for line in path.read_text(encoding="utf-8").splitlines()
    )
    assert result["failures"] == []
    assert result["positions"] == positions > 1000
    assert result["probes"] > 3 * positions


def test_a_users_rule_refuses_through_the_javascript_api_with_its_registered_reason(
    site: Path, tmp_path: Path
) -> None:
    """A page runs a user's rules (their Python text) in Pyodide and plays
    them: ``check`` answers, ``apply`` throws and the view documents list the
    reason those rules registered (its tag) and their sentence, as the Python
    library answers them."""
    from tests.user_rules import house_rules

    with house_rules() as club:
        _users_rule_refusals(site, tmp_path, club.OUR_CLUB)


def _users_rule_refusals(site: Path, tmp_path: Path, our_club: ba.RuleSet) -> None:
    rules = tmp_path / "rules.json"
    rules.write_text(ba.to_json(our_club), encoding="utf-8")
    done = _node(
        ROOT / "tests" / "js" / "web_user_reason.mjs",
        site,
        ROOT / "tests" / "house_reasons.py",
        rules,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout)

    half = "test-reasons/half-the-hand"
    sentence = "with 13 cards nobody may bid more than 6"
    assert got["check"] == {"move": "bid 9", "legal": False, "reason": half, "message": sentence}
    assert got["apply"] == {
        "kind": "IllegalMoveError",
        "reason": half,
        "message": sentence,
        "move": "bid 9",
    }
    state = ba.new_game(our_club, seed=1)
    calls = _data(state.view(state.to_act))["call_answers"]
    assert got["calls"] == [[a["call"], a["reason"], a["message"]] for a in calls if not a["legal"]]
    assert [c for c in got["calls"] if c[1] == half] != []
    while state.phase is not ba.Phase.PLAYING:
        legal = state.legal_moves()
        state = state.apply(next((m for m in legal if m != ba.Pass()), legal[0]))
    cards = _data(state.view(state.to_act))["cards"]
    assert got["cards"] == [
        [a["card"], a["reason"], a["message"]] for a in cards if not a["playable"]
    ]
    card, reason, message = next(c for c in got["cards"] if c[1] != "TRUMP_NOT_BROKEN")
    assert reason == "test-reasons/no-high-opening"
    assert got["lead"] == {
        "kind": "IllegalMoveError",
        "reason": reason,
        "message": message,
        "move": f"play {card}",
    }
