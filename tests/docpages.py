"""The documentation's pages (``docs/*.rst`` and ``README.md``) read as a
reader reads them, and their command lines run as a reader would type them.

- :func:`blocks_of`: a page's code blocks, each with the language it says it
  is in (``.. code-block:: toml``, a ```` ```sh ```` fence, a ``::`` literal
  block without one), its caption and where it stands on the page.
- :func:`commands_of`: the command lines of a page's shell blocks (``sh``,
  ``console``, ...), continuation lines joined; in a console block the lines
  typed after ``$``, each with the output the page shows after it.
- :func:`samples_of`: the sample outputs a page says a command writes: a
  marker comment before a code block, ``.. sample: COMMAND`` (reST) or
  ``<!-- sample: COMMAND -->`` (Markdown), with an optional ``:lines:`` of
  the output to show (``1-9, 20-23``; ``...`` stands for the lines left out).
- :class:`Runner`: runs command lines in one folder, in page order, with
  ``backalley`` (and ``python``) the checkout's own; :func:`plan_line` says
  which parts of a line run here and why each other part does not.

Used by ``tests/docs/test_docs_examples.py`` (every example runs and shows what it
writes) and ``tests/make_samples.py`` (writes the shown outputs from real runs).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

from . import ROOT

DOCS = ROOT / "docs"
PAGES = [*sorted(DOCS.glob("*.rst")), ROOT / "README.md"]

PYTHON = {"python", "python3", "py"}
SHELL = {"console", "sh", "bash", "shell", "shell-session"}
DIRECTIVE = re.compile(r"^(?P<indent> *)\.\. (?:code-block|code|sourcecode)::\s*(?P<lang>\S*)\s*$")
OPTION = re.compile(r"^ +:(?P<name>[\w-]+):\s*(?P<value>.*)$")
FENCE = re.compile(r"^```(?P<lang>[\w-]*)\s*$")
FILE_NAME = re.compile(r"^[\w.-]+\.\w+$")
ELISION = "..."
"""A line of shown output that stands for any number of lines."""

COMMAND_TIME_LIMIT = 120  # seconds for one command line


# ------------------------------------------------------------------ code blocks


@attrs.frozen
class Block:
    """One code block of a page: its language, its first line's number
    (from 1) and its text, dedented; ``start``/``end`` are the page's line
    indexes (from 0) of its first line and past its last, ``indent`` the
    indentation of its lines on the page."""

    page: Path
    line: int
    lang: str
    text: str
    caption: str = ""
    start: int = 0
    end: int = 0
    indent: int = 0

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def lines(self) -> list[str]:
        """The block's lines as the page has them, less the block's indentation
        (a shown output keeps the spaces its lines start with)."""
        page = self.page.read_text(encoding="utf-8").splitlines()
        return [line[self.indent :] for line in page[self.start : self.end]]

    @property
    def is_python(self) -> bool:
        if self.lang in PYTHON:
            return True
        return self.lang in ("", "default") and _parses(self.text)


def _parses(text: str) -> bool:
    """A ``::`` block is Python when it parses as Python and does something
    (a lone word or number would parse too)."""
    import ast

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


def _indent_of(lines: list[str], outer: int) -> int:
    """The indentation of a directive's content: three more than the
    directive's (the pages' convention) when every line has that much, else
    the least of its lines'."""
    least = min((_indent(line) for line in lines if line.strip()), default=0)
    return outer + 3 if least >= outer + 3 else least


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
            blocks.append(
                Block(
                    page,
                    first + 1,
                    match["lang"],
                    text,
                    options.get("caption", ""),
                    first,
                    end,
                    _indent_of(lines[first:end], outer),
                )
            )
            i = max(end, i + 1)
            continue
        stripped = line.strip()
        if stripped.endswith("::") and not stripped.startswith(".."):
            first, end, text = _body(lines, i + 1, _indent(line))
            if text.strip():
                indent = _indent_of(lines[first:end], _indent(line))
                blocks.append(Block(page, first + 1, "", text, "", first, end, indent))
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
            blocks.append(Block(page, i + 2, match["lang"], text, "", i + 1, end, 0))
            i = end + 1
            continue
        i += 1
    return blocks


