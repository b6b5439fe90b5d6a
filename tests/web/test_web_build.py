"""``backalley build-web``: the folder for a static host (runtime, wheels,
pages), its wheels complete and reproducible; the bridge that backalley.js
calls, under CPython; the server's ``--web`` pages and their policy.  No
Node and no npm package needed: a stand-in runtime folder is enough."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import backalley as ba
from backalley.cli import main
from backalley.web import bridge
from backalley.web.build import PYODIDE_FILES, STATIC, build_web


@pytest.fixture
def runtime(tmp_path: Path) -> Path:
    """A stand-in for the npm package pyodide: its files, any content."""
    folder = tmp_path / "node_modules" / "pyodide"
    folder.mkdir(parents=True)
    for name in PYODIDE_FILES:
        (folder / name).write_text(f"stand-in {name}\n")
    (folder / "package.json").write_text('{"name": "pyodide", "version": "314.0.8"}')
    return folder


def _run(*args: str) -> tuple[int, str, str]:
    out = io.StringIO()
    err = io.StringIO()
    saved = sys.stderr
    sys.stderr = err
    try:
        code = main(list(args), out=out)
    finally:
        sys.stderr = saved
    return code, out.getvalue(), err.getvalue()


def test_build_web_writes_the_runtime_the_wheels_the_pages_and_a_manifest(
    runtime: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    code, out, err = _run("build-web", str(site), "--pyodide", str(runtime))
    assert (code, err) == (0, "")
    assert "Pyodide 314.0.8, 4 wheels" in out and f"backalley serve --web {site}" in out
    manifest = json.loads((site / "manifest.json").read_text())
    assert manifest["format"] == "backalley/web" and manifest["backalley"] == ba.__version__
    assert [w["name"] for w in manifest["wheels"]] == [
        "typing_extensions",
        "attrs",
        "cattrs",
        "backalley",
    ]
    for name in PYODIDE_FILES:
        assert (site / "pyodide" / name).read_text() == f"stand-in {name}\n"
    for name in (
        "index.html",
        "backalley.js",
        "backalley-worker.js",
        "backalley.d.ts",
        "offline.js",
        "local.js",
    ):
        assert (site / name).read_bytes() == (STATIC / name).read_bytes()
    assert (site / "table.js").is_file() and (site / "table.css").is_file()
    for wheel in manifest["wheels"]:
        data = (site / "wheels" / wheel["file"]).read_bytes()
        assert wheel["bytes"] == len(data) and wheel["sha256"] == hashlib.sha256(data).hexdigest()
        assert wheel["file"].endswith("-py3-none-any.whl")
    sizes = manifest["files"]
    assert sizes["pyodide/pyodide.asm.wasm"] == (site / "pyodide/pyodide.asm.wasm").stat().st_size


def test_the_wheels_are_whole_reproducible_and_hold_no_compiled_file(
    runtime: Path, tmp_path: Path
) -> None:
    first = build_web(tmp_path / "one", pyodide=runtime)
    again = build_web(tmp_path / "two", pyodide=runtime)
    assert [w["sha256"] for w in first["wheels"]] == [w["sha256"] for w in again["wheels"]]
    for wheel in first["wheels"]:
        with zipfile.ZipFile(tmp_path / "one" / "wheels" / wheel["file"]) as archive:
            names = archive.namelist()
            record = next(n for n in names if n.endswith(".dist-info/RECORD"))
            rows = [line.split(",") for line in archive.read(record).decode().splitlines()]
            assert {row[0] for row in rows} == set(names)
            for name, digest, size in rows:
                if name == record:
                    continue
                data = archive.read(name)
                expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                assert digest == "sha256=" + expected.decode() and int(size) == len(data)
            assert not [n for n in names if "__pycache__" in n or n.endswith((".pyc", ".so"))]
            if wheel["name"] == "backalley":
                assert "backalley/web/bridge.py" in names and "backalley/py.typed" in names
                assert "backalley/io/schema/backalley.schema.json" in names
                assert not [n for n in names if "/static/" in n]


def test_the_wheels_alone_run_the_bridge_in_a_fresh_interpreter(
    runtime: Path, tmp_path: Path
) -> None:
    """What Pyodide unpacks is all the library needs: the four wheels, and
    the standard library."""
    manifest = build_web(tmp_path / "site", pyodide=runtime)
    packages = tmp_path / "site-packages"
    for wheel in manifest["wheels"]:
        with zipfile.ZipFile(tmp_path / "site" / "wheels" / wheel["file"]) as archive:
            archive.extractall(packages)
    code = (
        "import sys, json; sys.path[:0] = [sys.argv[1]]\n"
        "import backalley, attr, cattrs\n"
        "assert backalley.__file__.startswith(sys.argv[1]), backalley.__file__\n"
        "from backalley.web import bridge\n"
        "rules = bridge.rules('vietnam').value\n"
        "game = bridge.new_game(rules, json.dumps({'seed': 5})).value\n"
        "print(bridge.check(game, 'bid 99').value)\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", code, str(packages)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["reason"] == "BID_TOO_HIGH"


def test_build_web_takes_given_wheels_and_refuses_compiled_ones(
    runtime: Path, tmp_path: Path
) -> None:
    given = tmp_path / "given"
    given.mkdir()
    with zipfile.ZipFile(given / "attrs-99.0-py3-none-any.whl", "w") as archive:
        archive.writestr("attr/__init__.py", "")
    manifest = build_web(tmp_path / "site", pyodide=runtime, wheels=given)
    assert manifest["wheels"][1]["file"] == "attrs-99.0-py3-none-any.whl"
    (given / "cattrs-1.0-cp311-cp311-linux_x86_64.whl").write_bytes(b"")
    code, _, err = _run(
        "build-web", str(tmp_path / "site"), "--pyodide", str(runtime), "--wheels", str(given)
    )
    assert code == 2 and err.count("\n") == 1 and "not a pure-Python wheel" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pyodide", "MISSING"], "is not the npm package pyodide (no pyodide.mjs)"),
        ([], "no Pyodide runtime in node_modules/pyodide or web/node_modules/pyodide"),
        (["--wheels", "MISSING"], "--wheels"),
    ],
)
def test_build_web_without_its_inputs_says_so_in_one_line(
    args: list[str],
    message: str,
    runtime: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # no node_modules/pyodide below it
    if "--wheels" in args:
        args = [*args, "--pyodide", str(runtime)]
    code, out, err = _run(
        "build-web", "site", *[str(tmp_path / a) if a == "MISSING" else a for a in args]
    )
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err


def test_build_web_does_not_write_into_a_folder_it_did_not_write(
    runtime: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    code, _, err = _run("build-web", str(folder), "--pyodide", str(runtime))
    assert code == 2 and "not empty and was not written by build-web" in err
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
    build_web(tmp_path / "again", pyodide=runtime)
    assert _run("build-web", str(tmp_path / "again"), "--pyodide", str(runtime))[0] == 0


def _methods(source: str, cls: str, body_start: str) -> set[str]:
    start = source.index(body_start)
    end = source.find("\n}\n", start)
    names = set(
        re.findall(r"^  (?:static )?(?:async )?([a-z][A-Za-z]*)\(", source[start:end], re.M)
    )
    return names - {"constructor"}


def test_the_typescript_declarations_declare_every_method_of_the_api() -> None:
    script = (STATIC / "backalley.js").read_text()
    types = (STATIC / "backalley.d.ts").read_text()
    for cls in ("Backalley", "Rules", "Game", "Bot"):
        declared = _methods(types, cls, f"export declare class {cls} ")
        written = _methods(script, cls, f"export class {cls} ")
        assert written and written == declared, cls
        # the worker's client offers every method of the synchronous API (and the
        # worker lets it call each one)
        asynchronous = _methods(script, f"Async{cls}", f"export class Async{cls} ")
        assert asynchronous == _methods(types, f"Async{cls}", f"export declare class Async{cls} ")
        assert asynchronous - written == ({"terminate"} if cls == "Backalley" else set()), cls
        assert written - asynchronous == set(), cls
    worker = (STATIC / "backalley-worker.js").read_text()
    allowed = re.search(r"const METHODS = \{(.*?)\n\};", worker, re.S)
    assert allowed is not None
    for cls, names in re.findall(r"(\w+): \[([^\]]*)\]", allowed.group(1)):
        assert set(re.findall(r'"(\w+)"', names)) == _methods(
            script, cls, f"export class {cls} "
        ) - {"dispose"}, cls
    exported = set(re.findall(r"^export (?:async )?(?:function|class) (\w+)", script, re.M))
    assert {"load", "loadInWorker", "AsyncBackalley"} <= exported
    for name in exported:
        assert re.search(rf"^export declare (?:function|class) {name}\b", types, re.M), name


def test_every_file_the_declarations_name_is_in_the_built_folder(
    runtime: Path, tmp_path: Path
) -> None:
    """backalley.d.ts points to the documents' JSON Schema: build-web writes
    it beside it, the library's own schema."""
    from backalley.io.schema import schema

    site = tmp_path / "site"
    build_web(site, pyodide=runtime)
    named = set(re.findall(r"\b([\w.-]+\.(?:json|js))\b", (site / "backalley.d.ts").read_text()))
    assert "backalley.schema.json" in named and "backalley-worker.js" in named
    for name in named:
        assert (site / name).is_file(), name
    assert json.loads((site / "backalley.schema.json").read_text(encoding="utf-8")) == schema()
    manifest = json.loads((site / "manifest.json").read_text(encoding="utf-8"))
    assert (
        manifest["files"]["backalley.schema.json"]
        == (site / "backalley.schema.json").stat().st_size
    )


