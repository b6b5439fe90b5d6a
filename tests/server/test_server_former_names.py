"""The server's former module names: ``tables`` (split by job),
``limits`` (now ``settings``) and ``errors`` (now ``refusals``) still answer
as attributes of :mod:`backalley.server`, with a warning naming the new
place; and no module of the server shares its file name with another
module of the package."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

import backalley.server
from backalley.server import (
    bot_turns,
    live_table,
    refusals,
    settings,
    table_moves,
    table_service,
    table_views,
)
from backalley.server import store as server_store

PACKAGE = Path(backalley.server.__file__).parent.parent


def test_the_former_tables_module_gives_its_names_with_a_warning() -> None:
    with pytest.warns(DeprecationWarning, match=r"backalley\.server\.tables is deprecated") as seen:
        from backalley.server import tables
    said = " ".join(str(w.message) for w in seen)
    for module in ("bot_turns", "live_table", "table_moves", "table_service", "table_views"):
        assert f"backalley.server.{module}" in said
    assert tables.BotTurn is bot_turns.BotTurn
    assert tables.DealEnd is live_table.DealEnd
    assert tables.Submitted is table_moves.Submitted
    assert tables.TableService is table_service.TableService
    assert tables.TableService is backalley.server.TableService
    assert tables.PRIVATE_KEYS is table_views.PRIVATE_KEYS
    assert tables.HUMAN == server_store.HUMAN
    assert tables.MAX_MOVE_TEXT == table_moves.MAX_MOVE_TEXT
    assert sorted(tables.__all__) == tables.__all__
    assert {"BotTurn", "DealEnd", "HUMAN", "PRIVATE_KEYS", "Submitted", "TableService"} <= set(
        tables.__all__
    )


@pytest.mark.parametrize(("old", "new"), [("limits", settings), ("errors", refusals)])
def test_a_renamed_module_answers_as_itself_with_a_warning(old: str, new: ModuleType) -> None:
    with pytest.warns(DeprecationWarning, match=rf"use {new.__name__} \(the same module\)"):
        module = getattr(backalley.server, old)
    assert module is new


def test_the_documented_former_names_are_the_same_objects() -> None:
    with pytest.warns(DeprecationWarning, match="backalley.server.settings"):
        socket_limit = backalley.server.limits.socket_limit
    assert socket_limit is settings.socket_limit
    with pytest.warns(DeprecationWarning, match="backalley.server.refusals"):
        from backalley.server import errors
    assert errors.ServerError is refusals.ServerError is backalley.server.ServerError


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        backalley.server.nothing  # noqa: B018
    assert importlib.import_module("backalley.server").__all__ == backalley.server.__all__


def test_no_server_module_shares_its_file_name_with_another_module() -> None:
    server = {p.name for p in (PACKAGE / "server").glob("*.py")} - {"__init__.py"}
    others = {p.name for p in PACKAGE.rglob("*.py") if p.parent.name != "server"}
    assert not server & others