def blocks_of(page: Path) -> list[Block]:
    return markdown_blocks(page) if page.suffix == ".md" else rst_blocks(page)


# ------------------------------------------------------------------ command lines


@attrs.frozen
class Command:
    """One command line of a page's shell block: as typed (continuation lines
    joined, without the ``$``), the number of its line on the page, and the
    output the page shows after it (``None`` when it shows none).  ``start``
    and ``end`` are the page's line indexes of that output."""

    page: Path
    line: int
    text: str
    output: tuple[str, ...] | None
    block: Block
    start: int = 0
    end: int = 0

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


PROMPT = re.compile(r"^\$ ")


def _joined(lines: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
    """``(number, text)`` lines with continuation lines (ending in ``\\``)
    joined: ``(first number, last number, text)``."""
    joined = []
    pending = ""
    start = 0
    for number, line in lines:
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        joined.append((start, number, pending + line))
        pending = ""
    return joined


def block_commands(block: Block) -> list[Command]:
    """The command lines of one shell block (see :class:`Command`).  A
    console block without a ``$`` line is read as plain commands."""
    raw = [(n, line.rstrip()) for n, line in enumerate(block.lines, block.line)]
    if block.lang != "console" or not any(PROMPT.match(line) for _, line in raw):
        plain = [(n, line) for n, line in raw if line.strip() and not line.lstrip().startswith("#")]
        return [Command(block.page, n, text, None, block) for n, _, text in _joined(plain)]
    commands = []
    k = 0
    while k < len(raw):
        number, line = raw[k]
        if not PROMPT.match(line):
            k += 1
            continue
        typed = [(number, PROMPT.sub("", line))]
        while typed[-1][1].endswith("\\") and k + 1 < len(raw):
            k += 1
            typed.append(raw[k])
        k += 1
        first = k
        while k < len(raw) and not PROMPT.match(raw[k][1]):
            k += 1
        shown = [line for _, line in raw[first:k]]
        while shown and not shown[-1].strip():
            shown.pop()
        start = raw[first][0] - 1 if shown else 0
        text = _joined(typed)[0][2]
        commands.append(
            Command(
                block.page,
                number,
                text,
                tuple(shown) if shown else None,
                block,
                start,
                start + len(shown),
            )
        )
    return commands


def commands_of(page: Path) -> list[Command]:
    """Every command line of the page's shell blocks, in page order."""
    return [c for b in blocks_of(page) if b.lang in SHELL for c in block_commands(b)]


# ------------------------------------------------------------------ what runs here

SEPARATORS = {";", "&&", "||", "&"}
OPERATORS = SEPARATORS | {"|", ">", ">>", "<"}
HELPERS = {"echo", "printf", "cat", "head", "tail"}
"""Commands a line may use around ``backalley`` (making a file, cutting the output)."""

SKIPPED: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), reason)
    for pattern, reason in (
        (r"^(python3? -m )?pip install\b", "installs packages: the tests run where they are"),
        (r"^(python3? -m )?nox\b", "runs the project's nox sessions (the CI, not an example)"),
        (r"^python3? benchmarks/", "runs a benchmark script (minutes of CPU time)"),
        (r"^python3? -m pytest\b", "runs the test suite"),
        (r"^sphinx-build\b", "builds the docs (test_the_doctest_build_passes runs Sphinx)"),
        (r"^createdb\b", "needs a PostgreSQL server"),
        (r"^backalley serve\b", "serves until interrupted (the server tests start it)"),
        (r"^npm\b", "installs the npm package pyodide (tests/web_runtime.py installs it in a cache folder)"),
        (r"^backalley build-web\b", "needs the npm package pyodide (the web tests build the folder)"),
        (r"^cp -r examples/browser\b", "copies the example page into that folder (a web test does)"),
        (r"^python3? -m http\.server\b", "serves until interrupted (the web tests serve the folder)"),
        (r"^backalley .*--import myclub\b", "imports myclub, the reader's own module"),
        (
            r"^python3? examples/batch_selfplay\.py\b",
            "makes about 170 MB of self-play arrays (tests/batch/test_batch_gym.py runs it small)",
        ),
    )
)
"""The commands the pages show that do not run here, each with the reason."""

