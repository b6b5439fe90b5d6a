"""Every code example of the documentation (docs/*.rst and README.md) runs.

The pages are read by their own markup (:mod:`tests.docpages`), never by a
hand-kept list of examples:

- ``>>>`` examples are doctests: the Sphinx doctest builder runs them, and
  with them every ``.. backalley-run::`` cell (run when the pages are read),
  when Sphinx is installed (:func:`test_the_doctest_build_passes`).
- Every Python block (``.. code-block:: python``, a ``::`` literal block whose
  text is Python, a ```` ```python ```` fence of the README) is run: the
  blocks of one page in order and in one namespace, as a reader would type
  them, in a Python process of their own whose working directory is an
  empty folder, within a time limit.  A failure names the file and the line
  of the page (tracebacks point into the page itself).
- A block whose ``:caption:`` is a file name (``our-table.toml``) is written
  to that file in the folder first, so the examples that read it find it.
- Every TOML block is loaded: a house-rules file by
  :func:`backalley.houserules.loads` (so the library accepts it), a
  ``pyproject.toml`` fragment by a TOML reader.  Every JSON block is read,
  validated against the shipped schema and loaded by the library's own
  loader of the document it is.  A ``::`` block that is TOML or JSON must
  say so (``.. code-block:: toml``), so that it is checked here.
- Every command line of a shell block (``sh``, ``console``, ...) that runs
  ``backalley`` is run, a page's lines in page order in one folder, with the
  checkout's ``backalley``; where the page shows its output (a console
  block), the output must be what it shows (``...`` standing for lines left
  out), else the command must succeed.  The others (``pip install``,
  ``backalley serve``, the benchmark scripts, ...) are reported as skipped,
  each with its reason (:data:`tests.docpages.SKIPPED`).
- The shown outputs are what ``tests/make_samples.py`` writes from real runs,
  also the samples a marker comment names (``.. sample: backalley play
  --seed 1``); run it after a change that changes them.
- Every ``backalley`` command line of a console or shell block, or of a
  ``::`` block, is read by the command's own parser: a renamed or removed
  option or command fails here.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import backalley as ba
from backalley import plugins
from backalley.cli import build_parser
from backalley.io.houserule_problems import TOP_KEYS

from ..docpages import (
    DOCS,
    FILE_NAME,
    PAGES,
    ROOT,
    SHELL,
    Block,
    Command,
    PageRun,
    Sample,
    blocks_of,
    commands_of,
    matches,
    plan_line,
    rewrite,
    run_page,
    samples_of,
)

PYTHON_PAGES_NEEDED = {"README.md", "players.rst", "cli.rst", "custom_rules.rst"}
TIME_LIMIT = 120  # seconds for one page's examples
OPTIONAL = {
    "pyspiel",
    "open_spiel",
    "numpy",
    "jsonschema",
    "pettingzoo",
    "gymnasium",
    "ray",
    "rich",
    "starlette",
    "uvicorn",
    "psycopg",
    "httpx",
}
"""Modules of the optional extras: a page whose examples need one that is
not installed is skipped, not failed."""


# A page's examples run here: each block compiled under the page's name,
# padded so that its line numbers are the page's, in a fresh __main__ (so
# that what they define can be pickled for worker processes).
RUNNER = """
import json, sys, traceback, types
OPTIONAL = set(sys.argv[1].split(","))
main = types.ModuleType("__main__")
sys.modules["__main__"] = main
for block in json.load(sys.stdin):
    code = "\\n" * (block["line"] - 1) + block["text"]
    try:
        exec(compile(code, block["page"], "exec"), main.__dict__)
    except ModuleNotFoundError as err:
        if (err.name or "").partition(".")[0] in OPTIONAL:
            print(f"{block['where']}: needs {err.name}", file=sys.stderr)
            sys.exit(3)
        traceback.print_exc()
        sys.exit(1)
    except BaseException:
        traceback.print_exc()
        print(f"{block['where']}: the example starting here fails", file=sys.stderr)
        sys.exit(1)
