"""The serialization cases (gamerules): the JSON round trip by deals played
beside the replay of the same state's moves, pickle, the conformance
vectors, and ``import backalley`` in fresh interpreters.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path
from typing import Any

import backalley as ba
from backalley import lowlevel
from suite.common import ROOT, median
from suite.targets import JSON_DEAL

GameState = ba.GameState


def _state_and_moves(deals: int, seed: int = 3) -> tuple[Any, list[Any]]:
    """A gamerules state after ``deals`` scored deals and 8 more moves (random
    legal moves through the checked ``apply``), and the moves that led to it."""
    rng = random.Random(seed)
    state = ba.new_game(ba.variants.GAMERULES, seed=seed)
    moves: list[Any] = []

    def step() -> None:
        nonlocal state
        move = rng.choice(state.legal_moves())
        state = state.apply(move)
        moves.append(move)

    while state.deals_played < deals:
        step()
    for _ in range(8):
        step()
    return state, moves


def _state_at(deals: int, seed: int = 3) -> Any:
    """A gamerules state after ``deals`` scored deals and 8 more moves."""
    return _state_and_moves(deals, seed)[0]


def replay_moves(state: Any, moves: Any) -> Any:
    """The state reached by replaying ``moves`` from the start of ``state``'s
    game: ``new_game`` with its rule set, seed, first dealer and the deck orders
    not drawn from the seed (``lowlevel.core(state).match.decks``), then
    ``apply_unchecked`` of each move."""
    s = ba.new_game(
        state.rules,
        seed=state.seed,
        dealer=state.first_dealer,
        decks=lowlevel.core(state).match.decks,
    )
    for move in moves:
        s = s.apply_unchecked(move)
    return s


def _moves_of(state: Any, recorded: list[Any]) -> Any:
    """The moves of ``state``'s game: ``state.moves`` (every move since the game
    began), checked against the moves recorded while playing it; a tree whose
    states do not remember their moves (an older baseline) gets the recorded ones."""
    moves = getattr(state, "moves", None)
    if moves is None:
        return tuple(recorded)
    if list(moves) != list(recorded):  # pragma: no cover
        raise AssertionError("state.moves is not the moves that were played")
    return moves


class JsonSubject:
    """A gamerules state at one deal, prepared for the JSON and replay timings."""

    def __init__(self, deal: int) -> None:
        self.deal = deal
        self.state, recorded = _state_and_moves(deal - 1)
        self.moves = _moves_of(self.state, recorded)
        self.text = ba.to_json(self.state)
        if ba.from_json(self.text, GameState) != self.state:  # pragma: no cover
            raise AssertionError(f"deal {deal}: the JSON round trip changed the state")
        if replay_moves(self.state, self.moves) != self.state:  # pragma: no cover
            raise AssertionError(f"deal {deal}: replaying the moves gave another state")

    def timers(self, share: float) -> dict[str, float]:
        """CPU seconds per call, one round: the round trip (``from_json(to_json(s))``),
        the replay of its moves, ``to_json`` and ``from_json`` alone."""
        s, text, moves = self.state, self.text, self.moves
        return {
            "roundtrip": _per_call(lambda: ba.from_json(ba.to_json(s), GameState), share),
            "replay": _per_call(lambda: replay_moves(s, moves), share),
            "to_json": _per_call(lambda: ba.to_json(s), share),
            "from_json": _per_call(lambda: ba.from_json(text, GameState), share),
        }


def _per_call(fn: Any, seconds: float) -> float:
    """CPU seconds per call of ``fn`` (after one warm-up call)."""
    fn()
    n, t0 = 0, time.process_time()
    while True:
        for _ in range(20):
            fn()
        n += 20
        spent = time.process_time() - t0
        if spent >= seconds:
            return spent / n


JSON_DEALS = (1, JSON_DEAL, 25)


def serialization_rows(seconds: float, repeat: int) -> dict[str, Any]:
    """JSON round trip (to_json + from_json) at deals 1, 13 and 25 (and each
    half) beside the replay of the same state's moves with ``apply_unchecked``
    from ``new_game`` (a state document replays its moves when loaded; the
    ratio is taken per round, then the median), pickle dumps + loads at deals
    1, 6 and 25, conformance vectors of a few games, and ``import backalley``
    in a fresh interpreter (medians of ``repeat`` rounds)."""
    import io
    import pickle
    import tracemalloc

    from backalley.io.vectors import write_vectors

    share = max(seconds / 16, 0.05)
    out: dict[str, Any] = {
        "json_by_deal_s": {},
        "to_json_by_deal_s": {},
        "from_json_by_deal_s": {},
        "replay_by_deal_s": {},
        "json_vs_replay_by_deal": {},
        "moves_by_deal": {},
        "json_bytes": {},
        "pickle_by_deal_s": {},
        "pickle_bytes_by_deal": {},
    }
    for deal in JSON_DEALS:
        sub = JsonSubject(deal)
        out["json_bytes"][deal] = len(sub.text.encode())
        out["moves_by_deal"][deal] = len(sub.moves)
        got = [sub.timers(share) for _ in range(repeat)]
        out["json_by_deal_s"][deal] = median([g["roundtrip"] for g in got])
        out["to_json_by_deal_s"][deal] = median([g["to_json"] for g in got])
        out["from_json_by_deal_s"][deal] = median([g["from_json"] for g in got])
        out["replay_by_deal_s"][deal] = median([g["replay"] for g in got])
        out["json_vs_replay_by_deal"][deal] = median([g["roundtrip"] / g["replay"] for g in got])
    out["json_vs_replay"] = out["json_vs_replay_by_deal"][JSON_DEAL]
    out["json_growth"] = out["json_by_deal_s"][25] / out["json_by_deal_s"][1]
    for deal in (1, 6, 25):
        state = _state_at(deal - 1)
        out["pickle_bytes_by_deal"][deal] = len(pickle.dumps(state))
        out["pickle_by_deal_s"][deal] = median(
            [_per_call(lambda s=state: pickle.loads(pickle.dumps(s)), share) for _ in range(repeat)]
        )
    # the pickle row of the earlier target: a state after 5 deals (deal 6)
    out["pickle_bytes"] = out["pickle_bytes_by_deal"][6]
    out["pickle_s"] = out["pickle_by_deal_s"][6]
    games = 5
    t0 = time.process_time()
    write_vectors(ba.variants.GAMERULES, games=games, seed=0, out=io.StringIO())
    out["vectors_games"] = games
    out["vectors_s_per_game"] = (time.process_time() - t0) / games
    tracemalloc.start()
    write_vectors(ba.variants.GAMERULES, games=1, seed=0, out=io.StringIO())
    out["vectors_peak_bytes"] = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    out.update(_import_times(max(repeat, 5)))
    return out


_IMPORT_CODE = (
    "import time; t, c = time.perf_counter(), time.process_time(); import backalley; {then}"
    "print(time.perf_counter() - t, time.process_time() - c)"
)


def _import_times(runs: int, root: Path = ROOT) -> dict[str, float]:
    """``import backalley`` in fresh interpreters (their own start-up not
    counted), ``runs`` times each way, interleaved, from two copies of the
    package in a temporary folder:

    - ``import_*``: from compiled bytecode, as an installed copy imports it
      (pip compiles the ``.pyc`` files at install; a work tree imports from
      them after its first import).  The copy is compiled with ``compileall``
      first, so that ``PYTHONDONTWRITEBYTECODE`` in the environment or a stale
      ``__pycache__`` in the tree does not decide what is measured;
    - ``import_source_*``: from source, every module of the package compiled
      on the way in (a copy without ``__pycache__``, nothing written): what a
      first import after an edit costs;
    - ``import_game_*``: compiled, then ``new_game(GAMERULES, seed=1)`` (what
      the first game adds, e.g. the hashes of the shuffle).

    ``root``: the folder holding the ``backalley`` package to measure.
    """
    import shutil
    import subprocess
    import tempfile

    plain = _IMPORT_CODE.format(then="")
    game = _IMPORT_CODE.format(then="backalley.new_game(backalley.variants.GAMERULES, seed=1); ")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    with tempfile.TemporaryDirectory() as tmp:
        compiled, source = Path(tmp, "compiled"), Path(tmp, "source")
        for copy in (compiled, source):
            shutil.copytree(
                root / "backalley",
                copy / "backalley",
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
            )
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(compiled / "backalley")],
            check=True,
            capture_output=True,
        )
        ways = {"import": (plain, compiled), "import_source": (plain, source)}
        ways["import_game"] = (game, compiled)

        def once(code: str, where: Path) -> tuple[float, float]:
            done = subprocess.run(
                [sys.executable, "-c", code],
                capture_output=True,
                text=True,
                check=True,
                cwd=where,
                env=env,
            )
            wall, cpu = map(float, done.stdout.split())
            return wall, cpu

        times: dict[str, list[tuple[float, float]]] = {way: [] for way in ways}
        for _ in range(runs):
            for way, (code, where) in ways.items():
                times[way].append(once(code, where))
    out: dict[str, float] = {}
    for way, got in times.items():
        out[f"{way}_s"] = median([wall for wall, _cpu in got])
        out[f"{way}_min_s"] = min(wall for wall, _cpu in got)
        out[f"{way}_cpu_s"] = median([cpu for _wall, cpu in got])
    return out
