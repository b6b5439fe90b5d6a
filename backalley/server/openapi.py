"""The OpenAPI document of the server's HTTP API (served at ``/openapi.json``).

The server's own objects (a table's summary, a seat, an error, ...) are
written out here, route by route, so that they are the contract: the tests
run schemathesis against it, which sends requests built from it and checks
every answer against it.  The library's documents that the API carries (the
rules of a new table and of a variant, a seat's view, its deal results, a
move, a trick, a record) are not: their definitions are taken, when the
document is made, from the documents' JSON schema
(:func:`backalley.io.schema.schema`, generated from the code), so that a
rule part a user registered appears here too.  They are the schema's
``$defs`` that those documents use, under ``components/schemas`` as
``backalley.<definition>`` (``policy:follow`` as ``backalley.policy.follow``).

One module, one job: the document, route by route.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Iterator
from typing import Any

from backalley.io.schema import schema_text

__all__ = ["openapi_document"]

_LIBRARY = "#/components/schemas/backalley."
"""Where the library's documents are, in this document: ``_LIBRARY + "view"``."""
_ROOTS = ("rules_document", "view", "record", "move", "trick")
"""The documents' definitions the API refers to (with those they use)."""

_ERROR = {
    "type": "object",
    "required": ["error", "message"],
    "properties": {
        "error": {"type": "string", "description": "a stable code: not-found, illegal-move, ..."},
        "message": {"type": "string", "description": "what went wrong, for a person"},
        "reason": {
            "type": "string",
            "description": (
                "for illegal-move: the rule that refuses it (a backalley.Reason name, or the "
                "tag of a reason a user's rule registered)"
            ),
        },
    },
}

_SEAT = {
    "type": "object",
    "required": ["seat", "player", "open"],
    "properties": {
        "seat": {"type": "integer", "minimum": 0},
        "name": {
            "type": "string",
            "description": "the seat's name: North, East, ... or Seat 1, ...",
        },
        "player": {"type": "string", "description": "'human' or a bot's name"},
        "open": {"type": "boolean", "description": "a human seat nobody has joined"},
    },
}

_SUMMARY = {
    "type": "object",
    "required": ["table", "rules", "seats", "phase", "version", "over"],
    "properties": {
        "table": {"type": "string"},
        "rules": {"type": "string", "description": "the rule set's name"},
        "seats": {"type": "array", "items": {"$ref": "#/components/schemas/Seat"}},
        "phase": {"type": "string", "enum": ["bidding", "naming-trump", "playing", "game-over"]},
        "to_act": {
            "type": ["integer", "null"],
            "minimum": 0,
            "description": "the seat to act (null once the game is over)",
        },
        "version": {"type": "integer", "minimum": 0, "description": "moves applied"},
        "over": {"type": "boolean"},
        "deals_played": {"type": "integer", "minimum": 0, "description": "deals scored"},
        "deals": {"type": "integer", "minimum": 1, "description": "deals in all"},
        "created": {"type": "number", "description": "when it was made (seconds since 1970)"},
        "last_move": {
            "type": "number",
            "description": "when its last move was stored (when it was made, before any)",
        },
        "archived": {
            "type": "boolean",
            "description": "archived (finished or idle long): read-only, no longer listed",
        },
    },
}

_DEAL_END = {
    "type": ["object", "null"],
    "description": (
        "the end of the last scored deal (null before the first): the library deals the "
        "next deal within the move that ends one, so its last trick is kept here; the "
        "deal's contracts, tricks and points are the view's deal_results entry of that "
        "number.  The bots wait (holding) until every seat in waiting has continued or "
        "seconds_left have passed"
    ),
    "required": ["deal", "last_trick", "made", "waiting", "holding", "seconds_left"],
    "additionalProperties": False,
    "properties": {
        "deal": {"type": "integer", "minimum": 1},
        "last_trick": {"anyOf": [{"$ref": _LIBRARY + "trick"}, {"type": "null"}]},
        "made": {
            "type": "array",
            "items": {"type": ["boolean", "null"]},
            "description": "per side: its contract made (null: no contract)",
        },
        "waiting": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
            "description": "the seats of people who have not continued yet",
        },
        "holding": {"type": "boolean", "description": "whether the bots wait now"},
        "seconds_left": {"type": ["number", "null"], "minimum": 0},
    },
}

