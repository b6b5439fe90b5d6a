"""The table's names and status line, beside each view the server sends (the
``facts`` block): :func:`backalley.render.facts.table_facts`, which the
library in the browser answers too, so that a table drawn offline names
things exactly as the served one."""

from __future__ import annotations

from backalley.render.facts import table_facts

__all__ = ["table_facts"]
