"""The server's refusals: one exception with the HTTP status and a code a
client can branch on, and the sentence a person reads (and the refusals
of a table that is not there or archived, said alike wherever asked)."""

from __future__ import annotations

from typing import Any

from backalley.errors import BackAlleyError

__all__ = ["ServerError", "table_archived", "table_not_found"]


class ServerError(BackAlleyError):
    """A request the server refuses: ``status`` (the HTTP status), ``code``
    (a stable word: ``"not-found"``, ``"illegal-move"``, ``"conflict"``,
    ...), the ``message`` and, for a refused move, the library's
    :class:`~backalley.Reason` name in ``reason``."""

    def __init__(self, status: int, code: str, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason

    def __reduce__(self) -> Any:
        return (_rebuild, (self.status, self.code, self.message, self.reason))

    def to_data(self) -> dict[str, Any]:
        """The error's JSON body."""
        out: dict[str, Any] = {"error": self.code, "message": self.message}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


def _rebuild(status: int, code: str, message: str, reason: str | None) -> ServerError:
    return ServerError(status, code, message, reason=reason)


def table_not_found(table_id: object) -> ServerError:
    """``404 not-found``: there is no table ``table_id``."""
    return ServerError(404, "not-found", f"there is no table {str(table_id)[:40]!r}")


def table_archived(table_id: str) -> ServerError:
    """``410 archived``: the table takes no seat or move any more."""
    return ServerError(
        410,
        "archived",
        f"table {table_id} was archived: its summary, public facts and record can still be read",
    )