"""


def run_examples(page: Path, blocks: list[Block], folder: Path) -> subprocess.CompletedProcess[str]:
    """Run the Python ``blocks`` of ``page`` in ``folder`` (see the module docstring)."""
    for block in blocks_of(page):
        if FILE_NAME.match(block.caption):
            (folder / block.caption).write_text(block.text, encoding="utf-8")
    payload = [
        {"page": str(b.page), "where": b.where, "line": b.line, "text": b.text} for b in blocks
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}
    return subprocess.run(
        [sys.executable, "-c", RUNNER, ",".join(sorted(OPTIONAL))],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
        timeout=TIME_LIMIT,
    )


PYTHON_PAGES = [p for p in PAGES if any(b.is_python for b in blocks_of(p))]


def test_the_pages_have_python_examples_to_run() -> None:
    """The collector finds the examples (a change of markup cannot hide them)."""
    names = {p.name for p in PYTHON_PAGES}
    assert names >= PYTHON_PAGES_NEEDED
    solver = [b for b in blocks_of(DOCS / "solver.rst") if b.is_python]
    assert solver == [], "the solver's example is a doctest"


@pytest.mark.slow
@pytest.mark.parametrize("page", PYTHON_PAGES, ids=lambda p: p.name)
def test_every_python_example_of_the_page_runs(page: Path, tmp_path: Path) -> None:
    blocks = [b for b in blocks_of(page) if b.is_python]
    try:
        proc = run_examples(page, blocks, tmp_path)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{page.name}: the examples did not finish in {TIME_LIMIT} s")
    if proc.returncode == 3:
        pytest.skip(proc.stderr.strip().splitlines()[-1])
    assert proc.returncode == 0, proc.stderr[-4000:]


# ------------------------------------------------------------------ command lines

COMMAND_START = re.compile(r"^\$ ")


def _command_lines(block: Block) -> list[tuple[int, str]]:
    """The shell lines of a block with their line numbers on the page,
    continuation lines joined; in a console block only the lines typed
    after ``$``."""
    lines = []
    pending = ""
    start = 0
    for number, raw in enumerate(block.text.splitlines(), block.line):
        line = raw.rstrip()
        if not pending:
            start = number
            if block.lang == "console":
                if not COMMAND_START.match(line):
                    continue
                line = COMMAND_START.sub("", line)
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        lines.append((start, pending + line))
        pending = ""
    return lines


SEPARATORS = {";", "&&", "||", "|", "&"}
REDIRECTS = {">", ">>", "<"}


def backalley_commands(line: str) -> list[list[str]]:
    """The argument lists of each ``backalley`` (or ``python -m backalley``)
    command of one shell line."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    words = list(lexer)
    commands: list[list[str]] = []
    current: list[str] | None = None
    for k, word in enumerate(words):
        if word in SEPARATORS or word in REDIRECTS:
            current = None
        elif current is not None:
            current.append(word)
        elif word == "backalley" and (k == 0 or words[k - 1] in SEPARATORS | {"-m"}):
            current = []
            commands.append(current)
    return commands


def _command_blocks() -> list[Block]:
    found = []
    for page in PAGES:
        for block in blocks_of(page):
            if block.lang in SHELL or (not block.is_python and block.lang in ("", "default")):
                found.append(block)
    return found


COMMANDS = [
    (f"{block.page.relative_to(ROOT)}:{number}", argv)
    for block in _command_blocks()
    for number, line in _command_lines(block)
    for argv in backalley_commands(line)
]


def test_the_pages_show_command_lines() -> None:
    shown = {argv[0] for _, argv in COMMANDS if argv}
    assert {"play", "simulate", "rules", "check", "vectors", "show"} <= shown


@pytest.mark.parametrize(
    ("where", "argv"), COMMANDS, ids=[f"{w} {' '.join(a)}"[:80] for w, a in COMMANDS]
)
def test_every_command_line_of_the_pages_parses(where: str, argv: list[str]) -> None:
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors):
            build_parser().parse_args(argv)
    except SystemExit as exc:
        if exc.code:
            pytest.fail(f"{where}: backalley {' '.join(argv)}: {errors.getvalue().strip()}")


# ------------------------------------------------------------------ TOML and JSON


def _blocks(lang: str) -> list[Block]:
    return [b for page in PAGES for b in blocks_of(page) if b.lang == lang]