# -- the bridge, under CPython -------------------------------------------------------------------


def test_the_bridge_answers_the_librarys_errors_as_data() -> None:
    game = bridge.new_game(ba.variants.GAMERULES, json.dumps({"seed": "36"})).value
    refused = bridge.apply(game, "bid 4", 3)
    assert refused.value is None and json.loads(refused.error or "") == {
        "kind": "IllegalMoveError",
        "message": "it is seat 0's turn, not seat 3's",
        "reason": "NOT_YOUR_TURN",
        "move": "bid 4",
        "seat": 3,
        "problems": [],
        "path": None,
    }
    assert json.loads(bridge.check(game, "QS").value)["reason"] == "WRONG_PHASE"
    notation = json.loads(bridge.check(game, "1X").error or "")
    assert notation["kind"] == "NotationError" and "'1X' is not a move" in notation["message"]
    problems = json.loads(
        bridge.rules('{"format": "backalley/rules", "base": "vietnam", "scoring": 3}').error or ""
    )
    assert problems["kind"] == "HouseRulesError" and problems["problems"]
    unknown = json.loads(bridge.rules("nope").error or "")
    assert unknown["kind"] == "UnknownVariantError" and unknown["message"].startswith(
        "unknown variant"
    )
    for options in ('{"seed": 1.5}', '{"seed": "x"}', '{"colour": 1}', "[]", "{"):
        assert json.loads(bridge.new_game(ba.variants.GAMERULES, options).error or "")["kind"] == (
            "SetupError"
        ), options
    assert json.loads(bridge.view(game, 1.5).error or "")["kind"] == "SetupError"


