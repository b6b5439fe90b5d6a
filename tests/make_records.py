"""Write the golden game records ``tests/data/records/<variant>.json``: one
whole game of every registered variant, played by seeded random legal
moves, with the results it reached.

``tests/io/test_records.py`` replays each file to its recorded results, so the
files pin down the rules of every variant (and the record format): a change
to a variant's rules or to the engine that plays a recorded game differently
fails there.  Regenerate (only for an intended change) with::

    python -m tests.make_records            # every variant
    python -m tests.make_records vietnam    # some variants
"""

from __future__ import annotations

import random
import sys
import zlib
from pathlib import Path

import backalley as ba

RECORDS = Path(__file__).resolve().parent / "data" / "records"
PLAYERS = ("North", "East", "South", "West", "Fifth", "Sixth", "Seventh", "Eighth")


def seed_of(name: str) -> int:
    """A fixed seed per variant (stable across runs and machines)."""
    return zlib.crc32(name.encode("utf-8")) % 10_000


def make_record(name: str) -> ba.GameRecord:
    rules = ba.variants.get(name)
    seed = seed_of(name)
    start = ba.new_game(rules, seed=seed)
    rng = random.Random(seed)
    state, moves = start, []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    return ba.GameRecord.from_game(
        start,
        moves,
        final=state,
        players=PLAYERS[: rules.players],
        metadata={
            "variant": name,
            "generator": "tests/make_records.py",
            "players": "random legal moves",
        },
    )


def record_text(record: ba.GameRecord) -> str:
    """The file's text: the record's JSON, indented (one move a line, for readable diffs)."""
    return ba.to_json(record, indent=2) + "\n"


def path_of(name: str) -> Path:
    return RECORDS / f"{name}.json"


def main(argv: list[str]) -> int:
    names = argv[1:] or list(ba.variants.names())
    RECORDS.mkdir(parents=True, exist_ok=True)
    for name in names:
        record = make_record(name)
        path_of(name).write_text(record_text(record), encoding="utf-8")
        print(f"{path_of(name)}: {len(record.moves)} moves, {len(record.results or ())} deals")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