_CONTINUED = {
    "type": "object",
    "required": ["table", "seat", "deal_end"],
    "properties": {
        "table": {"type": "string"},
        "seat": {"type": "integer", "minimum": 0},
        "deal_end": {"$ref": "#/components/schemas/DealEnd"},
    },
}

_SEAT_VIEW = {
    "type": "object",
    "required": ["table", "version", "seat", "seats", "view"],
    "properties": {
        "table": {"type": "string"},
        "version": {"type": "integer", "minimum": 0},
        "seat": {"type": "integer", "minimum": 0},
        "seats": {"type": "array", "items": {"type": "string"}},
        "view": {
            "$ref": _LIBRARY + "view",
            "description": (
                "the seat's view document (format backalley/view): its hand, the public "
                "facts (calls per seat, contracts, tricks per seat and side, trump broken, "
                "deals played, the winner), legal_moves, and per card of the hand "
                "(cards) and per call the bidding knows (call_answers) whether it may "
                "be made and the reason and sentence if not"
            ),
        },
        "facts": {"$ref": "#/components/schemas/TableFacts"},
        "deal_end": {"$ref": "#/components/schemas/DealEnd"},
    },
}

_FACTS = {
    "type": "object",
    "description": (
        "the table's names and status line as the library's pictures show them (the "
        "game's facts - calls per seat, contracts, tricks, the winner - are in the view "
        "document itself)"
    ),
    "required": ["title", "status", "deal", "seat_names", "side_names"],
    "additionalProperties": False,
    "properties": {
        "title": {"type": "string", "description": "the rules' name"},
        "status": {"type": "string", "examples": ["Bidding: East to call"]},
        "deal": {
            "type": "integer",
            "minimum": 1,
            "description": "the number of the deal being played (the last, once over)",
        },
        "seat_names": {"type": "array", "items": {"type": "string"}},
        "side_names": {
            "type": "array",
            "items": {"type": "string"},
            "description": "one per side, in the order of the scores",
        },
    },
}

_MOVED = {
    "allOf": [
        {"$ref": "#/components/schemas/SeatView"},
        {
            "type": "object",
            "required": ["number", "repeated"],
            "properties": {
                "number": {"type": "integer", "minimum": 0},
                "repeated": {"type": "boolean"},
            },
        },
    ]
}

_PUBLIC = {
    "type": "object",
    "required": ["table", "version", "seats", "public"],
    "properties": {
        "table": {"type": "string"},
        "version": {"type": "integer", "minimum": 0},
        "seats": {"type": "array", "items": {"type": "string"}},
        "stalled": {"type": ["string", "null"]},
        "public": {
            "type": "object",
            "description": (
                "a view document without seat, hand, discards, legal_moves, cards, call_answers"
            ),
            "required": ["phase", "calls", "tricks", "trick", "scores"],
        },
        "facts": {"$ref": "#/components/schemas/TableFacts"},
        "deal_end": {"$ref": "#/components/schemas/DealEnd"},
    },
}

_NEW_TABLE = {
    "type": "object",
    "required": ["seats"],
    "additionalProperties": False,
    "properties": {
        "rules": {
            "description": (
                "a registered variant's name, or a rules / house-rules document "
                'naming its format: {"format": "backalley/rules", ...}'
            ),
            "oneOf": [{"type": "string"}, {"$ref": _LIBRARY + "rules_document"}],
        },
        "seats": {
            "type": "array",
            "items": {"type": "string"},
            "minItems": 2,
            "maxItems": 8,
            "description": (
                "per seat 'human' or a bot's name (GET /api/bots), as many as the "
                "rules' players (GET /api/variants: players): 2 to 8"
            ),
        },
    },
}

