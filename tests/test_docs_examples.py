"""Every code example of the documentation (docs/*.rst and README.md) runs.

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
- Every ``backalley`` command line of a console or shell block, or of a
  ``::`` block, is read by the command's own parser: a renamed or removed
  option or command fails here.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import attrs
import pytest

from backalley.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [*sorted(DOCS.glob("*.rst")), ROOT / "README.md"]

PYTHON = {"python", "python3", "py"}
SHELL = {"console", "sh", "bash", "shell", "shell-session"}
DIRECTIVE = re.compile(r"^(?P<indent> *)\.\. (?:code-block|code|sourcecode)::\s*(?P<lang>\S*)\s*$")
OPTION = re.compile(r"^ +:(?P<name>[\w-]+):\s*(?P<value>.*)$")
FENCE = re.compile(r"^```(?P<lang>[\w-]*)\s*$")
FILE_NAME = re.compile(r"^[\w.-]+\.\w+$")
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


@attrs.frozen
class Block:
    """One code block of a page: its language, its first line's number
    (from 1) and its text, dedented."""

    page: Path
    line: int
    lang: str
    text: str
    caption: str = ""

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def is_python(self) -> bool:
        if self.lang in PYTHON:
            return True
        return self.lang in ("", "default") and _parses(self.text)


def _parses(text: str) -> bool:
    """A ``::`` block is Python when it parses as Python and does something
    (a lone word or number would parse too)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return False
    return any(
        not isinstance(node, ast.Expr) or isinstance(node.value, ast.Call) for node in tree.body
    )


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _body(lines: list[str], start: int, outer: int) -> tuple[int, int, str]:
    """The indented body of a block starting at ``start`` (0-based) under a
    line indented ``outer``: the index of its first line, the index past its
    last line, and its text."""
    i = start
    while i < len(lines) and not lines[i].strip():
        i += 1
    first = i
    end = i
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > outer):
        if lines[i].strip():
            end = i + 1
        i += 1
    return first, end, textwrap.dedent("\n".join(lines[first:end])) + "\n"


def rst_blocks(page: Path) -> list[Block]:
    """The code blocks of a reStructuredText page: ``.. code-block::``
    directives and ``::`` literal blocks, in page order."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        line = lines[i]
        match = DIRECTIVE.match(line)
        if match:
            outer = len(match["indent"])
            options = {}
            j = i + 1
            while j < len(lines) and (option := OPTION.match(lines[j])):
                options[option["name"]] = option["value"].strip()
                j += 1
            first, end, text = _body(lines, j, outer)
            blocks.append(Block(page, first + 1, match["lang"], text, options.get("caption", "")))
            i = max(end, i + 1)
            continue
        stripped = line.strip()
        if stripped.endswith("::") and not stripped.startswith(".."):
            first, end, text = _body(lines, i + 1, _indent(line))
            if text.strip():
                blocks.append(Block(page, first + 1, "", text))
            i = max(end, i + 1)
            continue
        i += 1
    return blocks


def markdown_blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if match and match["lang"]:
            end = i + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            text = "\n".join(lines[i + 1 : end]) + "\n"
            blocks.append(Block(page, i + 2, match["lang"], text))
            i = end + 1
            continue
        i += 1
    return blocks


def blocks_of(page: Path) -> list[Block]:
    return markdown_blocks(page) if page.suffix == ".md" else rst_blocks(page)


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
    assert {"README.md", "players.rst", "cli.rst", "custom_rules.rst"} <= names
    solver = [b for b in blocks_of(DOCS / "solver.rst") if b.is_python]
    assert solver == [], "the solver's example is a doctest"


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


# ------------------------------------------------------------------ the doctest build


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
