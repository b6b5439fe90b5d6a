"""A user interface in another language needs nothing but the view document:
``tests/js/view_ui.mjs`` (Node, no Python in it) reads a view document the
library wrote, greys out the cards and call buttons the seat may not use
with each refusal's reason and sentence, and shows the table's facts (each
seat's call and tricks, the sides' contracts, tricks and scores, trump and
whether it is broken, the deal, the winner).  Every line it prints is
compared with the Python library's own answers: ``check`` for every card of
the hand and every call the bidding knows, and the full state's properties
for the facts - in a bidding (a hooked bid refused, a seat that has spoken),
an auction with counters, a trump call, a trick being played (cards refused
for not following suit) and a finished game.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import backalley as ba

from .. import ROOT

SCRIPT = ROOT / "tests" / "js" / "view_ui.mjs"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(
    NODE is None,
    reason="node (Node.js) is not on PATH: the view document's JavaScript "
    "reader (tests/js/view_ui.mjs) cannot be run",
)


def _answer(position: ba.GameState | ba.PlayerView, move: ba.Move, seat: int) -> list[str]:
    """``enabled``, or ``greyed``, the reason's name and the sentence: the
    position's own ``check`` (a state's for ``seat``, a view's for its seat)."""
    try:
        if isinstance(position, ba.GameState):
            position.check(move, seat=seat)
        else:
            position.check(move)
    except ba.IllegalMoveError as exc:
        return ["greyed", exc.reason.name, str(exc)]
    return ["enabled"]


def expected_lines(state: ba.GameState, seat: int) -> list[str]:
    """What the script must print for ``seat``'s view of ``state``, from the
    library's answers (never from the document)."""
    view = state.view(seat)
    rules = state.rules
    lines: list[list[str]] = []
    for card in state.hand(seat):
        play = ba.Play(card)
        answer = _answer(view, play, seat)  # the sentence speaks to the seat
        assert answer[:2] == _answer(state, play, seat)[:2]
        lines.append(["card", str(card), *answer])
    for call in state.known_calls():
        answer = _answer(view, call, seat)  # the sentence speaks to the seat
        assert answer[:2] == _answer(state, call, seat)[:2]
        lines.append(["call", str(call), *answer])
    for s in range(rules.players):
        bid = state.bids[s]
        marks = [
            mark
            for mark, holds in (
                ("dealer", s == state.dealer),
                ("declarer", s == state.declarer),
                ("to act", s == state.to_act),
            )
            if holds
        ]
        call_text = "-" if bid is None else str(bid)
        lines.append(["seat", str(s), f"call {call_text}", f"won {state.tricks_won[s]}", *marks])
    for i, side in enumerate(rules.teams):
        contracts = state.contracts
        contract = "-" if contracts is None or contracts[i] is None else str(contracts[i])
        tricks = sum(state.tricks_won[s] for s in side)
        lines.append(
            [
                "side",
                str(i),
                f"seats {' '.join(map(str, side))}",
                f"contract {contract}",
                f"tricks {tricks}",
                f"score {state.scores[i]}",
            ]
        )
    if state.trump is not None:
        trump = state.trump.value
    else:
        trump = "none" if state.trump_known else "?"
    over = state.is_over
    deal = len(state.deal_results) + (0 if over else 1)
    winner = "-" if not over else "draw" if state.winner is None else str(state.winner)
    lines.append(
        [
            "table",
            f"phase {state.phase.value}",
            f"trump {trump}",
            f"broken {'yes' if state.trump_broken else 'no'}",
            f"deal {deal} of {len(rules.schedule.hand_sizes)}",
            f"winner {winner}",
        ]
    )
    legal = state.legal_moves() if state.to_act == seat else ()
    lines.append(["moves", " | ".join(map(str, legal))])
    return ["\t".join(fields) for fields in lines]