TOML_BLOCKS = _blocks("toml")
JSON_BLOCKS = _blocks("json")


def _toml(text: str) -> dict[str, object]:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    data: dict[str, object] = tomllib.loads(text)
    return data


def test_the_pages_have_toml_and_json_examples() -> None:
    """The collector finds them (a change of markup cannot hide them)."""
    pages = {b.page.name for b in TOML_BLOCKS}
    assert {"houserules.rst", "quickstart.rst", "cli.rst", "rules.rst"} <= pages
    assert {b.page.name for b in JSON_BLOCKS} >= {"integration.rst"}


@pytest.mark.parametrize("block", TOML_BLOCKS, ids=lambda b: b.where)
def test_every_toml_example_loads(block: Block) -> None:
    """A house-rules file (its keys those of one) is a rule set the library
    accepts; a ``pyproject.toml`` fragment declares the plug-in entry-point
    group the command line loads."""
    data = _toml(block.text)
    if set(data) <= set(TOP_KEYS) or _shown_refused(block):
        try:
            rules = ba.houserules.loads(block.text)
        except ba.houserules.HouseRulesError as exc:
            shown = _shown_refused(block)
            assert shown, f"{block.where}: the house-rules example is refused: {exc}"
            for problem in exc.problems:  # refused on purpose: as the page shows it
                assert f"backalley: {block.caption}: {problem}" in shown, (block.where, problem)
            return
        assert isinstance(rules, ba.RuleSet)
        if "name" in data:
            assert rules.name == data["name"]
        return
    project = data.get("project")
    assert isinstance(project, dict), f"{block.where}: neither house rules nor pyproject.toml"
    groups = project.get("entry-points", {})
    assert set(groups) == {plugins.ENTRY_POINT_GROUP}, f"{block.where}: {sorted(groups)}"


def _shown_refused(block: Block) -> tuple[str, ...]:
    """The output a console line of the block's page shows for the file the
    block is (its caption), when that output is a refusal (exit status 2):
    such a file is an example of what is refused."""
    if not FILE_NAME.match(block.caption):
        return ()
    for command in commands_of(block.page):
        shown = command.output or ()
        names_it = block.caption in command.text.split()
        if names_it and shown and all(line.startswith("backalley: ") for line in shown):
            return shown
    return ()


DOCUMENTS: dict[str, type] = {
    "card": ba.Card,
    "rules_document": ba.RuleSet,
    "deal_result_document": ba.DealResult,
    "contract_document": ba.Contract,
    "state": ba.GameState,
    "view": ba.PlayerView,
    "record": ba.GameRecord,
}
"""The document types of the schema's top level, by the class that loads each."""


@pytest.mark.parametrize("block", JSON_BLOCKS, ids=lambda b: b.where)
def test_every_json_example_is_a_document_the_library_loads(block: Block) -> None:
    """It parses, it is one of the shipped schema's document types, and the
    library's loader of that type reads it."""
    jsonschema = pytest.importorskip("jsonschema")
    from backalley.io.schema import schema

    data = json.loads(block.text)
    kinds = [
        name for name in DOCUMENTS if jsonschema.Draft202012Validator(schema(name)).is_valid(data)
    ]
    assert kinds, f"{block.where}: no document type of the schema accepts this example"
    for kind in kinds:
        try:
            ba.from_json(block.text, DOCUMENTS[kind])
        except ba.SerializationError as exc:
            pytest.fail(f"{block.where}: the {kind} example is refused: {exc}")


TOML_TABLE = re.compile(r"^\[\[?[\w.\"-]+\]\]?\s*(#.*)?$")
"""A TOML table header (``[scoring]``, ``[[scoring.hand_size_rates]]``)."""


def _literal_data(block: Block) -> str | None:
    """``"json"`` or ``"toml"`` when an untagged block is data in that
    language: it parses as such, or (TOML, even one that does not parse)
    it starts with a table header."""
    try:
        if isinstance(json.loads(block.text), (dict, list)):
            return "json"
    except ValueError:
        pass
    if TOML_TABLE.match(block.text.lstrip().split("\n", 1)[0]):
        return "toml"
    try:
        if _toml(block.text):
            return "toml"
    except ValueError:
        pass
    return None