MAX_GAMES = 100
"""A simulation of more games than this is not run here (half a minute or
more); the pages show shorter ones, which run."""


def skip_reason(command: str) -> str | None:
    """Why the simple command ``command`` does not run here, or ``None``."""
    for pattern, reason in SKIPPED:
        if pattern.search(command):
            return reason
    games = re.search(r"^backalley simulate .*--games (\d+)", command)
    if games and int(games[1]) > MAX_GAMES:
        return f"a simulation of more than {MAX_GAMES} games (half a minute or more)"
    return None


@attrs.frozen
class LinePlan:
    """What of one command line runs here: ``run`` (a shell line, or
    ``None``), and the reason for each part left out."""

    run: str | None
    skipped: tuple[str, ...]
    unknown: tuple[str, ...] = ()


def _words(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    return list(lexer)


def _simple(words: list[str]) -> str:
    """A simple command as text: its words, environment assignments dropped
    and ``python -m backalley`` read as ``backalley``."""
    while words and re.match(r"^\w+=", words[0]):
        words = words[1:]
    if words[:3] in (["python", "-m", "backalley"], ["python3", "-m", "backalley"]):
        words = ["backalley", *words[3:]]
    return " ".join(words)


def plan_line(text: str) -> LinePlan:
    """Split a command line at ``;``, ``&&``, ``||`` and ``&`` and keep the
    parts to run here: those that run ``backalley`` (or only the helpers,
    such as ``echo '{}' > empty.json``), unless :data:`SKIPPED` says why not.
    The kept parts run joined by ``&&``; a line without a ``backalley``
    command runs nothing."""
    words = _words(text)
    parts: list[list[str]] = [[]]
    for word in words:
        if word in SEPARATORS:
            parts.append([])
        else:
            parts[-1].append(word)
    kept: list[str] = []
    skipped: list[str] = []
    unknown: list[str] = []
    runs_backalley = False
    for part in filter(None, parts):
        simple: list[list[str]] = [[]]
        for word in part:
            if word in OPERATORS:
                simple.append([] if word == "|" else ["<redirect>"])
            else:
                simple[-1].append(word)
        commands = [_simple(s) for s in simple if s and s[0] != "<redirect>"]
        reasons = [r for c in commands if (r := skip_reason(c))]
        if reasons:
            skipped.append(f"{_simple(part)}: {reasons[0]}")
            continue
        heads = [c.split()[0] for c in commands if c]
        if any(h not in HELPERS and h != "backalley" for h in heads):
            unknown.append(_simple(part))
            continue
        runs_backalley |= "backalley" in heads
        kept.append(" ".join(w if w in OPERATORS else shlex.quote(w) for w in part))
    return LinePlan(
        " && ".join(kept) if kept and runs_backalley else None, tuple(skipped), tuple(unknown)
    )


# ------------------------------------------------------------------ files a line names

DERIVED: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r'^(?P<source>[\w.-]+) with move (?P<n>\d+) changed to "(?P<move>[^"]+)"$'),
        "move",
    ),
    (
        re.compile(
            r"^(?P<source>[\w.-]+) with deal (?P<n>\d+)'s points changed to (?P<points>\[[-\d, ]+\])$"
        ),
        "points",
    ),
)
"""How a command line's comment says a file it reads was made from another
(``backalley check edited.json  # game.json with move 6 changed to "play 2C"``):
the runner makes it so before running the line."""


def _comment(text: str) -> str:
    match = re.search(r"\s#\s*(.*)$", text)
    return match[1].strip() if match else ""