def test_the_bridge_reads_names_json_and_toml_and_resumes_every_document() -> None:
    assert bridge.rules(" vietnam ").value == ba.variants.VIETNAM
    as_json = bridge.rules(ba.to_json(ba.variants.VIETNAM_42)).value
    assert as_json == ba.variants.VIETNAM_42
    toml = bridge.rules("base = 'vietnam'\n[schedule]\nhand_sizes = [2]\n").value
    assert toml.schedule.hand_sizes == (2,)
    assert bridge.rules("vietnam", "toml").error is not None
    state = ba.new_game("vietnam", seed=3).apply_text("bid 1")
    assert bridge.resume(ba.to_json(state)).value == state
    assert bridge.resume(ba.to_json(state.view(2))).value == state.view(2)
    record = ba.to_json(ba.GameRecord.from_state(state))
    assert bridge.resume(record).value == state
    wrong = json.loads(bridge.resume(ba.to_json(ba.variants.VIETNAM)).error or "")
    assert wrong["kind"] == "SerializationError" and "'backalley/rules'" in wrong["message"]
    summary = json.loads(bridge.summary(state))
    assert (
        summary["kind"] == "state" and summary["moves"] == 1 and summary["to_act"] == state.to_act
    )
    over = ba.new_game(
        bridge.rules("base = 'vietnam'\n[schedule]\nhand_sizes = [1]\n").value, seed=1
    )
    while not over.is_over:
        over = over.apply(over.legal_moves()[-1])
    assert json.loads(bridge.view(over).error or "")["message"].startswith("the game is over")
    assert json.loads(bridge.view(over, 2).value)["seat"] == 2


