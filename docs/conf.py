"""Sphinx configuration for the backalley documentation.

Build with ``nox -s docs`` or, from the repository root::

    sphinx-build -W -b html docs docs/_build/html

The theme is Furo (the ``docs`` extra installs it), whose content column
scrolls nothing sideways: its code blocks are as wide as the text, and
``_static/code.css`` wraps a code line longer than that instead of hiding
its end behind a scroll bar.  Only builtin extensions are used, plus one
local extension (``_ext/backalley_docs.py``) that renders the rules sheets
and the option tables straight from the code, so the rules reference cannot
drift from the rules the library implements.  No setting here needs the
network.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent

# The local extension lives next to this file.  The repository root goes
# first on the path so that a plain ``sphinx-build`` from a checkout documents
# the source tree even when the package is not installed (under nox the
# installed package and the source tree are the same code).
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(ROOT))

import backalley  # noqa: E402

# -- Project -------------------------------------------------------------------

project = "backalley"
author = "The backalley developers"
copyright = "The backalley developers"
release = backalley.__version__
version = ".".join(release.split(".")[:2])

# -- General -------------------------------------------------------------------

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
    # sphinx.ext.doctest lets ``sphinx-build -b doctest docs <dir>`` run the
    # ``>>>`` examples of the pages (``nox -s docs`` runs it after the html
    # build); the html build ignores it.
    "sphinx.ext.doctest",
    "backalley_docs",
]
# sphinx.ext.intersphinx is deliberately not enabled: its inventories are
# fetched over the network, and the docs must build offline.  Python's own
# names (ValueError, KeyError, ...) are therefore shown as plain text.

root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []
language = "en"

# Unresolved references are not errors: type annotations name internal
# classes (``backalley.cards.Card``) that are documented under their public
# name (``backalley.Card``), and Python builtins have no target without
# intersphinx.  Every other warning fails the build (``-W``).
nitpicky = False

# -- autodoc -------------------------------------------------------------------

autodoc_typehints = "description"
autodoc_typehints_description_target = "documented_params"
autodoc_member_order = "bysource"
autodoc_class_signature = "mixed"
# ``show-inheritance`` is given per class in api.rst where the bases say
# something (exceptions, policies, options); ``Bases: object`` would not.
autodoc_default_options = {
    "members": True,
}
# The engine's state classes are built by new_game(), never by hand: their
# constructor signature (the engine's compact fields) is left out.
backalley_hide_signatures = ["backalley.GameState", "backalley.PlayerView"]
python_use_unqualified_type_names = True
add_module_names = False

# -- HTML ----------------------------------------------------------------------

html_theme = "furo"
html_title = f"backalley {release}"
html_static_path = ["_static"]
html_css_files = ["code.css"]
# Pygments styles that keep the examples readable in both of Furo's modes.
pygments_style = "friendly"
pygments_dark_style = "monokai"
