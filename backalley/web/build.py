"""Write the library in the browser as a folder for any static host.

:func:`build_web` (``backalley build-web DIR``) writes::

    DIR/index.html       the table that needs no server (offline.js, table.js)
    DIR/backalley.js     the JavaScript API (an ES module) and backalley.d.ts
    DIR/backalley-worker.js  the library in a Web Worker (backalley.js's loadInWorker)
    DIR/backalley.schema.json  the documents' JSON Schema, which backalley.d.ts points to
    DIR/local.js         the served table's local checks (``backalley serve --web DIR``)
    DIR/manifest.json    what the loader unpacks, with every file's size
    DIR/pyodide/         the Pyodide runtime, copied from its npm package
    DIR/wheels/          attrs, cattrs, typing_extensions and backalley, pure-Python wheels

The Pyodide runtime comes from the npm package ``pyodide`` (installed with
``npm ci --prefix web`` from the repository's ``web/package-lock.json``, or
``npm install pyodide@VERSION``); it is never committed.  The wheels are
built from the installed distributions of the dependencies (their files as
installed, compiled files left out) and from this package's own folder, or
taken from a folder of wheels (``--wheels``: ``pip download --no-deps
--only-binary=:all:`` and ``pip wheel --no-deps .`` write them).  The same
inputs write the same bytes.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import json
import re
import shutil
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import backalley
from backalley.errors import SetupError
from backalley.io import schema as _schema

__all__ = [
    "DEPENDENCIES",
    "PYODIDE_FILES",
    "STATIC",
    "TABLE_STATIC",
    "build_web",
    "find_pyodide",
]

STATIC = Path(__file__).parent / "static"
"""The pages and modules of the library in the browser."""

TABLE_STATIC = Path(backalley.__file__).parent / "server" / "static"
"""The served table's drawing code and style, which the offline table shares."""

TABLE_FILES = ("table.js", "table.css", "favicon.svg")

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The files of the npm package ``pyodide`` the loader needs."""

DEPENDENCIES = ("typing_extensions", "attrs", "cattrs")
"""The library's dependencies in the browser, in the order they are unpacked."""

_SEARCHED = (Path("node_modules") / "pyodide", Path("web") / "node_modules" / "pyodide")

_EPOCH = (1980, 1, 1, 0, 0, 0)
"""Every file of a built wheel is dated the same, so that builds are identical."""

_LEFT_OUT = ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json")
"""dist-info files of an installation that a wheel does not carry (RECORD is written anew)."""


def find_pyodide(given: str | Path | None = None) -> Path:
    """The folder of the npm package ``pyodide``: ``given``, else
    ``node_modules/pyodide`` or ``web/node_modules/pyodide`` below the
    working folder.  Raises :class:`~backalley.SetupError` saying how to
    install it when it is not there."""
    places = [Path(given)] if given is not None else list(_SEARCHED)
    for place in places:
        if all((place / name).is_file() for name in PYODIDE_FILES):
            return place
    if given is not None:
        missing = [name for name in PYODIDE_FILES if not (Path(given) / name).is_file()]
        raise SetupError(
            f"{given} is not the npm package pyodide (no {missing[0]}); "
            "install it with 'npm ci --prefix web' in the repository"
        )
    raise SetupError(
        "no Pyodide runtime in node_modules/pyodide or web/node_modules/pyodide: install it "
        "with 'npm ci --prefix web' in the repository (or 'npm install pyodide'), or give --pyodide"
    )


def _pyodide_version(folder: Path) -> str:
    try:
        data = json.loads((folder / "package.json").read_text(encoding="utf-8"))
        version = data["version"]
    except (OSError, ValueError, KeyError, TypeError):
        return "unknown"
    return str(version)


# -- wheels -----------------------------------------------------------------------------------


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _write_wheel(path: Path, files: Iterable[tuple[str, bytes]], dist_info: str) -> None:
    """A wheel at ``path`` of ``files`` (name in the archive, content), with a
    RECORD of them all."""
    entries = sorted(files)
    record = "".join(f"{name},{_digest(data)},{len(data)}\n" for name, data in entries)
    record += f"{dist_info}/RECORD,,\n"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in [*entries, (f"{dist_info}/RECORD", record.encode())]:
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)


def _wheel_tag(name: str, version: str) -> str:
    return f"{re.sub(r'[-_.]+', '_', name)}-{version}-py3-none-any.whl"


def _wheel_text(dist_info: str) -> tuple[str, bytes]:
    text = (
        "Wheel-Version: 1.0\nGenerator: backalley build-web\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n"
    )
    return f"{dist_info}/WHEEL", text.encode()


def _skipped(relative: str) -> bool:
    parts = relative.split("/")
    return (
        "__pycache__" in parts
        or relative.endswith((".pyc", ".so", ".pyd"))
        or relative.startswith("..")
        or (len(parts) == 2 and parts[0].endswith(".dist-info") and parts[1] in _LEFT_OUT)
    )