def test_every_toml_or_json_block_says_its_language() -> None:
    """A ``::`` block that is TOML or JSON would escape the checks above."""
    untagged = [
        f"{b.where}: {kind}"
        for page in PAGES
        for b in blocks_of(page)
        if b.lang in ("", "default") and (kind := _literal_data(b))
    ]
    assert untagged == [], "give these blocks their language (.. code-block:: toml)"


# ------------------------------------------------------------------ command lines run

SHELL_COMMANDS: list[Command] = [c for page in PAGES for c in commands_of(page)]
SAMPLES: list[Sample] = [s for page in PAGES for s in samples_of(page)]


@pytest.fixture(scope="module")
def page_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, PageRun]:
    """Each page's command lines and samples, run once (lazily, by page)."""

    class Runs(dict[Path, PageRun]):
        def __missing__(self, page: Path) -> PageRun:
            folder = tmp_path_factory.mktemp(page.stem)
            run = self[page] = run_page(page, folder)
            return run

    return Runs()


def test_the_pages_run_command_lines_and_show_their_output() -> None:
    runs = [c for c in SHELL_COMMANDS if plan_line(c.text).run]
    assert {c.page.name for c in runs} >= {"README.md", "cli.rst", "quickstart.rst"}
    assert sum(c.output is not None for c in runs) >= 8
    assert {s.page.name for s in SAMPLES} >= {"README.md", "cli.rst"}


@pytest.mark.slow
@pytest.mark.parametrize("command", SHELL_COMMANDS, ids=lambda c: f"{c.where} {c.text}"[:80])
def test_every_command_line_runs_and_shows_its_output(
    command: Command, page_runs: dict[Path, PageRun]
) -> None:
    plan = plan_line(command.text)
    assert not plan.unknown, (
        f"{command.where}: {plan.unknown}: neither run nor skipped here; "
        "add the reason to tests/docpages.py's SKIPPED"
    )
    for script in re.findall(r"\bbenchmarks/[\w.]+\.py\b", command.text):
        assert (ROOT / script).is_file(), f"{command.where}: there is no {script}"
    if plan.run is None:
        pytest.skip("; ".join(plan.skipped))
    run = page_runs[command.page]
    result = next(r for c, _, r in run.commands if c.line == command.line)
    assert result is not None
    if command.output is None:
        assert result.status == 0, f"{command.where}: {command.text}\n" + "\n".join(
            result.output[-30:]
        )
        return
    assert matches(command.output, result.output), (
        f"{command.where}: {command.text} wrote\n" + "\n".join(result.output[:60])
    )


@pytest.mark.slow
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.where)
def test_every_sample_output_is_a_real_run(sample: Sample, page_runs: dict[Path, PageRun]) -> None:
    result = next(r for s, r in page_runs[sample.page].samples if s.line == sample.line)
    shown = sample.block.lines
    assert matches(shown, result.output), f"{sample.where}: {sample.command} wrote\n" + "\n".join(
        result.output[:60]
    )


SHOWING = sorted(
    {c.page for c in SHELL_COMMANDS if c.output is not None} | {s.page for s in SAMPLES}
)


@pytest.mark.slow
@pytest.mark.parametrize("page", SHOWING, ids=lambda p: p.name)
def test_the_shown_outputs_are_what_make_samples_writes(
    page: Path, page_runs: dict[Path, PageRun]
) -> None:
    """Cut where and as the script cuts them, so that the script's next run
    changes nothing."""
    assert rewrite(page, page_runs[page]) == page.read_text(encoding="utf-8"), (
        f"{page.name}: run python tests/make_samples.py"
    )


# ------------------------------------------------------------------ the doctest build


@pytest.mark.slow
def test_the_doctest_build_passes(tmp_path: Path) -> None:
    """``sphinx-build -b doctest``: every ``>>>`` example of the pages gives
    the output shown, and every page is read without a warning."""
    pytest.importorskip("sphinx")
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "doctest",
         "-d", str(tmp_path / "doctrees"), str(DOCS), str(tmp_path / "out")],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    report = (
        (tmp_path / "out" / "output.txt").read_text(encoding="utf-8") if proc.returncode else ""
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:] + report[-3000:]