@pytest.mark.parametrize("variant", ["gamerules", "vietnam", "vietnam-cutthroat"])
def test_the_end_of_a_deal_names_the_last_trick_the_scores_count(variant: str) -> None:
    """deal_end (the offline table's pause, backalley.js's dealEnd): the last
    trick's winner is the seat whose side the deal's result credits with
    one more trick than before the last card."""
    import random

    from backalley.render.facts import deal_end

    rng = random.Random(variant)
    state = ba.new_game(variant, seed=4)
    ends = 0
    while not state.is_over and ends < 2:
        move = rng.choice(state.legal_moves())
        after = state.apply(move)
        end = deal_end(state, move, after)
        if len(after.deal_results) == len(state.deal_results):
            assert end is None
        else:
            assert end is not None and end["deal"] == after.deal_results[-1].number
            trick = end["last_trick"]
            assert trick["cards"][-1] == str(move.card)  # type: ignore[attr-defined]
            sides = json.loads(ba.to_json(state.view(0)))["side_seats"]
            (won,) = [i for i, seats in enumerate(sides) if trick["winner"] in seats]
            expected = list(state.side_tricks)
            expected[won] += 1
            assert list(after.deal_results[-1].tricks) == expected
            result = after.deal_results[-1]
            assert end["made"] == [
                None if c is None else t >= c.tricks
                for c, t in zip(result.contracts, result.tricks)
            ]
            answer = bridge.deal_end(state, str(move), after)
            assert json.loads(answer.value) == end
            ends += 1
        state = after
    assert ends == 2
    assert json.loads(bridge.deal_end(state.view(0), "pass", state).error or "")["kind"] == (
        "SetupError"
    )


# -- the server's --web --------------------------------------------------------------------------


def test_the_server_serves_the_folder_and_only_its_pages_may_compile_webassembly(
    runtime: Path, tmp_path: Path
) -> None:
    pytest.importorskip("starlette", reason="the server's extra (starlette) is not installed")
    from starlette.testclient import TestClient

    from backalley.server import SqliteStore, create_app

    site = tmp_path / "site"
    build_web(site, pyodide=runtime)
    store = SqliteStore(tmp_path / "tables.db")
    try:
        with TestClient(create_app(store, bot_delay=0, allowed_hosts="testserver")) as plain:
            page = plain.get("/")
            assert "wasm" not in page.headers["content-security-policy"]
            assert "local.js" not in page.text
            assert plain.get("/web/").status_code == 404
        app = create_app(store, bot_delay=0, web=site, allowed_hosts="testserver")
        with TestClient(app) as client:
            page = client.get("/")
            policy = page.headers["content-security-policy"]
            assert "script-src 'self' 'wasm-unsafe-eval'" in policy
            assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
            assert '<script type="module" src="/web/local.js"></script>' in page.text
            offline = client.get("/web/")
            assert offline.status_code == 200 and 'data-table="offline"' in offline.text
            assert "'wasm-unsafe-eval'" in offline.headers["content-security-policy"]
            module = client.get("/web/pyodide/pyodide.mjs")
            assert module.headers["content-type"].startswith("text/javascript")
            assert client.get("/web/pyodide/pyodide.asm.wasm").headers["content-type"] == (
                "application/wasm"
            )
            assert client.get("/web/manifest.json").json()["format"] == "backalley/web"
            static = client.get("/static/table.js")
            assert "wasm" not in static.headers.get("content-security-policy", "")
            assert client.get("/web/../tables.db").status_code == 404
    finally:
        store.close()
    with pytest.raises(ba.SetupError, match="not a folder written by 'backalley build-web DIR'"):
        create_app(store, web=tmp_path)
    code, _, err = _run(
        "serve", "--web", str(tmp_path), "--port", "0", "--data", str(tmp_path / "d")
    )
    assert code == 2 and err.count("\n") == 1 and "is not a folder written by" in err
    assert not (tmp_path / "d").exists(), "nothing was started"