_MOVE = {
    "type": "object",
    "required": ["move"],
    "additionalProperties": False,
    "properties": {
        "move": {"$ref": _LIBRARY + "move", "maxLength": 40, "examples": ["bid 3", "play QS"]},
        "client_move_id": {"type": "string", "minLength": 1, "maxLength": 64},
        "version": {"type": "integer", "minimum": 0},
    },
}


def _err(*codes: int) -> dict[str, Any]:
    text = {
        400: "not a JSON object",
        401: "no token, or not this seat's",
        403: "another site's page (its Origin is not this server's)",
        415: "a body not sent as JSON (Content-Type: application/json)",
        421: "a host this server does not answer to",
        404: "no such table or seat",
        409: "refused by the table's state",
        413: "the body is too large",
        422: "refused: see error and message",
        410: "the table was archived: it is read-only",
        429: "too many requests (or too many games with bots from one address)",
        503: "the server holds its most tables",
    }
    return {
        str(code): {
            "description": text[code],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        for code in codes
    }


def _ok(schema: str | dict[str, Any], status: int = 200, text: str = "done") -> dict[str, Any]:
    body = {"$ref": f"#/components/schemas/{schema}"} if isinstance(schema, str) else schema
    return {str(status): {"description": text, "content": {"application/json": {"schema": body}}}}


_TABLE = {"name": "table", "in": "path", "required": True, "schema": {"type": "string"}}
_SEAT_N = {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer"}}
_AUTH: list[dict[str, list[str]]] = [{"seatToken": []}]

_DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "backalley table server",
        "version": "1",
        "description": (
            "Back Alley tables refereed by the backalley library. A seat token "
            "(POST .../join) acts for one seat: send it as 'Authorization: Bearer "
            "<token>'. WebSockets (not described here): /api/tables/{table}/seats/"
            '{seat}/socket (first message {"token": ...}) and /api/tables/{table}/socket.'
        ),
    },
    "paths": {
        "/api/variants": {
            "get": {
                "summary": (
                    "The registered variants' names, and each one's number of seats, "
                    "description and seats' names"
                ),
                "responses": _ok(
                    {
                        "type": "object",
                        "required": ["variants", "players", "descriptions", "seat_names"],
                        "properties": {
                            "variants": {"type": "array", "items": {"type": "string"}},
                            "players": {
                                "type": "object",
                                "additionalProperties": {"type": "integer", "minimum": 1},
                            },
                            "descriptions": {
                                "type": "object",
                                "additionalProperties": {"type": "string"},
                            },
                            "seat_names": {
                                "type": "object",
                                "additionalProperties": {
                                    "type": "array",
                                    "items": {"type": "string"},
                                },
                            },
                        },
                    }
                ),
            }
        },
        "/api/variants/{name}": {
            "get": {
                "summary": "A variant's rules document",
                "parameters": [
                    {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}
                ],
                "responses": {
                    **_ok({"$ref": _LIBRARY + "rules_document"}, 200, "its rules document"),
                    **_err(404),
                },
            }
        },
        "/api/bots": {
            "get": {
                "summary": "The bots a seat may be given",
                "responses": _ok(
                    {
                        "type": "object",
                        "required": ["bots"],
                        "properties": {"bots": {"type": "array", "items": {"type": "string"}}},
                    }
                ),
            }
        },
        "/api/tables": {
            "get": {
                "summary": "The tables, newest first (at most 200)",
                "responses": {
                    **_ok(
                        {
                            "type": "object",
                            "required": ["tables"],
                            "properties": {
                                "tables": {
                                    "type": "array",
                                    "items": {"$ref": "#/components/schemas/Summary"},
                                }
                            },
                        }
                    ),
                    **_err(429),
                },
            },
            "post": {
                "summary": "Make a table",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/NewTable"}}
                    },
                },
                "responses": {
                    **_ok("Summary", 201, "the new table"),
                    **_err(400, 413, 422, 429, 503),
                },
            },
        },
        "/api/tables/{table}": {
            "get": {
                "summary": "One table",
                "parameters": [_TABLE],
                "responses": {**_ok("Summary"), **_err(404)},
            }
        },
        "/api/tables/{table}/seats/{seat}/join": {
            "post": {
                "summary": "Take a human seat: answers its token, once",
                "parameters": [_TABLE, _SEAT_N],
                "responses": {
                    **_ok(
                        {
                            "type": "object",
                            "required": ["table", "seat", "token"],
                            "properties": {
                                "table": {"type": "string"},
                                "seat": {"type": "integer"},
                                "token": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
                            },
                        },
                        201,
                        "the seat's token (keep it secret)",
                    ),
                    **_err(404, 409, 410),
                },
            }
        },
        "/api/tables/{table}/seats/{seat}/view": {
            "get": {
                "summary": "The seat's view",
                "parameters": [_TABLE, _SEAT_N],
                "security": _AUTH,
                "responses": {**_ok("SeatView"), **_err(401, 404)},
            }
        },
        "/api/tables/{table}/seats/{seat}/moves": {
            "post": {
                "summary": "Make the seat's move",
                "parameters": [_TABLE, _SEAT_N],
                "security": _AUTH,
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Move"}}
                    },
                },
                "responses": {
                    **_ok("Moved", 200, "applied (or, repeated, applied before)"),
                    **_err(400, 401, 404, 409, 410, 413, 422, 429),
                },
            }
        },
        "/api/tables/{table}/seats/{seat}/continue": {
            "post": {
                "summary": (
                    "The seat has seen the end of the last deal: the bots need not wait for it"
                ),
                "parameters": [_TABLE, _SEAT_N],
                "security": _AUTH,
                "requestBody": {
                    "required": False,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "additionalProperties": False,
                                "properties": {
                                    "deal": {
                                        "type": "integer",
                                        "minimum": 1,
                                        "description": "the deal that ended (checked when given)",
                                    }
                                },
                            }
                        }
                    },
                },
                "responses": {
                    **_ok("Continued"),
                    **_err(400, 401, 404, 409, 413, 422, 429),
                },
            }
        },
        "/api/health": {
            "get": {
                "summary": "Whether the server can open the WebSockets the table needs",
                "responses": _ok(
                    {
                        "type": "object",
                        "required": ["websockets", "message", "listening", "bot_decisions"],
                        "properties": {
                            "websockets": {"type": "boolean"},
                            "message": {
                                "type": ["string", "null"],
                                "description": "why not, for a person",
                            },
                            "listening": {
                                "type": "boolean",
                                "description": "whether moves stored by other server processes"
                                " reach this one as they are committed (PostgreSQL), rather"
                                " than at its next poll",
                            },
                            "bot_decisions": {
                                "type": "integer",
                                "minimum": 0,
                                "description": "the bots' decisions this process made since"
                                " it started (one process decides a table's bots at a time)",
                            },
                        },
                    }
                ),
            }
        },
        "/api/tables/{table}/public": {
            "get": {
                "summary": "What a spectator may know",
                "parameters": [_TABLE],
                "responses": {**_ok("Public"), **_err(404)},
            }
        },
        "/api/tables/{table}/record": {
            "get": {
                "summary": "The game's record, once it is over",
                "parameters": [
                    _TABLE,
                    {
                        "name": "format",
                        "in": "query",
                        "required": False,
                        "schema": {"enum": ["json", "text"], "default": "json"},
                        "description": "json: the record document; text: the record notation",
                    },
                ],
                "responses": {
                    "200": {
                        "description": "the record (format backalley/record), or with "
                        "format=text the record notation",
                        "content": {
                            "application/json": {"schema": {"$ref": _LIBRARY + "record"}},
                            "text/plain": {"schema": {"type": "string"}},
                        },
                    },
                    **_err(404, 409, 422),
                },
            }
        },
    },
    "components": {
        "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer"}},
        "schemas": {
            "Error": _ERROR,
            "Seat": _SEAT,
            "Summary": _SUMMARY,
            "SeatView": _SEAT_VIEW,
            "Moved": _MOVED,
            "Public": _PUBLIC,
            "TableFacts": _FACTS,
            "DealEnd": _DEAL_END,
            "Continued": _CONTINUED,
            "NewTable": _NEW_TABLE,
            "Move": _MOVE,
        },
    },
}


def _edge_refusals(document: dict[str, Any]) -> None:
    """Every operation may be refused before its route: 421 (a ``Host``
    the server does not answer to); a POST also 403 (another site's
    ``Origin``) and 415 (a body not sent as JSON)."""
    for operations in document["paths"].values():
        for method, operation in operations.items():
            codes = (403, 415, 421) if method == "post" else (421,)
            operation["responses"].update(_err(*codes))


_edge_refusals(_DOCUMENT)


def _refs(schema: Any) -> Iterator[str]:
    """The names of the definitions ``schema`` refers to (``#/$defs/<name>``)."""
    if isinstance(schema, dict):
        target = schema.get("$ref")
        if isinstance(target, str) and target.startswith("#/$defs/"):
            yield target[len("#/$defs/") :].replace("~1", "/").replace("~0", "~")
        for value in schema.values():
            yield from _refs(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _refs(value)


def _used(defs: dict[str, Any]) -> list[str]:
    """The definitions of :data:`_ROOTS` and those they use, at any depth, in the schema's order."""
    found: set[str] = set()
    todo = list(_ROOTS)
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(_refs(defs[name]))
    return [name for name in defs if name in found]


def _component_names(names: list[str]) -> dict[str, str]:
    """A component's name for each definition: ``backalley.`` and the name,
    ``:`` as ``.`` and any other character a component's name may not hold
    (``/`` of a user's tag) as ``_``; distinct names stay distinct."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        base = "backalley." + re.sub(r"[^A-Za-z0-9._-]", "_", name.replace(":", "."))
        candidate, n = base, 1
        while candidate in taken:
            n += 1
            candidate = f"{base}-{n}"
        taken.add(candidate)
        out[name] = candidate
    return out


def _rewritten(schema: Any, names: dict[str, str]) -> Any:
    """``schema`` with its references to definitions pointing at the components."""
    if isinstance(schema, dict):
        out = {key: _rewritten(value, names) for key, value in schema.items()}
        target = schema.get("$ref")
        if isinstance(target, str) and target.startswith("#/$defs/"):
            name = target[len("#/$defs/") :].replace("~1", "/").replace("~0", "~")
            out["$ref"] = "#/components/schemas/" + names[name]
        return out
    if isinstance(schema, list):
        return [_rewritten(value, names) for value in schema]
    return schema


def _with_documents(documents: dict[str, Any]) -> dict[str, Any]:
    """The document, with the definitions of the library's documents it uses
    taken from ``documents`` (the documents' JSON schema)."""
    defs = documents["$defs"]
    used = _used(defs)
    names = _component_names(used)
    document = copy.deepcopy(_DOCUMENT)
    schemas = document["components"]["schemas"]
    for name in used:
        schemas[names[name]] = _rewritten(defs[name], names)
    return document


@functools.lru_cache(maxsize=4)
def _document_text(documents: str) -> str:
    return json.dumps(_with_documents(json.loads(documents)))


def openapi_document(documents: dict[str, Any] | None = None) -> dict[str, Any]:
    """The OpenAPI 3.1 document (a fresh copy).

    Its library documents come from ``documents``, a documents' JSON schema:
    by default :func:`backalley.io.schema.schema`, of every rule part and
    reason registered now (so a user's part is described); the docs carry
    the document of the built-in ones (``backalley.io.schema.built_in_schema()``).
    """
    if documents is not None:
        return _with_documents(documents)
    found: dict[str, Any] = json.loads(_document_text(schema_text()))
    return found
