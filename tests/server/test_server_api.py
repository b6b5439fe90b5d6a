"""The table server's HTTP API and sockets, through Starlette's TestClient.

Every endpoint and every refusal: each refusal answers its status, its error
code and a message a person can act on, and leaves the table as it was (the
same version, the same views).  Then the sockets (a seat's, a spectator's),
the OpenAPI document, the page's headers, no CORS, two moves racing for one
table, and a restart over the same database file.

Each test builds its own application over its own SQLite file; bots move
without delay (``bot_delay=0``), and every wait is bounded.
"""

from __future__ import annotations

import functools
import json
import queue
import re
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette's note about httpx2
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

import backalley as ba
from backalley.server import ServerSettings, SqliteStore, create_app
from backalley.server.app import STATIC

from ..server_services import SocketReader

HUMANS = ["human"] * 4
SHORT = {
    "format": "backalley/rules",
    "name": "short",
    "base": "gamerules",
    "schedule": {"hand_sizes": [2, 1]},
}
"""A two-deal game (2 cards, then 1): a whole game in a few dozen moves."""
WAIT = 20.0
TEST_HOST = "testserver"
"""The host Starlette's TestClient names (its sockets always do): the
server answers only the hosts it is told to."""
"""The longest any test waits for the bots or a socket, in seconds."""


# -- helpers -------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    found = SqliteStore(tmp_path / "tables.db")
    yield found
    found.close()


def _client(store: SqliteStore, **limits: Any) -> TestClient:
    limits.setdefault("bot_delay", 0)
    limits.setdefault("deal_pause", 0)
    limits.setdefault("create_burst", 1000)
    limits.setdefault("allowed_hosts", TEST_HOST)
    return TestClient(create_app(store, **limits))


@pytest.fixture
def client(store: SqliteStore) -> Iterator[TestClient]:
    with _client(store) as found:
        yield found


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _table(client: TestClient, seats: list[str] | None = None, rules: object = "gamerules") -> str:
    answer = client.post("/api/tables", json={"rules": rules, "seats": seats or HUMANS})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["table"])


def _join(client: TestClient, table: str, seat: int) -> str:
    answer = client.post(f"/api/tables/{table}/seats/{seat}/join")
    assert answer.status_code == 201, answer.text
    return str(answer.json()["token"])


def _public(client: TestClient, table: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}/public")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _view(client: TestClient, table: str, seat: int, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}/seats/{seat}/view", headers=_auth(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _move(
    client: TestClient, table: str, seat: int | str, token: str, move: str, **extra: Any
) -> Any:
    return client.post(
        f"/api/tables/{table}/seats/{seat}/moves",
        json={"move": move, **extra},
        headers=_auth(token),
    )


def _state(store: SqliteStore, table: str, version: int | None = None) -> ba.GameState:
    """The table's game (at ``version``: after that many moves) as the library
    replays it from the store."""
    row = store.table(table)
    assert row is not None
    state = ba.new_game(ba.from_json(row.rules, ba.RuleSet), seed=row.seed, dealer=row.first_dealer)
    for stored in store.moves(table)[:version]:
        state = state.apply(ba.parse_move(stored.move))
    return state


def _view_doc(state: ba.GameState, seat: int) -> Any:
    """The library's view document of ``seat``, as parsed JSON."""
    return json.loads(ba.to_json(state.view(seat)))


def _refused(answer: Any, status: int, code: str, *words: str) -> dict[str, Any]:
    """Check a refusal's status, code and message words; answer its body."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    body = dict(answer.json())
    assert body["error"] == code, body
    assert isinstance(body["message"], str) and body["message"], body
    for word in words:
        assert word in body["message"], (word, body)
    return body


def _wait(check: Callable[[], Any], what: str, seconds: float = WAIT) -> Any:
    """Poll ``check`` until it answers something true (bounded)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.005)
    raise AssertionError(f"gave up waiting for {what} after {seconds} s")


class Unchanged:
    """What a client can read of a table, to check a refusal changed nothing."""

    def __init__(self, client: TestClient, store: SqliteStore, table: str, tokens: dict[int, str]):
        self.client, self.store, self.table, self.tokens = client, store, table, tokens
        self.before = self.read()

    def read(self) -> Any:
        return (
            self.store.version(self.table),
            self.client.get(f"/api/tables/{self.table}").json(),
            _public(self.client, self.table),
            {s: _view(self.client, self.table, s, t) for s, t in self.tokens.items()},
        )

    def check(self) -> None:
        assert self.read() == self.before


