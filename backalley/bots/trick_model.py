"""The trick models the heuristic bot may bid from, and the learned one's data.

The heuristic's bidding model (:mod:`backalley.bots.bidding_model`) weighs a
hand's :data:`~backalley.bots.hand_reading.FEATURES` by a fitted *row* per
kind of table and hand size (:data:`~backalley.bots._tricks_table.Row`).
Two sets of rows exist:

- ``"table"``: the trick table fitted to double-dummy solves
  (:mod:`backalley.bots._tricks_table`; where each player is alone and an
  overtrick costs, fitted to the bots' own play, :mod:`~backalley.bots._tricks_exact`);
- ``"selfplay"`` (the default, :data:`DEFAULT`): rows for four players in
  two partnerships, each seat calling once, fitted to the tricks the
  heuristic bots take when they bid and play the deal out themselves (the
  partners' shares added), shipped as data
  (``backalley/bots/data/tricks_selfplay.json``, written by
  ``benchmarks/selfplay_tricks.py``; its header says how, and by how much
  its spreads were widened from the fit's residuals, ``spread``).  Where
  the learned rows have no row for the kind of table (other numbers of
  players, players alone), an overtrick costs, or the bidding is an
  ascending auction, the trick table's row is read.

A bot chooses its model by name (``HeuristicBot(tricks="selfplay")``,
``PimcBot(tricks=...)``): while it decides, :func:`using` makes the name the
one the bidding model reads (:func:`learned_rows`), so every heuristic the
bot asks inside its decision (a search bot's model of the other seats'
calls, its playouts) reads the same rows.  A bot given no name follows the
model in force around it, else :data:`DEFAULT`.

The data file is read once, when first needed (:func:`selfplay_rows`), and
checked: a file of the wrong shape (a missing key, a row whose weights are
not one per feature, a word where a number belongs, features other than
the library's) raises :class:`~backalley.errors.SerializationError` naming
the field.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

from backalley.bots._tricks_table import Row
from backalley.bots.hand_reading import FEATURES
from backalley.errors import SerializationError, SetupError

__all__ = [
    "DEFAULT",
    "FORMAT",
    "MODELS",
    "SELFPLAY_PATH",
    "active",
    "check_name",
    "learned_rows",
    "load",
    "model_document",
    "rows_from_document",
    "selfplay_rows",
    "using",
]

MODELS: tuple[str, ...] = ("table", "selfplay")
"""The names of the trick models a heuristic bot may bid from."""

DEFAULT = "selfplay"
"""The model a bot bids from when neither it nor the bot around it names one:
the learned rows where they apply (four players in two partnerships, each
seat calling once, an overtrick free), the trick table elsewhere.  Against
the table over 2,000 duplicate deals (match seed 4860, both sides playing
the heuristic's cards: ``benchmarks/selfplay_tricks.py --compare``), every
registered variant that reads them gains, each interval above 0: gamerules
+0.93 (+0.37 .. +1.50), bab-online +1.48, gamerules-26 +0.58, hook +1.20,
strict-trump +0.99, spades-no-jokers +0.96, ten-per-trick +1.76,
rotating-trump +0.99, must-head +0.93.  In an
ascending auction they lost (vietnam-42: -15.9 a deal), so there the
table's rows are read."""

FORMAT = "backalley-trick-model"
"""The ``format`` field of a trick model's data file."""

SELFPLAY_PATH = Path(__file__).resolve().parent / "data" / "tricks_selfplay.json"
"""The learned model's data file, shipped in the package."""

_ACTIVE: ContextVar[str] = ContextVar("backalley_trick_model", default=DEFAULT)


def check_name(name: object) -> str:
    """``name`` if it names a trick model (:data:`MODELS`); else a :class:`SetupError`."""
    if not isinstance(name, str) or name not in MODELS:
        raise SetupError(
            f"tricks must name a trick model, one of {', '.join(map(repr, MODELS))}, not {name!r}"
        )
    return name


def active() -> str:
    """The trick model the bidding model reads now."""
    return _ACTIVE.get()


@contextmanager
def using(name: str | None) -> Iterator[None]:
    """Within the block, the bidding model reads the trick model ``name``
    (``None``: the one in force around it)."""
    if name is None:
        yield
        return
    token = _ACTIVE.set(name)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def learned_rows(
    players: int, partnered: bool, exact: bool = False, auction: bool = False
) -> tuple[Row, ...]:
    """The learned rows the model in force gives a table of ``players``
    (``partnered``), every hand size of it: none where the trick table's
    rows are read - the ``"table"`` model, a scoring where an overtrick
    costs (``exact``), an ascending auction (``auction``: the rows were
    learned where each seat calls once), or a kind of table the learned
    rows do not cover.  The bidding model picks the nearest hand size among
    them, as among the table's
    (:func:`~backalley.bots.bidding_model.table_row`)."""
    if _ACTIVE.get() == "table" or exact or auction:
        return ()
    return tuple(r for r in selfplay_rows() if r[0] == players and r[1] == partnered)


def selfplay_rows() -> tuple[Row, ...]:
    """The learned model's rows (:data:`SELFPLAY_PATH`, read once)."""
    return load(SELFPLAY_PATH)


def load(path: Path | str) -> tuple[Row, ...]:
    """The rows of the trick model data file at ``path`` (read once per path),
    checked (:func:`rows_from_document`).  A relative path is resolved
    against the working folder; an absolute one is taken as it is, without
    asking the file system again (the bidding model asks for the learned
    rows at every estimate)."""
    path = Path(path)
    return _load(path if path.is_absolute() else path.resolve())


@lru_cache(maxsize=16)
def _load(path: Path) -> tuple[Row, ...]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SerializationError(f"cannot read the trick model {path}: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SerializationError(f"the trick model {path} is not JSON: {exc}") from None
    return rows_from_document(data)


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SerializationError(f"expected a finite number, not {value!r}", where)
    return float(value)


def _whole(value: object, where: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise SerializationError(f"expected a whole number >= {low}, not {value!r}", where)
    return value


def _weights(value: object, where: str) -> tuple[float, ...]:
    if not isinstance(value, list):
        raise SerializationError(
            f"expected a list of {len(FEATURES)} weights, not {value!r}", where
        )
    if len(value) != len(FEATURES):
        raise SerializationError(
            f"expected one weight per feature ({len(FEATURES)}: {', '.join(FEATURES)}), "
            f"not {len(value)}",
            where,
        )
    return tuple(_number(v, f"{where}[{i}]") for i, v in enumerate(value))


_ROW_KEYS = (
    "players",
    "partnered",
    "hand_size",
    "deals",
    "pair",
    "pair_sigma",
    "solo",
    "solo_sigma",
    "mean_share",
)


def rows_from_document(data: object) -> tuple[Row, ...]:
    """The rows of a trick model document (the JSON of :func:`model_document`),
    or a :class:`SerializationError` naming the field that is wrong."""
    if not isinstance(data, dict):
        raise SerializationError(f"a trick model is a JSON object, not {type(data).__name__}")
    for key in ("format", "features", "rows"):
        if key not in data:
            raise SerializationError(f"the trick model has no {key!r}", "$")
    if data["format"] != FORMAT:
        raise SerializationError(f"expected {FORMAT!r}, not {data['format']!r}", "$.format")
    if data["features"] != list(FEATURES):
        raise SerializationError(
            f"the model weighs the features {data['features']!r}, this library reads "
            f"{list(FEATURES)!r}: fit it again (benchmarks/fit_bidding.py)",
            "$.features",
        )
    raw = data["rows"]
    if not isinstance(raw, list) or not raw:
        raise SerializationError(f"expected a non-empty list of rows, not {raw!r}", "$.rows")
    rows: list[Row] = []
    for i, item in enumerate(raw):
        at = f"$.rows[{i}]"
        if not isinstance(item, dict):
            raise SerializationError(f"a row is a JSON object, not {item!r}", at)
        for key in _ROW_KEYS:
            if key not in item:
                raise SerializationError(f"the row has no {key!r}", at)
        extra = sorted(set(item) - set(_ROW_KEYS))
        if extra:
            raise SerializationError(f"unknown fields {extra!r}", at)
        partnered = item["partnered"]
        if not isinstance(partnered, bool):
            raise SerializationError(
                f"expected true or false, not {partnered!r}", f"{at}.partnered"
            )
        row: Row = (
            _whole(item["players"], f"{at}.players", 2),
            partnered,
            _whole(item["hand_size"], f"{at}.hand_size", 1),
            _whole(item["deals"], f"{at}.deals", 0),
            _weights(item["pair"], f"{at}.pair"),
            _number(item["pair_sigma"], f"{at}.pair_sigma"),
            _weights(item["solo"], f"{at}.solo"),
            _number(item["solo_sigma"], f"{at}.solo_sigma"),
            _number(item["mean_share"], f"{at}.mean_share"),
        )
        if any(r[:3] == row[:3] for r in rows):
            raise SerializationError(f"a second row for {row[:3]!r}", at)
        rows.append(row)
    return tuple(rows)


def model_document(rows: tuple[Row, ...] | list[Row], made_with: dict[str, Any]) -> dict[str, Any]:
    """The JSON document of a trick model: its rows and ``made_with`` (how it
    was made: the command, seed, deals, interpreter, ...)."""
    return {
        "format": FORMAT,
        "made_with": made_with,
        "features": list(FEATURES),
        "rows": [
            dict(zip(_ROW_KEYS, (*r[:4], list(r[4]), r[5], list(r[6]), r[7], r[8]))) for r in rows
        ],
    }
