"""Several server processes share one PostgreSQL database (the deployment
the "Serving games" page describes): two ``backalley serve`` processes on
one database (a private cluster the test starts; skipped, with the reason,
when none can be started) serve the same table.  A seat joined through one
is played through the other, a view read through either names the moves made
through both, a socket on one process hears of a move made through the
other, and of two moves racing for the table through the two processes
exactly one is applied."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("httpx")
pytest.importorskip("starlette", reason="the server's extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the server's extra (uvicorn) is not installed")
pytest.importorskip("websockets")

import httpx
from websockets.sync.client import connect

from .. import ROOT
from ..server_services import PostgresCluster, Served

SHORT = {
    "format": "backalley/rules",
    "name": "short",
    "base": "gamerules",
    "schedule": {"hand_sizes": [3, 2, 1]},
}
TIMEOUT = httpx.Timeout(15.0, connect=5.0)


@pytest.fixture
def two_servers(tmp_path: Path, postgres: PostgresCluster) -> Iterator[tuple[str, str]]:
    url = postgres.new_database("procs")
    with Served(tmp_path / "a", database=url) as a, Served(tmp_path / "b", database=url) as b:
        yield a.url, b.url


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_two_processes_serve_one_table(two_servers: tuple[str, str]) -> None:
    a, b = two_servers
    with httpx.Client(timeout=TIMEOUT) as http:
        made = http.post(f"{a}/api/tables", json={"rules": SHORT, "seats": ["human"] * 4})
        assert made.status_code == 201, made.text
        table = made.json()["table"]
        # every seat joined through B, the table made through A
        tokens = [
            http.post(f"{b}/api/tables/{table}/seats/{seat}/join").json()["token"]
            for seat in range(4)
        ]
        # and a seat joined on one process cannot be joined again on the other
        again = http.post(f"{a}/api/tables/{table}/seats/0/join")
        assert again.status_code == 409 and again.json()["error"] == "seat-taken"

        def view(server: str, seat: int) -> dict[str, object]:
            answer = http.get(
                f"{server}/api/tables/{table}/seats/{seat}/view", headers=_auth(tokens[seat])
            )
            assert answer.status_code == 200, answer.text
            data = answer.json()
            assert isinstance(data, dict)
            return data

        first = view(a, 0)
        to_act = first["view"]["to_act"]  # type: ignore[index]
        watcher = (to_act + 1) % 4
        pushed: list[dict[str, object]] = []
        with connect(
            f"ws{b[4:]}/api/tables/{table}/seats/{watcher}/socket", open_timeout=10
        ) as socket:
            socket.send(json.dumps({"token": tokens[watcher]}))
            hello = json.loads(socket.recv(timeout=10))
            assert hello["type"] == "view" and hello["version"] == 0

            move = view(a, to_act)["view"]["legal_moves"][0]  # type: ignore[index]
            done = http.post(
                f"{a}/api/tables/{table}/seats/{to_act}/moves",
                json={"move": move, "client_move_id": "first"},
                headers=_auth(tokens[to_act]),
            )
            assert done.status_code == 200, done.text
            assert done.json()["version"] == 1

            # B reads the move A stored before it answers ...
            assert view(b, watcher)["version"] == 1
            # ... and its socket hears of it (B looks for other processes'
            # moves every second for the tables its sockets watch)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                message = json.loads(socket.recv(timeout=max(0.1, deadline - time.monotonic())))
                pushed.append(message)
                if message.get("version") == 1:
                    break
            assert pushed and pushed[-1]["version"] == 1
            assert pushed[-1]["view"]["calls"] == [move]  # type: ignore[index]

            # the same client move id through the other process: not applied again
            repeat = http.post(
                f"{b}/api/tables/{table}/seats/{to_act}/moves",
                json={"move": move, "client_move_id": "first"},
                headers=_auth(tokens[to_act]),
            )
            assert repeat.status_code == 200 and repeat.json()["repeated"] is True
            assert repeat.json()["version"] == 1

        # two moves racing for the table, one through each process
        seat = view(a, 0)["view"]["to_act"]  # type: ignore[index]
        legal = view(a, seat)["view"]["legal_moves"]  # type: ignore[index]
        answers: dict[str, httpx.Response] = {}
        start = threading.Barrier(2)

        def send(server: str, name: str, text: str) -> None:
            with httpx.Client(timeout=TIMEOUT) as own:
                start.wait(timeout=10)
                answers[name] = own.post(
                    f"{server}/api/tables/{table}/seats/{seat}/moves",
                    json={"move": text, "client_move_id": f"race-{name}"},
                    headers=_auth(tokens[seat]),
                )

        racers = [
            threading.Thread(target=send, args=(a, "a", legal[0])),
            threading.Thread(target=send, args=(b, "b", legal[-1])),
        ]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(timeout=30)
        statuses = sorted(answer.status_code for answer in answers.values())
        assert len(statuses) == 2 and statuses[0] == 200 and statuses[1] != 200, answers
        loser = next(answer for answer in answers.values() if answer.status_code != 200)
        assert loser.json()["error"] in {"conflict", "illegal-move"}
        # exactly one of them applied, and both processes say so
        assert view(a, 0)["version"] == view(b, 0)["version"] == 2


def test_the_docs_carry_the_served_openapi_document() -> None:
    """docs/_static/openapi.json (linked from the "Serving games" page) is the
    document the server serves with the library's own rule parts (other tests
    register parts of their own, which the served document describes too);
    write it again with
    ``python -c "import json; from backalley.server.openapi import openapi_document;
    print(json.dumps(openapi_document(), indent=2))" > docs/_static/openapi.json``."""
    from backalley.io.schema import built_in_schema
    from backalley.server.openapi import openapi_document

    shipped = ROOT / "docs" / "_static" / "openapi.json"
    served = openapi_document(built_in_schema())
    assert json.loads(shipped.read_text(encoding="utf-8")) == served