class Socket(SocketReader):
    """A test WebSocket read on a daemon thread, so that every wait is bounded."""

    def raw(self, timeout: float = WAIT) -> dict[str, Any]:
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no socket message within {timeout} s") from None

    def json(self, timeout: float = WAIT) -> dict[str, Any]:
        message = self.raw(timeout)
        assert message["type"] == "websocket.send", message
        return dict(json.loads(message["text"]))

    def until(self, check: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> list[Any]:
        """The messages up to and including the first that passes ``check``."""
        deadline = time.monotonic() + timeout
        got = []
        while True:
            got.append(self.json(max(0.01, deadline - time.monotonic())))
            if check(got[-1]):
                return got


def _playing(client: TestClient, table: str, tokens: dict[int, str]) -> None:
    """Bid (each seat its first legal call) until the first trick is being played."""
    for _ in range(40):
        public = _public(client, table)["public"]
        if public["phase"] == "playing":
            return
        seat = public["to_act"]
        legal = _view(client, table, seat, tokens[seat])["view"]["legal_moves"]
        calls = [m for m in legal if m != "pass"] or legal
        assert _move(client, table, seat, tokens[seat], calls[0]).status_code == 200
    raise AssertionError("the bidding did not end")


# -- the listings ----------------------------------------------------------------


def test_variants_and_bots_are_listed(client: TestClient) -> None:
    names = client.get("/api/variants").json()["variants"]
    assert names == list(ba.variants.names())
    answer = client.get("/api/variants/vietnam")
    assert answer.status_code == 200
    assert ba.from_json(answer.text, ba.RuleSet) == ba.variants.get("vietnam")
    body = _refused(client.get("/api/variants/no-such-game"), 404, "unknown-variant")
    assert "no-such-game" in body["message"]
    bots = client.get("/api/bots").json()["bots"]
    assert {"random", "heuristic"} <= set(bots)


def test_a_table_is_made_listed_and_summarized(client: TestClient) -> None:
    assert client.get("/api/tables").json() == {"tables": []}
    answer = client.post(
        "/api/tables", json={"rules": "vietnam", "seats": ["human", "random", "human", "random"]}
    )
    assert answer.status_code == 201
    made = answer.json()
    assert made["rules"] == "vietnam" and made["version"] == 0 and made["over"] is False
    assert [(s["player"], s["open"]) for s in made["seats"]] == [
        ("human", True),
        ("random", False),
        ("human", True),
        ("random", False),
    ]
    table = made["table"]
    assert re.fullmatch(r"[0-9a-f]{16}", table)
    _join(client, table, 2)
    _wait(lambda: _public(client, table)["public"]["to_act"] in (0, 2), "the bots to pass the turn")
    summary = client.get(f"/api/tables/{table}").json()
    assert [s["open"] for s in summary["seats"]] == [True, False, False, False]
    assert client.get("/api/tables").json()["tables"] == [summary]
    # a house-rules document is a table's rules too
    house = client.post("/api/tables", json={"rules": SHORT, "seats": HUMANS})
    assert house.status_code == 201 and house.json()["rules"] == "short"
    # the default rules are the gamerules game
    plain = client.post("/api/tables", json={"seats": HUMANS})
    assert plain.status_code == 201 and plain.json()["rules"] == "gamerules"
    assert len(client.get("/api/tables").json()["tables"]) == 3


BAD_TABLES: list[tuple[Any, int, str, tuple[str, ...]]] = [
    ({"rules": "no-such-game", "seats": HUMANS}, 422, "unknown-variant", ("no-such-game",)),
    ({"rules": 42, "seats": HUMANS}, 422, "bad-rules", ("variant",)),
    (
        {
            "rules": {
                "format": "backalley/rules",
                "name": "x",
                "colour": 1,
                "bidding": {"min_bid": -1},
            },
            "seats": HUMANS,
        },
        422,
        "bad-rules",
        ("colour", "bidding.min_bid", "below 0"),
    ),
    (
        {
            "rules": {"format": "backalley/rules", "base": "gamerules", "trump": {"type": "fixd"}},
            "seats": HUMANS,
        },
        422,
        "bad-rules",
        ("trump.type", "fixed"),
    ),
    ({"rules": {"base": "gamerules"}, "seats": HUMANS}, 422, "bad-rules", ("format",)),
    ({"rules": {"format": None}, "seats": HUMANS}, 422, "bad-rules", ("format",)),
    ({"seats": ["human"] * 3}, 422, "bad-seats", ("4 entries",)),
    ({"seats": ["human"] * 5}, 422, "bad-seats", ("4 entries",)),
    ({"seats": ["human", "human", "human", "deep-blue"]}, 422, "bad-seats", ("random",)),
    ({"seats": "human"}, 422, "bad-seats", ("list",)),
    ({"rules": "gamerules"}, 422, "bad-seats", ("list",)),
    ({"seats": HUMANS, "colour": "red"}, 422, "bad-request", ("colour",)),
]


@pytest.mark.parametrize(("body", "status", "code", "words"), BAD_TABLES)
def test_a_bad_table_is_refused_and_nothing_is_made(
    client: TestClient, body: Any, status: int, code: str, words: tuple[str, ...]
) -> None:
    _refused(client.post("/api/tables", json=body), status, code, *words)
    assert client.get("/api/tables").json() == {"tables": []}


def test_a_body_that_is_no_json_object_or_too_large_is_refused(client: TestClient) -> None:
    post = client.post
    headers = {"content-type": "application/json"}
    _refused(post("/api/tables", content=b"{not json", headers=headers), 400, "bad-json", "JSON")
    _refused(post("/api/tables", content=b"[1, 2]", headers=headers), 400, "bad-json", "object")
    _refused(post("/api/tables", content=b"\xff\xfe", headers=headers), 400, "bad-json")
    big = json.dumps({"seats": HUMANS, "rules": {"name": "x" * 70_000}}).encode()
    _refused(post("/api/tables", content=big, headers=headers), 413, "too-large", "65536")

    def chunks() -> Iterator[bytes]:  # no content-length: read in pieces, stopped at the limit
        for _ in range(100):
            yield b" " * 1000

    _refused(post("/api/tables", content=chunks(), headers=headers), 413, "too-large")
    assert client.get("/api/tables").json() == {"tables": []}


# -- unknown tables and seats, joining -----------------------------------------------


def test_unknown_tables_and_seats_are_not_found(client: TestClient) -> None:
    table = _table(client)
    token = _join(client, table, 0)
    for path in ("", "/public", "/record", "/seats/0/view"):
        body = _refused(client.get(f"/api/tables/nope{path}"), 404, "not-found", "'nope'")
    _refused(client.post("/api/tables/nope/seats/0/join"), 404, "not-found")
    _refused(_move(client, "nope", 0, token, "pass"), 404, "not-found")
    body = _refused(client.get("/api/tables/" + "x" * 300), 404, "not-found")
    assert len(body["message"]) < 100  # the message does not echo a long id whole
    for seat in ("4", "9", "-1", "x", "007"):
        _refused(client.post(f"/api/tables/{table}/seats/{seat}/join"), 404, "no-seat", "0 to 3")
        _refused(
            client.get(f"/api/tables/{table}/seats/{seat}/view", headers=_auth(token)),
            404,
            "no-seat",
        )
        _refused(_move(client, table, seat, token, "pass"), 404, "no-seat")


def test_a_seat_is_joined_once_and_a_bot_seat_never(client: TestClient, store: SqliteStore) -> None:
    table = _table(client, ["human", "heuristic", "human", "random"])
    answer = client.post(f"/api/tables/{table}/seats/0/join")
    assert answer.status_code == 201
    body = answer.json()
    assert body["table"] == table and body["seat"] == 0
    assert re.fullmatch(r"[0-9a-f]{32}", body["token"])
    _wait(lambda: _public(client, table)["public"]["to_act"] in (0, 2), "the bots to pass the turn")
    unchanged = Unchanged(client, store, table, {0: body["token"]})
    _refused(client.post(f"/api/tables/{table}/seats/0/join"), 409, "seat-taken", "seat 0")
    _refused(client.post(f"/api/tables/{table}/seats/1/join"), 409, "bot-seat", "heuristic")
    _refused(client.post(f"/api/tables/{table}/seats/3/join"), 409, "bot-seat", "random")
    unchanged.check()
    # the token is never stored as such, nor shown again
    assert body["token"] not in client.get(f"/api/tables/{table}").text
    assert store.seat_hash(table, 0) != body["token"]


# -- tokens ------------------------------------------------------------------------------


def test_a_token_reads_and_acts_for_its_own_seat_only(
    client: TestClient, store: SqliteStore
) -> None:
    table = _table(client)
    other = _table(client)
    tokens = {0: _join(client, table, 0), 2: _join(client, table, 2)}
    elsewhere = _join(client, other, 0)
    seat = _public(client, table)["public"]["to_act"]
    move = "bid 1"
    unchanged = Unchanged(client, store, table, tokens)
    zero = tokens[0]
    cases = [
        ({}, 0),  # no token
        ({"Authorization": "Bearer"}, 0),
        ({"Authorization": f"Basic {zero}"}, 0),
        ({"Authorization": "Bearer " + "0" * 32}, 0),  # a wrong token
        (_auth(zero.upper()), 0),
        (_auth(zero), 2),  # seat 0's token for seat 2
        (_auth(zero), 1),  # ... for a seat nobody joined
        (_auth(zero), 3),
        (_auth(elsewhere), 0),  # another table's seat 0
    ]
    for headers, target in cases:
        for answer in (
            client.get(f"/api/tables/{table}/seats/{target}/view", headers=headers),
            client.post(
                f"/api/tables/{table}/seats/{target}/moves", json={"move": move}, headers=headers
            ),
        ):
            _refused(answer, 401, "bad-token", f"seat {target}")
    unchanged.check()
    # and seat 0's token still acts for seat 0 (if seat 0 is to act) or is told why not
    answer = _move(client, table, 0, zero, move)
    if seat == 0:
        assert answer.status_code == 200
    else:
        assert _refused(answer, 422, "illegal-move")["reason"] == "NOT_YOUR_TURN"
    # a token of the other table does nothing here, a token of this table nothing there
    _refused(_move(client, other, 0, zero, move), 401, "bad-token")


# -- moves ---------------------------------------------------------------------------------


def _library_refusal(state: ba.GameState, move: str, seat: int) -> tuple[str, str]:
    with pytest.raises(ba.IllegalMoveError) as refused:
        state.check(ba.parse_move(move), seat=seat)
    return refused.value.reason.name, str(refused.value)


def test_illegal_moves_are_refused_with_the_library_reason_and_sentence(
    client: TestClient, store: SqliteStore
) -> None:
    table = _table(client)
    tokens = {seat: _join(client, table, seat) for seat in range(4)}
    to_act = _public(client, table)["public"]["to_act"]
    idle = (to_act + 1) % 4
    unchanged = Unchanged(client, store, table, tokens)
    state = _state(store, table)
    for seat, move, reason in [
        (to_act, "bid 13", "BID_TOO_HIGH"),
        (to_act, "bid 99", "BID_TOO_HIGH"),
        (idle, "bid 1", "NOT_YOUR_TURN"),
        (to_act, "play AS", "WRONG_PHASE"),
        (to_act, "trump H", "WRONG_PHASE"),
    ]:
        body = _refused(_move(client, table, seat, tokens[seat], move), 422, "illegal-move")
        assert body["reason"] == reason, (move, body)
        assert (body["reason"], body["message"]) == _library_refusal(state, move, seat)
    assert "highest bid is 12" in _move(client, table, to_act, tokens[to_act], "bid 13").text
    unchanged.check()

    # a card that must follow suit, refused with the sentence the seat's view gives for it
    for _ in range(60):
        _playing(client, table, tokens)
        seat = _public(client, table)["public"]["to_act"]
        view = _view(client, table, seat, tokens[seat])["view"]
        refused = [c for c in view["cards"] if c["reason"] == "MUST_FOLLOW_SUIT"]
        if refused:
            break
        playable = next(c["card"] for c in view["cards"] if c["playable"])
        assert _move(client, table, seat, tokens[seat], f"play {playable}").status_code == 200
    else:
        raise AssertionError("no seat was ever held to follow suit")
    unchanged = Unchanged(client, store, table, tokens)
    card = refused[0]
    body = _refused(
        _move(client, table, seat, tokens[seat], f"play {card['card']}"), 422, "illegal-move"
    )
    assert body["reason"] == "MUST_FOLLOW_SUIT"
    assert body["message"] == card["message"]
    assert (body["reason"], body["message"]) == _library_refusal(
        _state(store, table), f"play {card['card']}", seat
    )
    # a card the seat does not hold
    held = set(view["hand"])
    absent = next(str(c) for c in ba.rules.Deck().cards if str(c) not in held)
    body = _refused(_move(client, table, seat, tokens[seat], f"play {absent}"), 422, "illegal-move")
    assert body["reason"] == "NOT_IN_HAND"
    unchanged.check()


BAD_MOVES: list[tuple[dict[str, Any], int, str, tuple[str, ...]]] = [
    ({"move": "hello"}, 422, "not-a-move", ("hello",)),
    ({"move": "play ZZ"}, 422, "not-a-move", ()),
    ({"move": ""}, 422, "not-a-move", ()),
    ({"move": "bid " + "1" * 60}, 422, "not-a-move", ("play QS",)),
    ({"move": 3}, 422, "not-a-move", ("play QS",)),
    ({"move": None}, 422, "not-a-move", ()),
    ({}, 422, "not-a-move", ()),
    ({"move": "bid 1", "client_move_id": ""}, 422, "bad-move-id", ("64",)),
    ({"move": "bid 1", "client_move_id": "x" * 65}, 422, "bad-move-id", ("64",)),
    ({"move": "bid 1", "client_move_id": 7}, 422, "bad-move-id", ()),
    ({"move": "bid 1", "version": "0"}, 422, "bad-version", ()),
    ({"move": "bid 1", "version": -1}, 422, "bad-version", ()),
    ({"move": "bid 1", "version": True}, 422, "bad-version", ()),
    ({"move": "bid 1", "seat": 0}, 422, "bad-request", ("seat",)),
]


def test_a_text_that_is_no_move_and_a_bad_body_are_refused(
    client: TestClient, store: SqliteStore
) -> None:
    table = _table(client)
    seat = _public(client, table)["public"]["to_act"]
    token = _join(client, table, seat)
    unchanged = Unchanged(client, store, table, {seat: token})
    url = f"/api/tables/{table}/seats/{seat}/moves"
    for body, status, code, words in BAD_MOVES:
        _refused(client.post(url, json=body, headers=_auth(token)), status, code, *words)
    headers = {**_auth(token), "content-type": "application/json"}
    _refused(client.post(url, content=b"bid 1", headers=headers), 400, "bad-json")
    _refused(client.post(url, content=b'"bid 1"', headers=headers), 400, "bad-json")
    big = json.dumps({"move": "bid 1", "client_move_id": "x" * 70_000}).encode()
    _refused(client.post(url, content=big, headers=headers), 413, "too-large")
    unchanged.check()


def test_a_stale_version_is_refused(client: TestClient, store: SqliteStore) -> None:
    table = _table(client)
    seat = _public(client, table)["public"]["to_act"]
    token = _join(client, table, seat)
    unchanged = Unchanged(client, store, table, {seat: token})
    body = _refused(_move(client, table, seat, token, "bid 1", version=5), 409, "stale-version")
    assert "version 0, not 5" in body["message"]
    unchanged.check()
    answer = _move(client, table, seat, token, "bid 1", version=0)
    assert answer.status_code == 200
    moved = answer.json()
    assert (moved["number"], moved["version"], moved["repeated"]) == (0, 1, False)
    assert moved["view"]["calls"] == ["bid 1"]
    _refused(_move(client, table, (seat + 1) % 4, token, "bid 1", version=0), 401, "bad-token")


def test_a_repeated_client_move_id_is_applied_once(client: TestClient, store: SqliteStore) -> None:
    table = _table(client)
    tokens = {seat: _join(client, table, seat) for seat in range(4)}
    seat = _public(client, table)["public"]["to_act"]
    first = _move(client, table, seat, tokens[seat], "bid 2", client_move_id="m-1")
    assert first.status_code == 200
    assert (first.json()["number"], first.json()["repeated"]) == (0, False)
    unchanged = Unchanged(client, store, table, tokens)
    again = _move(client, table, seat, tokens[seat], "bid 2", client_move_id="m-1")
    assert again.status_code == 200
    assert (again.json()["number"], again.json()["version"], again.json()["repeated"]) == (
        0,
        1,
        True,
    )
    assert again.json()["view"] == first.json()["view"]
    unchanged.check()
    body = _refused(
        _move(client, table, seat, tokens[seat], "bid 3", client_move_id="m-1"),
        409,
        "move-id-reused",
        "m-1",
        "bid 2",
    )
    assert "reason" not in body
    unchanged.check()
    assert [m.move for m in store.moves(table)] == ["bid 2"]
    # the id is the seat's own: the next seat may use it for its own move
    after = (seat + 1) % 4
    answer = _move(client, table, after, tokens[after], "bid 1", client_move_id="m-1")
    assert answer.status_code == 200 and answer.json()["repeated"] is False
    assert [m.move for m in store.moves(table)] == ["bid 2", "bid 1"]


def test_moves_are_rate_limited_per_token(store: SqliteStore) -> None:
    with _client(store, move_burst=3, move_rate=0.001) as client:
        table = _table(client)
        tokens = {seat: _join(client, table, seat) for seat in range(4)}
        seat = _public(client, table)["public"]["to_act"]
        idle = (seat + 1) % 4
        for _ in range(3):  # refused moves count too
            _refused(_move(client, table, idle, tokens[idle], "bid 99"), 422, "illegal-move")
        unchanged = Unchanged(client, store, table, tokens)
        answer = _move(client, table, idle, tokens[idle], "bid 1")
        _refused(answer, 429, "too-many", "wait")
        assert int(answer.headers["retry-after"]) >= 1
        unchanged.check()
        # another seat's token has its own allowance
        assert _move(client, table, seat, tokens[seat], "bid 1").status_code == 200
        assert store.version(table) == 1


def test_table_making_is_rate_limited(store: SqliteStore) -> None:
    with _client(store, create_burst=2, create_rate=0.001) as client:
        _table(client)
        _table(client)
        answer = client.post("/api/tables", json={"seats": HUMANS})
        _refused(answer, 429, "too-many", "wait")
        assert int(answer.headers["retry-after"]) >= 1
        assert len(client.get("/api/tables").json()["tables"]) == 2
        assert len(store.tables()) == 2


def test_the_table_list_is_rate_limited(store: SqliteStore) -> None:
    with _client(store, list_burst=2, list_rate=0.001) as client:
        table = _table(client)
        assert client.get("/api/tables").json()["tables"][0]["table"] == table
        assert client.get("/api/tables").status_code == 200
        answer = client.get("/api/tables")
        _refused(answer, 429, "too-many", "wait")
        assert int(answer.headers["retry-after"]) >= 1
        # one table's own line is not the list, and stays free
        assert client.get(f"/api/tables/{table}").status_code == 200


def test_sockets_past_the_limits_are_closed_to_try_again_later(store: SqliteStore) -> None:
    """Past a table's limit of spectators' sockets, and past the process's
    (three quarters of its 4 sockets for spectators), a new socket is closed
    with 1013 ("try again later") and a reason; one closed frees its place."""
    with _client(store, max_table_sockets=2, max_sockets=4) as client:
        table, other, third = _table(client), _table(client), _table(client)
        with client.websocket_connect(f"/api/tables/{table}/socket") as one:
            assert Socket(one).json()["type"] == "public"
            with client.websocket_connect(f"/api/tables/{table}/socket") as two:
                assert Socket(two).json()["type"] == "public"
                with client.websocket_connect(f"/api/tables/{table}/socket") as ws:
                    closed = Socket(ws).raw()
                    assert closed["type"] == "websocket.close" and closed["code"] == 1013
                    assert "on one table" in closed["reason"]
                with client.websocket_connect(f"/api/tables/{other}/socket") as ws:
                    assert Socket(ws).json()["type"] == "public"
                    with client.websocket_connect(f"/api/tables/{third}/socket") as more:
                        closed = Socket(more).raw()
                        assert closed["code"] == 1013 and "sockets are open" in closed["reason"]
            # the second socket closed: the table takes one again (once the
            # server has seen it close)
            deadline = time.monotonic() + WAIT
            while True:
                with client.websocket_connect(f"/api/tables/{table}/socket") as ws:
                    got = Socket(ws).raw()
                if got["type"] == "websocket.send" or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            assert json.loads(got["text"])["type"] == "public"


# -- the record --------------------------------------------------------------------------


def _play_out(client: TestClient, table: str, seat: int, token: str) -> dict[str, Any]:
    """Play ``seat`` (first legal move) against the bots until the game ends."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        public = _public(client, table)
        if public["public"]["phase"] == "game-over":
            return public
        if public["public"]["to_act"] == seat:
            legal = _view(client, table, seat, token)["view"]["legal_moves"]
            calls = [m for m in legal if m != "pass"] or legal
            answer = _move(client, table, seat, token, calls[0], version=public["version"])
            assert answer.status_code in (200, 409), answer.text
        else:
            time.sleep(0.002)
    raise AssertionError("the game did not end in time")


def test_the_record_is_given_once_the_game_is_over(client: TestClient, store: SqliteStore) -> None:
    table = _table(client, ["human", "random", "random", "random"], SHORT)
    token = _join(client, table, 0)
    _refused(client.get(f"/api/tables/{table}/record"), 409, "not-over", "over")
    final = _play_out(client, table, 0, token)
    answer = client.get(f"/api/tables/{table}/record")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    record = ba.from_json(answer.text, ba.GameRecord)
    assert record.players == ("human", "random", "random", "random")
    states = list(ba.replay(record))
    assert len(states) == final["version"] + 1
    assert states[-1].is_over
    assert list(states[-1].scores) == final["public"]["scores"]
    assert states[-1] == _state(store, table)
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["over"] is True and summary["phase"] == "game-over"
    # a finished game takes no more moves
    body = _refused(_move(client, table, 0, token, "pass"), 422, "illegal-move")
    assert body["reason"] == "GAME_OVER"


# -- sockets ---------------------------------------------------------------------------------


def test_a_seat_socket_sends_the_view_after_every_move(
    client: TestClient, store: SqliteStore
) -> None:
    table = _table(client, ["human", "random", "human", "random"], SHORT)
    token = _join(client, table, 0)
    partner = _join(client, table, 2)
    with client.websocket_connect(f"/api/tables/{table}/seats/0/socket") as ws:
        socket = Socket(ws)
        ws.send_text(json.dumps({"token": token}))
        first = socket.json()
        assert first["type"] == "view" and first["seat"] == 0 and first["table"] == table
        assert set(first["view"]) >= {"hand", "legal_moves", "cards", "phase", "to_act"}
        versions = [first["version"]]
        pushes: list[dict[str, Any]] = []
        tokens = {0: token, 2: partner}
        for _ in range(6):  # moves of both people (and the bots between them)
            public = _wait(
                lambda: (p := _public(client, table))["public"]["to_act"] in tokens and p,
                "a person to act",
            )
            seat = public["public"]["to_act"]
            legal = _view(client, table, seat, tokens[seat])["view"]["legal_moves"]
            answer = _move(client, table, seat, tokens[seat], legal[0])
            assert answer.status_code == 200
            version = answer.json()["version"]
            got = socket.until(lambda m, v=version: m["version"] >= v)
            assert all(m["type"] == "view" and m["seat"] == 0 for m in got)
            versions += [m["version"] for m in got]
            pushes += got
            if answer.json()["view"]["phase"] == "game-over":
                break
        assert versions == sorted(versions)
        assert len(set(versions)) >= 6
        pushed = [first, *pushes]
    # each push is the seat's view at the version it names
    for message in pushed:
        assert message["view"] == _view_doc(_state(store, table, message["version"]), 0)


def test_a_socket_opened_while_the_bots_move_misses_no_move(store: SqliteStore) -> None:
    """The bots' moves between a socket's first document and its joining the
    pushes are sent to it too: it ends at the version the table is at."""
    with _client(store, bot_delay=0.05) as client:
        for _ in range(40):  # a table where a bot speaks first, seat 0 later
            table = _table(client, ["human", "random", "random", "random"], SHORT)
            if _public(client, table)["public"]["to_act"] != 0:
                break
        else:
            raise AssertionError("seat 0 always spoke first")
        token = _join(client, table, 0)
        service = client.app.state.service  # type: ignore[attr-defined]
        real = service.view_of
        slowed: list[int] = []

        def first_one_late(table_id: str, seat: int) -> Any:
            found = real(table_id, seat)
            if not slowed:  # the socket's first document: answered once the bots are done
                slowed.append(found["version"])
                _wait(lambda: not service.bot_to_act(table_id), "the bots to finish", 10)
            return found

        service.view_of = first_one_late
        with (
            client.websocket_connect(f"/api/tables/{table}/socket") as watching,
            client.websocket_connect(f"/api/tables/{table}/seats/0/socket") as ws,
        ):
            assert Socket(watching).json()["type"] == "public"  # another socket of the table
            socket = Socket(ws)
            ws.send_text(json.dumps({"token": token}))
            first = socket.json()
            assert first["version"] == slowed[0]
            latest = _public(client, table)["version"]
            assert latest > first["version"]  # the bots moved meanwhile
            got = socket.until(lambda m: m["version"] == latest, timeout=5)
            assert got[-1]["view"]["to_act"] in (0, None)


def test_a_seat_socket_refuses_a_wrong_token(client: TestClient) -> None:
    table = _table(client, ["human", "random", "human", "random"])
    token = _join(client, table, 0)
    partner = _join(client, table, 2)
    for first, code, close in [
        (json.dumps({"token": "0" * 32}), "bad-token", 4401),
        (json.dumps({"token": partner}), "bad-token", 4401),  # seat 2's token for seat 0
        (json.dumps({"token": 5}), "bad-token", 4401),
        (json.dumps(["token", token]), "bad-token", 4401),
        ("not json", "bad-token", 4401),
        (json.dumps({"token": token, "pad": "x" * 5000}), "too-large", 4413),
    ]:
        with client.websocket_connect(f"/api/tables/{table}/seats/0/socket") as ws:
            socket = Socket(ws)
            ws.send_text(first)
            message = socket.json()
            assert message["type"] == "error" and message["error"] == code, message
            assert message["message"]
            closed = socket.raw()
            assert closed["type"] == "websocket.close" and closed["code"] == close
    for path, code in [
        (f"/api/tables/{table}/seats/1/socket", "bad-token"),  # a bot's seat
        (f"/api/tables/{table}/seats/7/socket", "no-seat"),
        ("/api/tables/nope/seats/0/socket", "not-found"),
    ]:
        with client.websocket_connect(path) as ws:
            socket = Socket(ws)
            ws.send_text(json.dumps({"token": token}))
            message = socket.json()
            assert message["type"] == "error" and message["error"] == code, message
            assert socket.raw()["type"] == "websocket.close"


def test_a_socket_closes_on_an_oversized_message(client: TestClient) -> None:
    table = _table(client)
    token = _join(client, table, 0)
    with client.websocket_connect(f"/api/tables/{table}/seats/0/socket") as ws:
        socket = Socket(ws)
        ws.send_text(json.dumps({"token": token}))
        assert socket.json()["type"] == "view"
        ws.send_text("small talk is read and ignored")
        ws.send_text("x" * 4097)
        closed = socket.raw()
        assert closed["type"] == "websocket.close" and closed["code"] == 1009
    with client.websocket_connect(f"/api/tables/{table}/socket") as ws:
        socket = Socket(ws)
        assert socket.json()["type"] == "public"
        ws.send_text("x" * 4097)
        closed = socket.raw()
        assert closed["type"] == "websocket.close" and closed["code"] == 1009


def test_a_seats_view_carries_the_facts_and_call_answers_and_facts_name_them(
    client: TestClient, store: SqliteStore
) -> None:
    """The view a seat is sent is the library's view document (each seat's
    call, the contracts and tricks, an answer for every call the bidding
    knows); the ``facts`` beside it hold only names and the status line."""
    table = _table(client, HUMANS, "hook")
    tokens = {s: _join(client, table, s) for s in range(4)}
    for text in ("bid 3", "bid 4", "bid 2"):
        seat = _public(client, table)["public"]["to_act"]
        assert _move(client, table, seat, tokens[seat], text).status_code == 200
    seat = _public(client, table)["public"]["to_act"]
    sent = _view(client, table, seat, tokens[seat])
    state = _state(store, table)
    view = sent["view"]
    assert view == _view_doc(state, seat)
    assert view["bids"] == [None if b is None else str(b) for b in state.bids]
    assert view["bids"][seat] is None and view["contracts"] is None
    hooked = f"bid {state.hand_size - 9}"
    (answer,) = [a for a in view["call_answers"] if a["call"] == hooked]
    assert (answer["legal"], answer["reason"]) == (False, "BID_MAKES_TOTAL")
    assert [a["call"] for a in view["call_answers"] if a["legal"]] == view["legal_moves"]
    names = ["North", "East", "South", "West"]
    assert sent["facts"] == {
        "title": "hook",
        "status": f"Bidding: {names[seat]} to call",
        "deal": 1,
        "seat_names": names,
        "side_names": ["N\u2013S", "E\u2013W"],
    }
    public = _public(client, table)
    assert "call_answers" not in public["public"] and public["public"]["bids"] == view["bids"]
    assert public["facts"] == sent["facts"]


def test_the_spectator_socket_sends_the_public_facts(client: TestClient) -> None:
    table = _table(client, ["human", "random", "random", "random"], SHORT)
    token = _join(client, table, 0)
    with client.websocket_connect(f"/api/tables/{table}/socket") as ws:
        socket = Socket(ws)
        first = socket.json()
        assert first["type"] == "public" and first["table"] == table
        assert first["seats"] == ["human", "random", "random", "random"]
        final = _play_out(client, table, 0, token)
        got = [first, *socket.until(lambda m: m["version"] == final["version"])]
    versions = [m["version"] for m in got]
    assert versions == sorted(versions) and len(set(versions)) > 5
    for message in got:
        assert message["type"] == "public"
        private = {"seat", "hand", "discards", "legal_moves", "cards", "call_answers", "format"}
        assert not private & set(message["public"])
        assert {"phase", "calls", "bids", "tricks", "trick", "scores", "hand_counts"} <= set(
            message["public"]
        )
        assert set(message["facts"]) == {"title", "status", "deal", "seat_names", "side_names"}
    assert got[-1]["public"] == final["public"]
    with client.websocket_connect("/api/tables/nope/socket") as ws:
        socket = Socket(ws)
        message = socket.json()
        assert (message["type"], message["error"]) == ("error", "not-found")
        assert socket.raw()["code"] == 4404


# -- the document, the page, the headers ------------------------------------------------------


def test_the_openapi_document_describes_every_route(client: TestClient) -> None:
    answer = client.get("/openapi.json")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/json")
    document = answer.json()
    assert document["openapi"].startswith("3.1")
    assert {"openapi", "info", "paths", "components"} <= set(document)
    assert {"title", "version"} <= set(document["info"])
    routes = {
        (method.lower(), route.path)
        for route in client.app.routes  # type: ignore[attr-defined]
        for method in (getattr(route, "methods", None) or ())
        if route.path.startswith("/api/") and method != "HEAD"
    }
    described = {(method, path) for path, item in document["paths"].items() for method in item}
    assert routes == described
    for item in document["paths"].values():
        for operation in item.values():
            assert operation["responses"] and operation["summary"]
    refs = set(re.findall(r'"#/components/schemas/([^"]+)"', answer.text))
    assert refs <= set(document["components"]["schemas"])


def test_the_page_is_served_with_a_content_security_policy(client: TestClient) -> None:
    answer = client.get("/")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    policy = answer.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.text == (STATIC / "index.html").read_text(encoding="utf-8")
    for name in sorted(p.name for p in STATIC.iterdir() if p.is_file()):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../tables.db").status_code == 404


def test_no_answer_carries_a_cors_header(client: TestClient) -> None:
    table = _table(client)
    token = _join(client, table, 0)
    origin = {"Origin": "https://elsewhere.example"}
    answers = [
        client.get("/", headers=origin),
        client.get("/openapi.json", headers=origin),
        client.get("/api/variants", headers=origin),
        client.get("/api/tables", headers=origin),
        client.post("/api/tables", json={"seats": HUMANS}, headers=origin),
        client.post("/api/tables", json={"seats": 3}, headers=origin),
        client.get(f"/api/tables/{table}/seats/0/view", headers={**origin, **_auth(token)}),
        client.get(f"/api/tables/{table}/seats/0/view", headers=origin),
        client.post(f"/api/tables/{table}/seats/0/moves", json={"move": "x"}, headers=origin),
        client.options(
            "/api/tables",
            headers={
                **origin,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type",
            },
        ),
        client.options(f"/api/tables/{table}/seats/0/moves", headers=origin),
    ]
    for answer in answers:
        assert not any(name.lower().startswith("access-control-") for name in answer.headers), (
            answer.request.url,
            answer.headers,
        )
    assert answers[-2].status_code == 405  # no preflight is ever answered
    assert set(answers[-2].headers["allow"].split(", ")) == {"GET", "HEAD", "POST"}


# -- races and restarts ------------------------------------------------------------------------


def _race(posts: list[Callable[[], Any]]) -> list[Any]:
    """Run ``posts`` at once, each on its own thread; answer their results."""
    start = threading.Barrier(len(posts))
    results: list[Any] = [None] * len(posts)

    def run(index: int) -> None:
        start.wait(timeout=WAIT)
        results[index] = posts[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=WAIT)
        assert not thread.is_alive(), "a racing move never finished"
    return results


def test_of_two_racing_moves_exactly_one_is_applied(client: TestClient, store: SqliteStore) -> None:
    table = _table(client)
    tokens = {seat: _join(client, table, seat) for seat in range(4)}
    for round_ in range(6):
        public = _public(client, table)
        seat, version = public["public"]["to_act"], public["version"]
        legal = _view(client, table, seat, tokens[seat])["view"]["legal_moves"]
        one, other = legal[0], legal[-1]
        with_version = round_ % 2 == 0
        extra = {"version": version} if with_version else {}
        token = tokens[seat]

        def post(move: str, seat: int = seat, token: str = token, extra: Any = extra) -> Any:
            return _move(client, table, seat, token, move, **extra)

        answers = _race([functools.partial(post, one), functools.partial(post, other)])
        statuses = sorted(a.status_code for a in answers)
        assert statuses[0] == 200 and statuses[1] != 200, [a.text for a in answers]
        loser = next(a for a in answers if a.status_code != 200).json()
        if with_version:
            assert (statuses[1], loser["error"]) == (409, "stale-version")
        else:  # the seat's second move comes when it is no longer its turn
            assert (statuses[1], loser["error"]) == (422, "illegal-move")
            assert loser["reason"] in ("NOT_YOUR_TURN", "ALREADY_BID", "WRONG_PHASE"), loser
        assert store.version(table) == version + 1


def test_two_processes_racing_for_one_table_store_one_move(tmp_path: Path) -> None:
    """Two applications over one database file, as two server processes."""
    path = tmp_path / "shared.db"
    first, second = SqliteStore(path), SqliteStore(path)
    try:
        with _client(first) as one, _client(second) as two:
            table = _table(one)
            tokens = {seat: _join(one, table, seat) for seat in range(4)}
            for _ in range(6):
                public = _public(one, table)
                seat, version = public["public"]["to_act"], public["version"]
                assert _public(two, table)["version"] == version
                legal = _view(two, table, seat, tokens[seat])["view"]["legal_moves"]
                token = tokens[seat]

                def post(
                    client: TestClient,
                    move: str,
                    seat: int = seat,
                    token: str = token,
                    version: int = version,
                ) -> Any:
                    return _move(client, table, seat, token, move, version=version)

                answers = _race(
                    [
                        functools.partial(post, one, legal[0]),
                        functools.partial(post, two, legal[-1]),
                    ]
                )
                good = [a for a in answers if a.status_code == 200]
                bad = [a for a in answers if a.status_code != 200]
                assert len(good) == 1 and len(bad) == 1, [a.text for a in answers]
                assert bad[0].status_code == 409
                assert bad[0].json()["error"] in ("stale-version", "conflict")
                assert first.version(table) == version + 1
            assert _state(first, table) == _state(second, table)
    finally:
        first.close()
        second.close()


def test_a_restarted_server_resumes_its_tables_and_bots_go_on(tmp_path: Path) -> None:
    path = tmp_path / "tables.db"
    store = SqliteStore(path)
    # the first server's bots wait a minute before each move: none moves before it stops
    with _client(store, bot_delay=60) as client:
        waiting = _table(client, ["human", "random", "random", "random"], SHORT)
        people = _table(client)
        token = _join(client, waiting, 0)
        tokens = {seat: _join(client, people, seat) for seat in range(4)}
        seat = _public(client, people)["public"]["to_act"]
        assert _move(client, people, seat, tokens[seat], "bid 1").status_code == 200
        # seat 0 moves whenever it is its turn, until a bot is to act
        for _ in range(4):
            public = _public(client, waiting)["public"]
            if public["to_act"] != 0:
                break
            legal = _view(client, waiting, 0, token)["view"]["legal_moves"]
            assert _move(client, waiting, 0, token, legal[-1]).status_code == 200
        before = _public(client, waiting)
        assert before["public"]["to_act"] != 0
        view = _view(client, people, seat, tokens[seat])
    store.close()
    store = SqliteStore(path)
    try:
        with _client(store) as client:
            assert _view(client, people, seat, tokens[seat]) == view  # at its version
            listed = [t["table"] for t in client.get("/api/tables").json()["tables"]]
            assert listed == [people, waiting]  # newest first
            # the bots go on by themselves, until seat 0 is to act (or the game ends)
            after = _wait(
                lambda: (
                    (p := _public(client, waiting))["version"] > before["version"]
                    and (p["public"]["to_act"] == 0 or p["public"]["phase"] == "game-over")
                    and p
                ),
                "the bots to move after the restart",
            )
            moves = store.moves(waiting)
            assert len(moves) == after["version"]
            assert {m.seat for m in moves[before["version"] :]} <= {1, 2, 3}
            # the seat token still acts, and the game plays on to its end
            final = _play_out(client, waiting, 0, token)
            assert final["public"]["phase"] == "game-over"
    finally:
        store.close()


def test_settings_are_checked() -> None:
    with pytest.raises(ba.SetupError, match="move_burst"):
        ServerSettings(move_burst=0)
    with pytest.raises(ba.SetupError, match="max_table_sockets"):
        ServerSettings(max_table_sockets=0)
    store = SqliteStore(":memory:")
    try:
        with pytest.raises(ba.SetupError, match="unknown server setting"):
            create_app(store, colour="red")
    finally:
        store.close()