def derive_files(text: str, folder: Path) -> None:
    """Make the file a command line's comment describes (see :data:`DERIVED`):
    the first ``.json`` file the line names that is not in ``folder``."""
    comment = _comment(text)
    for pattern, kind in DERIVED:
        match = pattern.match(comment)
        if not match:
            continue
        missing = [w for w in _words(text) if w.endswith(".json") and not (folder / w).exists()]
        if not missing:
            return
        record = json.loads((folder / match["source"]).read_text(encoding="utf-8"))
        n = int(match["n"]) - 1
        if kind == "move":
            record["moves"][n] = match["move"]
        else:
            record["results"][n]["points"] = json.loads(match["points"])
        (folder / missing[0]).write_text(json.dumps(record), encoding="utf-8")


# ------------------------------------------------------------------ running


@attrs.frozen
class Result:
    """What a command line did: its exit status and its output (standard
    output and error together, lines without trailing spaces, no trailing
    blank lines)."""

    status: int
    output: tuple[str, ...]


def clean(text: str) -> tuple[str, ...]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return tuple(lines)


class Runner:
    """Runs command lines in ``folder`` with ``bash``: ``backalley``,
    ``python`` and ``python3`` are this interpreter with the checkout on its
    path; the input is empty unless the line gives one."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._bin = tempfile.TemporaryDirectory(prefix="docs-bin-")
        bin_dir = Path(self._bin.name)
        for name, body in (
            ("backalley", f'exec "{sys.executable}" -m backalley "$@"\n'),
            ("python", f'exec "{sys.executable}" "$@"\n'),
            ("python3", f'exec "{sys.executable}" "$@"\n'),
        ):
            path = bin_dir / name
            path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
            path.chmod(0o755)
        self.env = {
            **os.environ,
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "PYTHONPATH": str(ROOT),
            "PYTHONIOENCODING": "utf-8",
        }
        for name in ("COLUMNS", "LINES", "FORCE_COLOR"):
            self.env.pop(name, None)

    def close(self) -> None:
        self._bin.cleanup()

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write_files(self, page: Path) -> None:
        """The blocks of ``page`` whose caption is a file name, written to that file."""
        for block in blocks_of(page):
            if FILE_NAME.match(block.caption):
                (self.folder / block.caption).write_text(block.text, encoding="utf-8")

    def run(self, text: str, line: str) -> Result:
        """Run ``line`` (the runnable part of the command line ``text``)."""
        derive_files(text, self.folder)
        proc = subprocess.run(
            ["bash", "-c", line],
            cwd=self.folder,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=COMMAND_TIME_LIMIT,
        )
        return Result(proc.returncode, clean(proc.stdout.decode("utf-8", "replace")))


# ------------------------------------------------------------------ shown output


def matches(shown: Sequence[str], actual: Sequence[str]) -> bool:
    """Whether ``actual`` is the ``shown`` lines, each ``...`` line standing
    for any number of lines (trailing spaces ignored)."""
    shown = [line.rstrip() for line in shown]
    actual = [line.rstrip() for line in actual]

    def match(i: int, j: int) -> bool:
        if i == len(shown):
            return j == len(actual)
        if shown[i].strip() == ELISION:
            return any(match(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and shown[i] == actual[j] and match(i + 1, j + 1)

    return match(0, 0)


def _elision(near: Iterable[str]) -> str:
    """A ``...`` line indented as the first line of ``near`` that is not blank."""
    line = next((line for line in near if line.strip()), "")
    return line[: len(line) - len(line.lstrip(" "))] + ELISION


def elided_like(shown: Sequence[str], actual: Sequence[str]) -> list[str]:
    """``actual`` cut as ``shown`` is: its first lines up to a ``...`` and its
    last lines after it (as many as ``shown`` has), or all of it."""
    marks = [k for k, line in enumerate(shown) if line.strip() == ELISION]
    if not marks:
        return list(actual)
    head, tail = marks[0], len(shown) - marks[-1] - 1
    if head + tail >= len(actual):
        return list(actual)
    rest = list(actual[len(actual) - tail :]) if tail else []
    return [*actual[:head], _elision([*rest, *reversed(actual[:head])]), *rest]


# ------------------------------------------------------------------ samples


@attrs.frozen
class Sample:
    """A code block a marker comment says is the output of ``command``,
    ``lines`` of it (1-based ranges; all when empty)."""

    page: Path
    line: int
    command: str
    lines: tuple[tuple[int, int], ...]
    block: Block

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    def select(self, output: Sequence[str]) -> list[str]:
        """The lines to show of ``output``, ``...`` where lines are left out."""
        if not self.lines:
            return list(output)
        shown: list[str] = []
        last = 0
        for low, high in self.lines:
            part = list(output[low - 1 : high])
            if low > last + 1:
                shown.append(_elision([*part, *reversed(shown)]))
            shown += part
            last = high
        if last < len(output):
            shown.append(_elision(reversed(shown)))
        return shown


SAMPLE_RST = re.compile(r"^ *\.\. sample: (?P<command>.+?)\s*$")
SAMPLE_MD = re.compile(r"^<!-- sample: (?P<command>.+?)\s*(?P<end>-->)?\s*$")
LINES = re.compile(r"^\s*:lines:\s*(?P<spec>[\d\s,-]+?)\s*(?:-->)?\s*$")


def _ranges(spec: str) -> tuple[tuple[int, int], ...]:
    ranges = []
    for part in spec.split(","):
        low, _, high = part.strip().partition("-")
        ranges.append((int(low), int(high or low)))
    return tuple(ranges)


def samples_of(page: Path) -> list[Sample]:
    """The sample markers of ``page``, each with the code block after it."""
    lines = page.read_text(encoding="utf-8").splitlines()
    marker = SAMPLE_MD if page.suffix == ".md" else SAMPLE_RST
    blocks = blocks_of(page)
    found = []
    for k, line in enumerate(lines):
        match = marker.match(line)
        if not match:
            continue
        spec = LINES.match(lines[k + 1]) if k + 1 < len(lines) else None
        block = next(b for b in blocks if b.start > k)
        found.append(
            Sample(page, k + 1, match["command"], _ranges(spec["spec"]) if spec else (), block)
        )
    return found


# ------------------------------------------------------------------ one page's run


@attrs.frozen
class PageRun:
    """Every command line and sample of a page, run in page order in one
    folder: ``commands`` pairs each :class:`Command` with its plan and its
    result (``None`` when nothing of it runs); ``samples`` each sample with
    the output of its command."""

    page: Path
    commands: tuple[tuple[Command, LinePlan, Result | None], ...]
    samples: tuple[tuple[Sample, Result], ...]


def run_page(page: Path, folder: Path) -> PageRun:
    """Run the page's command lines and samples in ``folder`` (see :class:`PageRun`)."""
    items: list[tuple[int, Command | Sample]] = [(c.line, c) for c in commands_of(page)]
    items += [(s.line, s) for s in samples_of(page)]
    items.sort(key=lambda item: item[0])
    commands = []
    samples = []
    with Runner(folder) as runner:
        runner.write_files(page)
        for _, item in items:
            if isinstance(item, Sample):
                plan = plan_line(item.command)
                if plan.run is None:
                    raise ValueError(f"{item.where}: the sample's command runs nothing here")
                samples.append((item, runner.run(item.command, plan.run)))
                continue
            plan = plan_line(item.text)
            result = None if plan.run is None else runner.run(item.text, plan.run)
            commands.append((item, plan, result))
    return PageRun(page, tuple(commands), tuple(samples))


def rewrite(page: Path, run: PageRun) -> str:
    """The page's text with every shown output as the run wrote it: each
    command's output shown after it (cut where the page cuts it with
    ``...``) and each sample's block."""
    text = page.read_text(encoding="utf-8")
    lines = text.splitlines()
    edits: list[tuple[int, int, int, list[str]]] = []
    for command, _plan, result in run.commands:
        if command.output is None or result is None:
            continue
        indent = command.block.indent
        edits.append(
            (command.start, command.end, indent, elided_like(command.output, result.output))
        )
    for sample, result in run.samples:
        block = sample.block
        edits.append((block.start, block.end, block.indent, sample.select(result.output)))
    for start, end, indent, new in sorted(edits, reverse=True):
        lines[start:end] = [(" " * indent + line) if line else "" for line in new]
    return "\n".join(lines) + ("\n" if text.endswith("\n") else "")
