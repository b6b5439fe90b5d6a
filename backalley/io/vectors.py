"""Conformance vectors: positions with their exact legal moves, for other
implementations to test themselves against this library.

``backalley vectors --variant NAME --games N --seed S`` writes JSON Lines:

- one ``header`` line: ``{"type": "header", "format": "backalley/vectors",
  "version": 2, "variant": NAME, "rules": <rule set>, "games": N, "seed": S}``;
- one ``position`` line per decision: ``{"type": "position", "game": g,
  "ply": i, "seat": s, "view": <the player view of seat s, the seat to act,
  without its "rules": the header states them once>,
  "legal": [<move text>, ...], "illegal": [{"move": <text>, "reason":
  <Reason name>}, ...]}`` (``"state": <full state>`` too, without its rules,
  with ``full=True``); to read a view back, add the header's ``"rules"``;
  ``legal`` is the exact set, in this library's order; ``illegal`` a sample of
  refused moves with the rule that refuses each;
- one ``result`` line per game: ``{"type": "result", "game": g, "seed": s,
  "moves": [...], "scores": [...], "winner": w, "deal_results": [...]}``.

Game ``g`` is played from ``new_game(rules, seed=S + g)`` by choosing, at each
decision, a uniformly random legal move (``random.Random(f"{S}/{g}")``).
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any, TextIO

from backalley.cards import CARDS, SUITS
from backalley.engine.setup import new_game
from backalley.errors import IllegalMoveError
from backalley.io.serialize import FORMAT_VERSION, deal_result_to_data, rules_to_data
from backalley.io.serialize.convert import _document
from backalley.moves import BOARD, COUNTER, PASS, PLAYS, Move, NameTrump, bid
from backalley.rules.ruleset import RuleSet

__all__ = ["probe_moves", "write_vectors"]


def _without_rules(value: Any) -> dict[str, Any]:
    """A document without its ``rules`` (the header states them once)."""
    data = _document(value)
    return {k: v for k, v in data.items() if k != "rules"}


def _text(move: Move) -> str:
    return str(move)


@functools.lru_cache(maxsize=64)
def probe_moves(hand_size: int) -> tuple[Move, ...]:
    """Every move worth probing: all plays, bids 0..hand size + 1, the words, trump calls."""
    bids = tuple(bid(n) for n in range(hand_size + 2))
    trumps = (*(NameTrump(s) for s in SUITS), NameTrump(None))
    return (PASS, *bids, BOARD, COUNTER, *trumps, *(PLAYS[i] for i in range(len(CARDS))))


def write_vectors(
    rules: RuleSet,
    *,
    games: int,
    seed: int,
    out: TextIO,
    illegal_samples: int = 4,
    full: bool = False,
) -> int:
    """Write the vectors of ``games`` random games to ``out``; returns the number of lines."""
    lines = 0

    def emit(obj: dict[str, Any]) -> None:
        nonlocal lines
        out.write(json.dumps(obj, separators=(",", ":")) + "\n")
        lines += 1

    emit(
        {
            "type": "header",
            "format": "backalley/vectors",
            "version": FORMAT_VERSION,
            "variant": rules.name,
            "rules": rules_to_data(rules),
            "games": games,
            "seed": seed,
        }
    )
    for g in range(games):
        rng = random.Random(f"{seed}/{g}")
        state = new_game(rules, seed=seed + g)
        moves: list[str] = []
        ply = 0
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            legal = state.legal_moves()
            refused = []
            allowed = set(legal)
            probes = [m for m in probe_moves(state.hand_size) if m not in allowed]
            for move in rng.sample(probes, min(illegal_samples, len(probes))):
                try:
                    state.check(move)
                except IllegalMoveError as exc:
                    refused.append({"move": _text(move), "reason": exc.reason.name})
            line: dict[str, Any] = {
                "type": "position",
                "game": g,
                "ply": ply,
                "seat": seat,
                "view": _without_rules(state.view(seat)),
                "legal": [_text(m) for m in legal],
                "illegal": refused,
            }
            if full:
                line["state"] = _without_rules(state)
            emit(line)
            move = legal[rng.randrange(len(legal))]
            moves.append(_text(move))
            state = state.apply(move)
            ply += 1
        emit(
            {
                "type": "result",
                "game": g,
                "seed": seed + g,
                "moves": moves,
                "scores": list(state.scores),
                "winner": state.winner,
                "deal_results": [deal_result_to_data(r) for r in state.deal_results],
            }
        )
    return lines
