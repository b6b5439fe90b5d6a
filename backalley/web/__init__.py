"""The library in the browser: the same pure-Python package, run by Pyodide.

- :mod:`backalley.web.bridge` - the Python side of ``backalley.js``, the
  JavaScript API for user interfaces (every answer is the library's own: a
  document, a check, a bot's move; no rule is written in JavaScript);
- :mod:`backalley.web.build` - writes a folder any static host can serve
  (``backalley build-web DIR``): the Pyodide runtime, the wheels of the
  library and its dependencies, the loader ``backalley.js`` with its
  TypeScript declarations and the documents' JSON Schema, its Web Worker
  ``backalley-worker.js`` (the library off the page's thread), and the
  table that needs no server;
- ``backalley/web/static/`` - those pages and modules.

See the docs' "Rules in the browser" page.
"""

from __future__ import annotations
