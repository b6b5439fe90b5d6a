"""Plug-ins: other packages' rules, bots and variants for the command line.

A plug-in is Python code that registers things when it is imported: rule
parts (:func:`backalley.rules.register`), bots
(:func:`backalley.bots.register_bot`) and variants
(:func:`backalley.variants.register`).  The command line finds them two ways:

- an installed package declares an entry point in the group
  :data:`ENTRY_POINT_GROUP` (``backalley.plugins``), and every command loads
  it when it starts (:func:`load_plugins`).  The entry point names a module,
  which is imported (``my-club = "myclub.backalley"``), or a function, which
  is imported and then called with no arguments, once per process
  (``my-club = "myclub.backalley:setup"``);
- ``backalley --import MODULE`` imports a module by name, or a Python file
  by its path (:func:`import_plugin`).

A plug-in that cannot be loaded stops the command: :class:`PluginError`
names it, says what went wrong and what to do, and the command line exits
with status 2 (``--no-plugins`` runs without the installed ones).  A program
of its own may call :func:`load_plugins` too, to use what the installed
plug-ins register.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import traceback
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType

from backalley.errors import BackAlleyError

__all__ = ["ENTRY_POINT_GROUP", "PluginError", "import_plugin", "load_plugins"]

ENTRY_POINT_GROUP = "backalley.plugins"
"""The entry-point group of the plug-ins the command line loads at start-up."""

_LOADED: set[tuple[str, str]] = set()
"""The entry points (name, value) already loaded in this process: a function
entry point is called once, however often :func:`load_plugins` runs."""


class PluginError(BackAlleyError, ImportError):
    """A plug-in that cannot be loaded: its module is missing, or importing
    (or calling) it raised an error.  The message names the plug-in, the
    error and what to do about it."""


def load_plugins() -> tuple[str, ...]:
    """Load every installed plug-in (the entry points of
    :data:`ENTRY_POINT_GROUP`), in the order of their names; returns their
    names.

    A module entry point is imported; a function entry point
    (``module:function``) is imported and called with no arguments, once per
    process.  The first plug-in that fails raises :class:`PluginError`
    naming it, its package and the error.
    """
    found = sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda ep: (ep.name, ep.value))
    for point in found:
        key = (point.name, point.value)
        if key in _LOADED:
            continue
        _load(point)
        _LOADED.add(key)
    return tuple(point.name for point in found)


def _load(point: EntryPoint) -> None:
    """Import (and, for a function, call) one entry point."""
    try:
        loaded = point.load()
        if callable(loaded) and not isinstance(loaded, ModuleType):
            loaded()
    except Exception as exc:  # any error of another package's code: named, not a traceback
        package = _package(point)
        raise PluginError(
            f"the plug-in {point.name!r} ({point.value}{package}) failed to load: "
            f"{_error_text(exc)}; repair or uninstall that package, or run with --no-plugins"
        ) from None


def _package(point: EntryPoint) -> str:
    """`` of package NAME VERSION`` for the entry point's distribution, where known."""
    dist = getattr(point, "dist", None)
    if dist is None:
        return ""
    return f" of package {dist.metadata['Name']} {dist.version}"


def import_plugin(spec: str) -> ModuleType:
    """Import the plug-in ``spec``: a Python file when it ends in ``.py`` or
    holds a path separator (imported under its file name), else a module name
    looked for on Python's path and then in the current directory.  Importing
    it again gives the module already imported.

    A module that cannot be found or fails while it is imported raises
    :class:`PluginError` naming it and the error.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise PluginError(f"--import needs a module name or a .py file, got {spec!r}")
    spec = spec.strip()
    if spec.endswith(".py") or "/" in spec or os.sep in spec:
        return _import_file(spec)
    here = os.getcwd()
    added = here not in sys.path and "" not in sys.path
    if added:  # after Python's own path, for the time of this import
        sys.path.append(here)
    try:
        return importlib.import_module(spec)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (spec == exc.name or spec.startswith(exc.name + ".")):
            raise PluginError(
                f"--import {spec}: there is no module {exc.name!r}, neither on Python's path "
                "nor in the current directory; check the name, install its package, or give "
                "the path of its .py file"
            ) from None
        raise _failed(spec, exc) from None
    except Exception as exc:  # any error of the plug-in's own code: named, not a traceback
        raise _failed(spec, exc) from None
    finally:
        if added and here in sys.path:
            sys.path.remove(here)


def _import_file(spec: str) -> ModuleType:
    """The module of the Python file at ``spec``, imported under its file name."""
    path = Path(spec).resolve()
    if not path.is_file():
        raise PluginError(f"--import {spec}: there is no such file; give a .py file or a module")
    name = path.stem
    known = sys.modules.get(name)
    if known is not None and getattr(known, "__file__", None) == str(path):
        return known
    if known is not None or not name.isidentifier():
        raise PluginError(
            f"--import {spec}: its module name {name!r} is taken (or not a Python name); "
            "rename the file"
        )
    found = importlib.util.spec_from_file_location(name, path)
    if found is None or found.loader is None:
        raise PluginError(f"--import {spec}: not a Python file Python can import")
    module = importlib.util.module_from_spec(found)
    sys.modules[name] = module
    try:
        found.loader.exec_module(module)
    except Exception as exc:  # any error of the plug-in's own code: named, not a traceback
        del sys.modules[name]
        raise _failed(spec, exc) from None
    return module


def _failed(spec: str, exc: Exception) -> PluginError:
    return PluginError(f"--import {spec}: importing it failed: {_error_text(exc)}")


def _error_text(exc: BaseException) -> str:
    """``Kind: message (file.py, line N)``: the error and the last line of the
    plug-in's code (not this library's, nor Python's import machinery) it passed."""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    text = " ".join(text.split())
    ours = str(Path(__file__).resolve().parent)
    frames = [
        frame
        for frame in traceback.extract_tb(exc.__traceback__)
        if not frame.filename.startswith(("<", ours))
    ]
    if frames:
        last = frames[-1]
        text += f" ({Path(last.filename).name}, line {last.lineno})"
    return text
