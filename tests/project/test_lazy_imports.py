"""``import backalley`` loads the engine and the rules only: the documents
(cattrs), the house-rules reader, game records, the rules sheet and the
hashes of the shuffles load on first use (player views are part of the engine:
a state makes them)."""

from __future__ import annotations

import subprocess
import sys

from .. import ROOT

LAZY = (
    "cattrs",
    "backalley.io.serialize",
    "backalley.io.houserules",
    "backalley.io.record",
    "backalley.engine.lowlevel",
    "backalley.rules.sheet",
    "tomllib",
)


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_import_backalley_loads_no_documents_and_they_load_on_first_use() -> None:
    code = (
        "import sys, backalley as ba\n"
        f"print(sorted(m for m in {LAZY!r} if m in sys.modules))\n"
        "state = ba.new_game(seed=1)\n"
        "state = state.apply(state.legal_moves()[0])\n"
        f"print(sorted(m for m in {LAZY!r} if m in sys.modules))\n"
        "from backalley import GameRecord, replay\n"
        "print(ba.from_json(ba.to_json(state), ba.GameState) == state, GameRecord.__name__,\n"
        "      replay.__name__, ba.ReplayError.__name__, ba.houserules.__name__)\n"
        "print('cattrs' in sys.modules)\n"
    )
    before, played, loaded, cattrs = _run(code).splitlines()
    assert before == played == "[]"
    assert loaded == "True GameRecord replay ReplayError backalley.io.houserules"
    assert cattrs == "True"


def test_an_unknown_name_is_an_attribute_error() -> None:
    code = (
        "import backalley\n"
        "try:\n"
        "    backalley.no_such_name\n"
        "except AttributeError as exc:\n"
        "    print(exc)\n"
    )
    assert _run(code) == "module 'backalley' has no attribute 'no_such_name'"


def test_views_the_rules_sheet_and_the_shuffle_hash_load_on_first_use() -> None:
    code = (
        "import sys, backalley as ba\n"
        "print('hashlib' in sys.modules)\n"
        "state = ba.new_game(ba.variants.GAMERULES, seed=1)\n"
        "print('hashlib' in sys.modules)\n"
        "print(type(state.view(0)) is ba.PlayerView, 'backalley.engine.views' in sys.modules)\n"
        "print(ba.rules.rules_sheet(ba.variants.GAMERULES).splitlines()[0])\n"
        "from backalley.rules import diff_rules\n"
        "print(diff_rules(ba.variants.GAMERULES, ba.variants.GAMERULES) == [])\n"
    )
    assert _run(code).splitlines() == [
        "False",
        "True",
        "True True",
        "Back Alley: gamerules",
        "True",
    ]


def test_an_unknown_rules_name_is_an_attribute_error() -> None:
    code = (
        "import backalley.rules\n"
        "try:\n"
        "    backalley.rules.no_such_name\n"
        "except AttributeError as exc:\n"
        "    print(exc)\n"
    )
    assert _run(code) == "module 'backalley.rules' has no attribute 'no_such_name'"
