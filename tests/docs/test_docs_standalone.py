"""The package and its tests stand alone: no docstring or comment cites a file
that is not part of the project, and no test is named after an entry of an
issue tracker (a test's name says what it checks).

The rules the code follows are cited by the labels of the documentation's
rules reference (``docs/rules.rst``, e.g. ``:ref:`rules-follow```), or stated
in words.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from .. import ROOT

# The names are built so that this file does not hold them either.
OUTSIDE_FILES = ("RULES" + ".md", "DESIGN" + ".md")
TRACKER_NAME = re.compile(r"item_?\d|issue_?\d|task_?\d")
TRACKER_TEXT = re.compile(r"(?i)\b(?:issues?|tasks?|items?) #?\d+(?:\.\d+)?\b")

# Files still being rewritten elsewhere when these checks were written; each is
# checked again once it no longer holds such text (see test_exemptions_are_needed).
EXEMPT: frozenset[str] = frozenset()


def _sources() -> list[Path]:
    files = [*sorted((ROOT / "backalley").rglob("*.py")), *sorted((ROOT / "tests").rglob("*.py"))]
    return [f for f in files if "__pycache__" not in f.parts]


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _outside_citations(text: str) -> list[str]:
    return [
        f"line {n}: {line.strip()}"
        for n, line in enumerate(text.splitlines(), 1)
        if any(name in line for name in OUTSIDE_FILES)
    ]


def _tracker_test_names(text: str) -> list[str]:
    tree = ast.parse(text)
    return [
        f"line {node.lineno}: {node.name}"
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.name.lower().startswith("test")
        and TRACKER_NAME.search(node.name.lower())
    ]


def _tracker_citations(text: str) -> list[str]:
    """Docstrings and comments that cite a tracker entry (an issue, task or item number)."""
    found = []
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc and TRACKER_TEXT.search(doc):
                found.append(f"docstring of {getattr(node, 'name', 'the module')}")
    for n, line in enumerate(text.splitlines(), 1):
        comment = line.partition("#")[2] if "#" in line else ""
        if comment and TRACKER_TEXT.search(comment):
            found.append(f"line {n}: {line.strip()}")
    return found


SOURCES = [f for f in _sources() if _rel(f) not in EXEMPT]


def test_the_walk_finds_the_package_and_the_tests() -> None:
    """The checks below see every module of the package and of the tests."""
    names = {_rel(f) for f in _sources()}
    assert "backalley/__init__.py" in names
    assert "backalley/rules/follow.py" in names
    assert "tests/docs/test_docs_standalone.py" in names


@pytest.mark.parametrize("path", SOURCES, ids=_rel)
def test_no_citation_of_files_outside_the_project(path: Path) -> None:
    """No docstring or comment cites the team's design notes, which are not
    part of the project: a rule is cited by its label in the rules reference."""
    assert _outside_citations(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", [f for f in SOURCES if _rel(f).startswith("tests/")], ids=_rel)
def test_no_test_is_named_after_a_tracker_entry(path: Path) -> None:
    """A test is named after the behaviour it checks, not after an issue, item or task."""
    assert _tracker_test_names(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", SOURCES, ids=_rel)
def test_no_docstring_or_comment_cites_a_tracker_entry(path: Path) -> None:
    """Docstrings and comments state the rule or behaviour, not a tracker entry."""
    assert _tracker_citations(path.read_text(encoding="utf-8")) == []


def test_every_cited_label_is_in_the_docs() -> None:
    """Every ``:ref:`label``` cited in the package is a label of a docs page."""
    labels = set()
    for page in (ROOT / "docs").rglob("*.rst"):
        labels |= set(re.findall(r"^\.\. _([\w-]+):\s*$", page.read_text(encoding="utf-8"), re.M))
    cited = {
        (label, _rel(path))
        for path in _sources()
        if _rel(path).startswith("backalley/")
        for label in re.findall(r":ref:`([\w-]+)`", path.read_text(encoding="utf-8"))
    }
    assert "rules-follow" in labels
    assert sorted(c for c in cited if c[0] not in labels) == []


def test_exemptions_are_needed() -> None:
    """An exempted file is exempted only while it still fails a check."""
    for rel in sorted(EXEMPT):
        path = ROOT / rel
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        assert _outside_citations(text) or _tracker_test_names(text) or _tracker_citations(text), (
            f"{rel} passes every check now: remove it from EXEMPT"
        )


def test_the_checks_catch_what_they_are_for() -> None:
    """Each check finds the text it looks for (so an empty answer means something)."""
    cited = f'"""Follow suit ({OUTSIDE_FILES[0]} 1.6)."""\n'
    assert _outside_citations(cited)
    assert _tracker_test_names("def test_" + "item_5_forged_points_refused():\n    pass\n")
    assert _tracker_test_names("def test_" + "issue9():\n    pass\n")
    assert not _tracker_test_names("def test_a_forged_score_is_refused():\n    pass\n")
    assert _tracker_citations('"""Loading and bad input (issue 13)."""\n')
    assert _tracker_citations("x = 1  " + "#" + " ---- item " + "5\n")
    assert not _tracker_citations('"""The 13 items of a deal."""\nx = 1  # 5 items\n')
