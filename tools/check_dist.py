"""Check the sdist and the wheel that ``python -m build`` wrote (``nox -s package``).

``python tools/check_dist.py DIST`` reads the one ``backalley-*.tar.gz`` and the one
``backalley-*.whl`` in the folder ``DIST`` and fails, naming every problem, unless:

- both carry the version of ``pyproject.toml``, which is ``backalley.__version__``;
- the wheel holds the package and its metadata only (no ``tests/``, no caches), every
  file of the source package ``backalley/`` (modules and data alike), and by name the
  files the library reads at run time: ``py.typed``, the shipped JSON Schema and the
  static files of the table server and of the library in the browser; its metadata
  names the version, the ``backalley`` command and the licence;
- the sdist holds what a rebuild needs (``pyproject.toml``, the README, the licence and
  every file of ``backalley/``) and what ``pyproject.toml`` says it ships (the tests,
  the docs, the changelog, the noxfile and its lock).

``python -m build`` builds the wheel from the sdist, so a wheel that passes was rebuilt
from the sdist alone. Standard library only: it runs wherever nox does.
"""

from __future__ import annotations

import re
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "backalley"

SHIPPED = (
    "py.typed",
    "io/schema/backalley.schema.json",
    "server/static/index.html",
    "server/static/table.js",
    "server/static/table.css",
    "server/static/favicon.svg",
    "web/static/index.html",
    "web/static/backalley.js",
    "web/static/backalley-worker.js",
    "web/static/backalley.d.ts",
    "web/static/local.js",
    "web/static/offline.js",
    "web/static/offline.css",
)
"""The package's files that are not modules, by name under ``backalley/``: the
library reads them at run time (the schema, the static files ``serve`` and
``build-web`` send or write) and mypy reads ``py.typed``."""

SDIST = (
    "pyproject.toml",
    "README.md",
    "LICENSE",
    "CHANGELOG.md",
    "noxfile.py",
    "requirements/constraints.txt",
    "tools/check_dist.py",
    "tests/conftest.py",
    "docs/conf.py",
    "docs/index.rst",
)
"""Files the sdist holds beside the package (``[tool.hatch.build.targets.sdist]``)."""

CACHES = ("__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis")
CACHE_SUFFIXES = (".pyc", ".pyo", ".so", ".c")


def _version() -> str:
    """pyproject.toml's version, having checked that ``backalley.__version__`` says it too."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    init = (ROOT / PACKAGE / "__init__.py").read_text(encoding="utf-8")
    found = re.search(r'^version = "([^"]+)"', pyproject, re.M)
    said = re.search(r'^__version__ = "([^"]+)"', init, re.M)
    if not found or not said or said.group(1) != found.group(1):
        raise SystemExit(
            f"pyproject.toml's version ({found and found.group(1)}) is not "
            f"backalley.__version__ ({said and said.group(1)})"
        )
    return found.group(1)


def _is_cache(parts: tuple[str, ...]) -> bool:
    return any(part in CACHES for part in parts) or parts[-1].endswith(CACHE_SUFFIXES)


def _source_files() -> set[str]:
    """Every file of the source package, as ``backalley/...`` paths."""
    return {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / PACKAGE).rglob("*")
        if path.is_file() and not _is_cache(path.relative_to(ROOT).parts)
    }


def _one(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    if len(found) != 1:
        raise SystemExit(f"{folder}: expected one {pattern}, found {[p.name for p in found]}")
    return found[0]


def check_wheel(wheel: Path, version: str, source: set[str]) -> list[str]:
    problems: list[str] = []
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"{PACKAGE}-{version}.dist-info"
        metadata = archive.read(f"{info}/METADATA").decode() if f"{info}/METADATA" in names else ""
        entry_points = (
            archive.read(f"{info}/entry_points.txt").decode()
            if f"{info}/entry_points.txt" in names
            else ""
        )
    if wheel.name != f"{PACKAGE}-{version}-py3-none-any.whl":
        problems.append(f"the wheel is {wheel.name}, not a pure-Python wheel of {version}")
    for name in sorted(names):
        parts = tuple(name.split("/"))
        if parts[0] not in (PACKAGE, info):
            problems.append(f"the wheel holds {name}, outside the package and its metadata")
        elif "tests" in parts[:-1] or _is_cache(parts):
            problems.append(f"the wheel holds {name}")
    for name in sorted(f"{PACKAGE}/{shipped}" for shipped in SHIPPED):
        if name not in names:
            problems.append(f"the wheel lacks {name}")
    for name in sorted(source - names):
        problems.append(f"the wheel lacks {name} (a file of the source package)")
    if f"\nVersion: {version}\n" not in metadata:
        problems.append(f"the wheel's METADATA does not say Version: {version}")
    if "backalley = backalley.cli:main" not in entry_points:
        problems.append("the wheel does not install the backalley command")
    if not any(name.startswith(f"{info}/licenses/") for name in names):
        problems.append("the wheel carries no licence file")
    return problems


def check_sdist(sdist: Path, version: str, source: set[str]) -> list[str]:
    problems: list[str] = []
    top = f"{PACKAGE}-{version}"
    with tarfile.open(sdist) as archive:
        names = {member.name for member in archive.getmembers() if member.isfile()}
    if sdist.name != f"{top}.tar.gz":
        problems.append(f"the sdist is {sdist.name}, not {top}.tar.gz")
    inside = {name.split("/", 1)[1] for name in names if name.startswith(f"{top}/")}
    for name in sorted(names):
        if not name.startswith(f"{top}/") or _is_cache(tuple(name.split("/"))):
            problems.append(f"the sdist holds {name}")
    for name in sorted({*SDIST, *source} - inside):
        problems.append(f"the sdist lacks {name}")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    folder = Path(argv[0])
    version = _version()
    source = _source_files()
    missing = [name for name in SHIPPED if f"{PACKAGE}/{name}" not in source]
    if missing:  # the list above names a file the source no longer has
        print(f"the source package lacks {missing}", file=sys.stderr)
        return 1
    wheel, sdist = _one(folder, "*.whl"), _one(folder, "*.tar.gz")
    problems = check_wheel(wheel, version, source) + check_sdist(sdist, version, source)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"{wheel.name}: {len(source)} files of the package, none of the tests")
    print(f"{sdist.name}: the package and what a rebuild needs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