def run_script(tmp_path: Path, state: ba.GameState, seat: int, name: str) -> list[str]:
    """Write ``seat``'s view document to a file and run the script on it."""
    path = tmp_path / f"{name}.json"
    path.write_text(ba.to_json(state.view(seat)), encoding="utf-8")
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(SCRIPT), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def _walk_to(name: str, seed: int, found: Callable[[ba.GameState], bool]) -> ba.GameState:
    rng = random.Random(seed)
    state = ba.new_game(name, seed=seed)
    while not found(state):
        assert not state.is_over, f"no such position in {name} (seed {seed})"
        state = state.apply(rng.choice(state.legal_moves()))
    return state


def _hooked() -> ba.GameState:
    state = ba.new_game("hook", seed=2)
    for text in ("bid 3", "bid 4", "bid 2"):
        state = state.apply_text(text)
    return state


def _refused_card(state: ba.GameState) -> bool:
    seat = state.to_act
    if state.phase is not ba.Phase.PLAYING or seat is None or not state.trick:
        return False
    return len(state.tricks) >= 2 and len(state.legal_moves()) < len(state.hand(seat))


POSITIONS: dict[str, Callable[[], ba.GameState]] = {
    "hooked-bid": _hooked,
    "auction-counter": lambda: _walk_to(
        "vietnam", 3, lambda s: s.phase is ba.Phase.BIDDING and ba.Counter() in s.legal_moves()
    ),
    "naming-trump": lambda: _walk_to("vietnam", 3, lambda s: s.phase is ba.Phase.NAMING_TRUMP),
    "playing": lambda: _walk_to("gamerules", 4, _refused_card),
    "playing-vietnam": lambda: _walk_to("vietnam", 8, _refused_card),
    "game-over": lambda: _walk_to("gamerules-26", 1, lambda s: s.is_over),
}


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_script_greys_out_what_the_library_refuses(name: str, tmp_path: Path) -> None:
    state = POSITIONS[name]()
    seats = range(state.rules.players)
    to_act = state.to_act
    # the seat to act, and one other (refused out of turn, or as having spoken)
    chosen = [to_act, (to_act + 1) % len(seats)] if to_act is not None else [0, 1]
    for seat in chosen:
        printed = run_script(tmp_path, state, seat, f"{name}-{seat}")
        assert printed == expected_lines(state, seat), f"{name}, seat {seat}"


def test_the_hooked_bid_is_a_greyed_button_with_its_sentence(tmp_path: Path) -> None:
    state = _hooked()
    seat = state.to_act
    assert seat is not None
    printed = run_script(tmp_path, state, seat, "hooked")
    hooked = f"bid {state.hand_size - 9}"
    (line,) = [line for line in printed if line.startswith(f"call\t{hooked}\t")]
    _call, _label, greyed, reason, sentence = line.split("\t")
    assert (greyed, reason) == ("greyed", "BID_MAKES_TOTAL")
    with pytest.raises(ba.IllegalMoveError) as info:
        state.view(seat).check(ba.parse_move(hooked))
    assert sentence == str(info.value) and "you are the last to bid" in sentence
    enabled = [line.split("\t")[1] for line in printed if line.endswith("\tenabled")]
    assert hooked not in enabled
    assert enabled == [str(m) for m in state.legal_moves()]  # the enabled buttons: the legal calls
    # in the bidding, every card is greyed: cards cannot be played yet
    cards = [line for line in printed if line.startswith("card\t")]
    assert cards and all("\tgreyed\tWRONG_PHASE\t" in line for line in cards)


def test_a_refused_card_is_greyed_with_the_follow_rules_sentence(tmp_path: Path) -> None:
    state = POSITIONS["playing"]()
    seat = state.to_act
    assert seat is not None
    printed = run_script(tmp_path, state, seat, "playing")
    greyed = [
        line.split("\t") for line in printed if line.startswith("card\t") and "greyed" in line
    ]
    assert greyed
    for _card, card, _greyed, reason, sentence in greyed:
        assert ba.Play(ba.parse_card(card)) not in state.legal_moves()
        assert reason in {r.name for r in ba.Reason} and sentence.startswith("you ")
    assert not [line for line in printed if line.startswith("call\t")]  # no bidding box


def test_the_script_refuses_what_is_not_a_view_document(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text(ba.to_json(ba.new_game("gamerules", seed=1)), encoding="utf-8")
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(SCRIPT), str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2 and "is not a view document" in done.stderr
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "backalley/state"