def _installed_wheel(name: str, folder: Path) -> Path:
    """A wheel of the installed distribution ``name``: its files as
    installed (the pure-Python dependencies)."""
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        raise SetupError(f"{name} is not installed, so no wheel of it can be built") from None
    listed = dist.files
    if not listed:
        raise SetupError(f"{name}'s installed files are not listed: give --wheels with its wheel")
    version = dist.version
    dist_info = ""
    files: list[tuple[str, bytes]] = []
    for item in listed:
        relative = str(item).replace("\\", "/")
        if _skipped(relative):
            continue
        top = relative.split("/")[0]
        if top.endswith(".dist-info"):
            dist_info = top
            if relative.endswith("/WHEEL"):
                continue
        files.append((relative, Path(str(dist.locate_file(item))).read_bytes()))
    if not dist_info:
        raise SetupError(f"{name}'s installation has no .dist-info folder: give --wheels")
    files.append(_wheel_text(dist_info))
    path = folder / _wheel_tag(name, version)
    _write_wheel(path, files, dist_info)
    return path


def _package_wheel(folder: Path) -> Path:
    """A wheel of this package from its own folder: its modules, ``py.typed``
    and its JSON data (the schema); not the pages, not compiled modules."""
    root = Path(backalley.__file__).parent
    version = backalley.__version__
    dist_info = f"backalley-{version}.dist-info"
    files: list[tuple[str, bytes]] = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root.parent).as_posix()
        if not path.is_file() or _skipped(relative) or "static" in path.relative_to(root).parts:
            continue
        if path.suffix in (".py", ".json") or path.name == "py.typed":
            files.append((relative, path.read_bytes()))
    metadata = (
        "Metadata-Version: 2.1\nName: backalley\n"
        f"Version: {version}\n"
        "Summary: The rules of the card game Back Alley (built for the browser by build-web)\n"
        "Requires-Dist: attrs>=23.1\nRequires-Dist: cattrs>=23.2\n"
    )
    files.append((f"{dist_info}/METADATA", metadata.encode()))
    files.append(_wheel_text(dist_info))
    path = folder / _wheel_tag("backalley", version)
    _write_wheel(path, files, dist_info)
    return path


def _given_wheel(name: str, wheels: Path, folder: Path) -> Path | None:
    """``name``'s pure-Python wheel from the folder ``wheels``, copied; ``None``
    when there is none."""
    key = re.sub(r"[-_.]+", "_", name).lower()
    found = sorted(
        p
        for p in wheels.glob("*.whl")
        if re.sub(r"[-_.]+", "_", p.name.split("-")[0]).lower() == key
    )
    if not found:
        return None
    chosen = found[-1]
    if not chosen.name.endswith(("-py3-none-any.whl", "-py2.py3-none-any.whl")):
        raise SetupError(f"{chosen.name} is not a pure-Python wheel (py3-none-any)")
    target = folder / chosen.name
    shutil.copyfile(chosen, target)
    return target


def _wheel_facts(path: Path, name: str) -> dict[str, Any]:
    data = path.read_bytes()
    return {
        "file": path.name,
        "name": name,
        "version": path.name.split("-")[1],
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }


# -- the folder -------------------------------------------------------------------------------


def _prepare(target: Path) -> None:
    if target.exists() and not target.is_dir():
        raise SetupError(f"{target} is a file, not a folder")
    if target.is_dir() and any(target.iterdir()) and not (target / "manifest.json").is_file():
        raise SetupError(
            f"{target} is not empty and was not written by build-web: choose an empty folder"
        )
    for old in ("pyodide", "wheels"):
        if (target / old).is_dir():
            shutil.rmtree(target / old)
    (target / "pyodide").mkdir(parents=True)
    (target / "wheels").mkdir()


def build_web(
    target: str | Path, *, pyodide: str | Path | None = None, wheels: str | Path | None = None
) -> dict[str, Any]:
    """Write the library in the browser into the folder ``target`` (see the
    module's docstring); answers the manifest written to
    ``target/manifest.json``.  ``pyodide`` is the npm package's folder (see
    :func:`find_pyodide`); ``wheels`` a folder of wheels to take instead of
    building them.  Raises :class:`~backalley.SetupError` for inputs it
    cannot use; a folder that is not empty is written only when an earlier
    build wrote it."""
    runtime = find_pyodide(pyodide)
    given = Path(wheels) if wheels is not None else None
    if given is not None and not given.is_dir():
        raise SetupError(f"--wheels {given}: no such folder")
    out = Path(target)
    _prepare(out)
    for name in PYODIDE_FILES:
        shutil.copyfile(runtime / name, out / "pyodide" / name)
    made: list[dict[str, Any]] = []
    for name in (*DEPENDENCIES, "backalley"):
        path = _given_wheel(name, given, out / "wheels") if given is not None else None
        if path is None:
            path = (
                _package_wheel(out / "wheels")
                if name == "backalley"
                else _installed_wheel(name, out / "wheels")
            )
        made.append(_wheel_facts(path, name))
    for name in sorted(p.name for p in STATIC.iterdir() if p.is_file()):
        shutil.copyfile(STATIC / name, out / name)
    for name in TABLE_FILES:
        shutil.copyfile(TABLE_STATIC / name, out / name)
    # the schema the declarations point to: the library's own file, as published,
    # with the reasons of the rules registered in this process (plug-ins) added
    (out / _schema.SCHEMA_FILE).write_bytes(_schema.schema_text().encode("utf-8"))
    sizes = {
        path.relative_to(out).as_posix(): path.stat().st_size
        for path in sorted(out.rglob("*"))
        if path.is_file() and path.name != "manifest.json"
    }
    manifest = {
        "format": "backalley/web",
        "version": 1,
        "backalley": backalley.__version__,
        "pyodide": _pyodide_version(runtime),
        "wheels": made,
        "files": sizes,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest
