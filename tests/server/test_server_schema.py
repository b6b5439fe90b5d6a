"""The served OpenAPI document against the server itself, with schemathesis.

The document is loaded from the running application (``/openapi.json``, in
process); for every operation Hypothesis builds requests from it, and every
answer is checked: no server error, a documented status, a documented
content type and a body that fits the documented schema.

So that the answers are not only refusals, some requests are aimed at real
tables (made before the run): one where every seat is a person with its
token (its moves drawn from the calls and cards of the game, so many are
legal and the game goes on), one with bots, one whose game is over (its
record is given), and one with open seats to join.  The rest are built from
the document alone.  Every operation is run; the examples are bounded.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
schemathesis = pytest.importorskip("schemathesis", minversion="4")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

with warnings.catch_warnings():  # starlette's note about httpx2
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

import backalley as ba  # noqa: E402
from backalley.server import SqliteStore, create_app  # noqa: E402

NEGATIVE = schemathesis.GenerationMode.NEGATIVE

EXAMPLES = 40
"""Examples per operation (each drawn from every kind of request)."""
DERANDOMIZE = True
"""The same examples every run (a hunt for new failures may turn it off)."""
SHORT = {
    "format": "backalley/rules",
    "name": "short",
    "base": "gamerules",
    "schedule": {"hand_sizes": [2, 1]},
}
LEGAL = "<a legal move>"
"""A move's text that the test replaces, just before the request, with a
legal move of the seat to act (and the request's seat and token with that
seat's), so that real tables' games go on."""
MOVES = (
    [LEGAL] * 60
    + ["pass", "board", *(f"bid {n}" for n in range(14))]
    + [f"play {card}" for card in ba.rules.Deck().cards]
)
"""Every call and card play of the gamerules game, as a move's text."""


def _checks() -> list[Any]:
    names = (
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_schema_conformance",
    )
    return [getattr(schemathesis.checks, name) for name in names]


def _from_asgi(app: Any) -> Any:
    return schemathesis.openapi.from_asgi("/openapi.json", app)


class Tables:
    """The real tables the requests may be aimed at."""

    def __init__(self, client: TestClient) -> None:
        def make(seats: list[str], rules: object = "gamerules") -> str:
            answer = client.post("/api/tables", json={"rules": rules, "seats": seats})
            assert answer.status_code == 201, answer.text
            return str(answer.json()["table"])

        def join(table: str, seat: int) -> str:
            answer = client.post(f"/api/tables/{table}/seats/{seat}/join")
            assert answer.status_code == 201, answer.text
            return str(answer.json()["token"])

        self.people = make(["human"] * 4)
        self.tokens = {seat: join(self.people, seat) for seat in range(4)}
        self.bots = make(["human", "random", "human", "random"])
        self.bot_tokens = {0: join(self.bots, 0)}
        self.open = make(["human", "human", "random", "human"], SHORT)
        self.over = make(["human", "random", "random", "random"], SHORT)
        token = join(self.over, 0)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            public = client.get(f"/api/tables/{self.over}/public").json()["public"]
            if public["phase"] == "game-over":
                break
            if public["to_act"] == 0:
                legal = client.get(
                    f"/api/tables/{self.over}/seats/0/view",
                    headers={"Authorization": f"Bearer {token}"},
                ).json()["view"]["legal_moves"]
                client.post(
                    f"/api/tables/{self.over}/seats/0/moves",
                    json={"move": legal[0]},
                    headers={"Authorization": f"Bearer {token}"},
                )
            else:
                time.sleep(0.002)
        else:
            raise AssertionError("the short game did not end")
        self.over_tokens = {0: token}
        self.seat_tokens = {
            self.people: self.tokens,
            self.bots: self.bot_tokens,
            self.over: self.over_tokens,
        }

    def act(self, app: Any, case: Any) -> None:
        """Aim a move of :data:`LEGAL` at the seat to act with a legal move."""
        table = case.path_parameters.get("table")
        tokens = self.seat_tokens.get(table, {})
        public = app.state.service.public(table)["public"]
        seat = public["to_act"] if public["to_act"] in tokens else case.path_parameters["seat"]
        found = app.state.service.view_of(table, seat)
        legal = found["view"]["legal_moves"] or ["pass"]
        case.body = {**case.body, "move": legal[found["version"] % len(legal)]}
        if seat in tokens:
            case.path_parameters = {**case.path_parameters, "seat": seat}
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {tokens[seat]}"}

    def aims(self) -> list[tuple[dict[str, Any], dict[str, str]]]:
        """Per real seat: its path parameters, and its token's header."""
        out: list[tuple[dict[str, Any], dict[str, str]]] = []
        for table, tokens in (
            (self.people, self.tokens),
            (self.bots, self.bot_tokens),
            (self.over, self.over_tokens),
        ):
            for seat, token in tokens.items():
                out.append(({"table": table, "seat": seat}, {"Authorization": f"Bearer {token}"}))
        for seat in (1, 3):
            out.append(({"table": self.open, "seat": seat}, {}))
        return out


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Tables]]:
    path = Path(tmp_path_factory.mktemp("schema")) / "tables.db"
    store = SqliteStore(path)
    app = create_app(
        store,
        bot_delay=0,
        deal_pause=0,
        create_burst=10_000,
        move_burst=10_000,
        move_rate=1e4,
        allowed_hosts="testserver",
        # schemathesis calls the application in an event loop of its own per
        # request: the bots decide on a thread, quick enough to move before it ends
        bot_workers=0,
    )
    with TestClient(app) as client:
        tables = Tables(client)
    yield app, tables
    # the application stays open in schemathesis' own event loop to the end
    # of the process; its store is left open with it


NEW_TABLES = st.fixed_dictionaries(
    {
        "rules": st.sampled_from([*ba.variants.names()[:4], SHORT]),
        "seats": st.lists(st.sampled_from(["human", "random"]), min_size=4, max_size=4).filter(
            lambda seats: "human" in seats  # no table of bots alone, playing on by itself
        ),
    }
)
"""Tables the server makes: a few variants and a house-rules document."""


def _strategy(operation: Any, tables: Tables) -> Any:
    """Requests built from the document (valid ones and, where the document
    allows, invalid ones), and requests aimed at real tables and seats."""
    names = {p.name for p in operation.path_parameters}
    secured = bool(operation.definition.raw.get("security"))
    kinds = [operation.as_strategy()]
    if names or operation.method.upper() == "POST":
        kinds.append(operation.as_strategy(generation_mode=NEGATIVE))
    if names == {"name"}:
        kinds.append(
            st.sampled_from(ba.variants.names()).flatmap(
                lambda name: operation.as_strategy(path_parameters={"name": name})
            )
        )
    if operation.method.upper() == "POST" and operation.path == "/api/tables":
        kinds.append(NEW_TABLES.flatmap(lambda body: operation.as_strategy(body=body)))
    aims = [
        ({k: v for k, v in params.items() if k in names}, headers if secured else {})
        for params, headers in tables.aims()
    ]
    aims = [aim for aim in aims if aim[0]]
    if aims:
        kinds.append(
            st.sampled_from(aims).flatmap(
                lambda aim: operation.as_strategy(path_parameters=aim[0], headers=aim[1])
            )
        )
    if operation.path.endswith("/continue"):  # the finished game's seat: its last deal ended
        over = {"table": tables.over, "seat": 0}
        token = {"Authorization": f"Bearer {tables.over_tokens[0]}"}
        kinds.append(operation.as_strategy(path_parameters=over, headers=token, body={}))
    if operation.method.upper() == "POST" and operation.path.endswith("/moves"):
        moves = st.tuples(st.sampled_from(aims), st.sampled_from(MOVES))
        kinds += 2 * [  # the game at the people's table goes on
            moves.flatmap(
                lambda aim_move: operation.as_strategy(
                    path_parameters=aim_move[0][0],
                    headers=aim_move[0][1],
                    body={"move": aim_move[1]},
                )
            )
        ]
    return st.one_of(kinds)


def _run(
    app: Any, operation: Any, tables: Tables, checks: list[Any], statuses: dict[str, set[int]]
) -> None:
    """Run ``operation``'s examples; note each answer's status under its label."""
    label = f"{operation.method.upper()} {operation.path}"

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=DERANDOMIZE,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=_strategy(operation, tables))
    def run(case: Any) -> None:
        if isinstance(case.body, dict) and case.body.get("move") == LEGAL:
            tables.act(app, case)
        response = case.call_and_validate(checks=checks)
        statuses.setdefault(label, set()).add(response.status_code)

    run()


def test_every_answer_fits_the_openapi_document(served: tuple[Any, Tables]) -> None:
    app, tables = served
    schema = _from_asgi(app)
    checks = _checks()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 13
    statuses: dict[str, set[int]] = {}

    for operation in operations:
        _run(app, operation, tables, checks, statuses)

    # every operation was run, and the real tables gave more than refusals
    assert set(statuses) == {f"{o.method.upper()} {o.path}" for o in operations}
    succeeded = {label for label, found in statuses.items() if any(s < 300 for s in found)}
    assert succeeded == set(statuses), statuses
    assert 200 in statuses["POST /api/tables/{table}/seats/{seat}/moves"]
    assert 201 in statuses["POST /api/tables"]
    assert 201 in statuses["POST /api/tables/{table}/seats/{seat}/join"]
    assert 200 in statuses["GET /api/tables/{table}/record"]


@pytest.fixture(scope="module")
def api_schema(served: tuple[Any, Tables]) -> Any:
    return _from_asgi(served[0])


lazy_schema = schemathesis.pytest.from_fixture("api_schema")


@lazy_schema.parametrize()
@settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_schemathesis_phases_find_no_mismatch(case: Any) -> None:
    """Schemathesis' own run of each operation: its examples, coverage and
    fuzzing phases, with the same four checks."""
    case.call_and_validate(checks=_checks())
