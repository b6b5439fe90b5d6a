"""The end of a deal at the table server: held for the people at the table.

The library scores a deal and deals the next one within the move that plays
the last card; the server keeps that deal's last trick and which sides made
their contracts (``deal_end`` beside every view and spectator's document),
and its bots make no move until every seat a person had joined has
continued (``POST .../continue``, or a move of its own) or ``deal_pause``
seconds have passed.  Also here: what the lobby reads (the variants'
descriptions and seats' names, the tables' seat names and progress) and
``GET /api/health``, which tells the page whether WebSockets can be opened.
"""

from __future__ import annotations

import itertools
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():  # starlette's note about httpx2
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

import backalley as ba
from backalley.rules.seats import seat_names
from backalley.server import SqliteStore, create_app

SHORT = {
    "format": "backalley/rules",
    "name": "short",
    "base": "gamerules",
    "schedule": {"hand_sizes": [2, 1]},
}
"""Two deals: 2 cards, then 1."""
PEOPLE = (0, 2)
"""The seats played by the test; the others are bots."""
SEATS = ["human", "heuristic", "human", "heuristic"]
WAIT = 20.0


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    found = SqliteStore(tmp_path / "tables.db")
    yield found
    found.close()


def _client(store: SqliteStore, pause: float) -> TestClient:
    return TestClient(
        create_app(
            store,
            bot_delay=0,
            deal_pause=pause,
            create_burst=1000,
            allowed_hosts="testserver",
        )
    )


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _wait(check: Callable[[], Any], what: str, seconds: float = WAIT) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.005)
    raise AssertionError(f"gave up waiting for {what} after {seconds} s")


def _public(client: TestClient, table: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}/public")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _view(client: TestClient, table: str, seat: int, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table}/seats/{seat}/view", headers=_auth(token))
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _sit(client: TestClient) -> tuple[str, dict[int, str]]:
    made = client.post("/api/tables", json={"rules": SHORT, "seats": SEATS})
    assert made.status_code == 201, made.text
    table = str(made.json()["table"])
    tokens = {}
    for seat in PEOPLE:
        joined = client.post(f"/api/tables/{table}/seats/{seat}/join")
        assert joined.status_code == 201, joined.text
        tokens[seat] = str(joined.json()["token"])
    return table, tokens


def _move(client: TestClient, table: str, seat: int, token: str) -> None:
    legal = _view(client, table, seat, token)["view"]["legal_moves"]
    move = "bid 1" if "bid 1" in legal else legal[0]  # a bid, so the deal is played
    answer = client.post(
        f"/api/tables/{table}/seats/{seat}/moves", json={"move": move}, headers=_auth(token)
    )
    assert answer.status_code == 200, answer.text


def _to_deal_end(client: TestClient, table: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Play the people's moves until the first deal is scored: the public
    document then (the bots may be held, or not)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        public = _public(client, table)
        if public["public"]["deals_played"]:
            return public
        seat = public["public"]["to_act"]
        if seat in tokens:
            _move(client, table, seat, tokens[seat])
        else:
            time.sleep(0.005)
    raise AssertionError("the first deal did not end")


def _continue(client: TestClient, table: str, seat: int, token: str, **body: Any) -> Any:
    return client.post(
        f"/api/tables/{table}/seats/{seat}/continue", json=body, headers=_auth(token)
    )


def _state(store: SqliteStore, table: str) -> tuple[ba.GameState, list[ba.GameState]]:
    """The table's game replayed from the store, and every state on the way."""
    row = store.table(table)
    assert row is not None
    state = ba.new_game(ba.from_json(row.rules, ba.RuleSet), seed=row.seed, dealer=row.first_dealer)
    states = [state]
    for stored in store.moves(table):
        state = state.apply(ba.parse_move(stored.move))
        states.append(state)
    return state, states


def _first_scored(states: list[ba.GameState]) -> tuple[ba.GameState, ba.GameState]:
    """The states before and after the move that scored the first deal."""
    for before, after in itertools.pairwise(states):
        if after.deal_results and not before.deal_results:
            return before, after
    raise AssertionError("no deal was scored")


# -- the end of a deal ----------------------------------------------------------------


def test_the_deal_end_keeps_the_last_trick_and_who_made_their_contract(
    store: SqliteStore,
) -> None:
    with _client(store, 0) as client:
        table, tokens = _sit(client)
        assert _public(client, table)["deal_end"] is None
        _to_deal_end(client, table, tokens)
        _, states = _state(store, table)
        before, after = _first_scored(states)
        public = _public(client, table)
        end = public["deal_end"]
        result = after.deal_results[0]
        assert end["deal"] == result.number == 1
        # the last trick: the cards of the trick before the last card, and that card
        moves = [ba.parse_move(m.move) for m in store.moves(table)]
        last = moves[states.index(before)]
        assert isinstance(last, ba.Play)
        trick = end["last_trick"]
        assert trick["cards"] == [str(c) for _, c in before.trick] + [str(last.card)]
        assert trick["leader"] == (before.trick[0][0] if before.trick else before.to_act)
        # the winner's side is the side whose tricks grew by the last trick
        grew = [t - b for t, b in zip(result.tricks, before.side_tricks)]
        assert grew.count(1) == 1 and sum(grew) == 1
        assert before.rules.seat_teams[trick["winner"]] == grew.index(1)
        # made: at least the tricks contracted for
        assert end["made"] == [
            None if c is None else taken >= c.tricks
            for c, taken in zip(result.contracts, result.tricks)
        ]
        # beside every seat's view too, the same
        for seat, token in tokens.items():
            assert _view(client, table, seat, token)["deal_end"] == end


def test_the_bots_wait_at_the_end_of_a_deal_until_the_people_continue(
    store: SqliteStore,
) -> None:
    with _client(store, 600) as client:
        table, tokens = _sit(client)
        public = _to_deal_end(client, table, tokens)
        end = public["deal_end"]
        assert end["waiting"] == [0, 2] and end["holding"] is True
        assert 0 < end["seconds_left"] <= 600
        # a person to act first moves (that is their continue); a bot does not
        for _ in range(2):
            seat = _public(client, table)["public"]["to_act"]
            if seat in tokens:
                _move(client, table, seat, tokens[seat])
        public = _public(client, table)
        bot = public["public"]["to_act"]
        assert bot not in tokens, "the people moved; a bot is to act"
        waiting = public["deal_end"]["waiting"]
        assert waiting and public["deal_end"]["holding"]
        version = public["version"]
        time.sleep(0.3)
        assert _public(client, table)["version"] == version, "a bot moved during the hold"
        # the others continue, one by one; the last one lets the bots go on
        for seat in waiting[:-1]:
            answer = _continue(client, table, seat, tokens[seat], deal=1)
            assert answer.status_code == 200, answer.text
            assert seat not in answer.json()["deal_end"]["waiting"]
        time.sleep(0.2)
        assert _public(client, table)["version"] == version
        seat = waiting[-1]
        answer = _continue(client, table, seat, tokens[seat])
        assert answer.status_code == 200, answer.text
        done = answer.json()["deal_end"]
        assert done["waiting"] == [] and done["holding"] is False
        assert done["seconds_left"] is None
        _wait(lambda: _public(client, table)["version"] > version, "the bots to go on")
        # continuing again changes nothing and is no error
        assert _continue(client, table, seat, tokens[seat], deal=1).status_code == 200


def test_the_bots_go_on_after_the_deal_pause_without_anyone_continuing(
    store: SqliteStore,
) -> None:
    with _client(store, 0.5) as client:
        table, tokens = _sit(client)
        public = _to_deal_end(client, table, tokens)
        ended = time.monotonic()
        assert public["deal_end"]["holding"] is True
        # the people play their own moves only (each one's move ends its own
        # wait, never the other's): a bot between them waits for the pause
        deadline = time.monotonic() + WAIT
        while public["public"]["phase"] != "game-over":
            assert time.monotonic() < deadline, "the bots did not go on after the pause"
            seat = public["public"]["to_act"]
            if seat in tokens:
                _move(client, table, seat, tokens[seat])
            else:
                time.sleep(0.005)
            public = _public(client, table)
        assert time.monotonic() - ended >= 0.45
        assert public["deal_end"]["holding"] is False


def test_continuing_is_refused_before_a_deal_ends_and_for_another_deal(
    store: SqliteStore,
) -> None:
    with _client(store, 600) as client:
        table, tokens = _sit(client)
        answer = _continue(client, table, 0, tokens[0])
        assert answer.status_code == 409 and answer.json()["error"] == "no-deal-end"
        assert _continue(client, table, 0, "0" * 32).status_code == 401
        assert _continue(client, table, 1, tokens[0]).status_code == 401
        _to_deal_end(client, table, tokens)
        answer = _continue(client, table, 0, tokens[0], deal=2)
        assert answer.status_code == 409 and answer.json()["error"] == "stale-deal"
        assert "deal 1" in answer.json()["message"]
        for bad in ("1", 0, True, 1.5):
            answer = _continue(client, table, 0, tokens[0], deal=bad)
            assert answer.status_code == 422 and answer.json()["error"] == "bad-deal", bad
        answer = _continue(client, table, 0, tokens[0], colour="red")
        assert answer.status_code == 422
        assert _public(client, table)["deal_end"]["waiting"] == [0, 2]


def test_a_restarted_server_keeps_the_last_trick(store: SqliteStore) -> None:
    with _client(store, 0) as client:
        table, tokens = _sit(client)
        _to_deal_end(client, table, tokens)
        end = _public(client, table)["deal_end"]
    with _client(store, 0) as client:
        again = _public(client, table)["deal_end"]
    assert again["deal"] == end["deal"] and again["last_trick"] == end["last_trick"]
    assert again["made"] == end["made"]


def test_a_seat_socket_is_told_of_a_continue(store: SqliteStore) -> None:
    with _client(store, 600) as client:
        table, tokens = _sit(client)
        _to_deal_end(client, table, tokens)
        with client.websocket_connect(f"/api/tables/{table}/seats/2/socket") as socket:
            socket.send_json({"token": tokens[2]})
            first = socket.receive_json()
            assert first["deal_end"]["waiting"] == [0, 2]
            assert _continue(client, table, 0, tokens[0]).status_code == 200
            pushed = socket.receive_json()
            assert pushed["type"] == "view" and 0 not in pushed["deal_end"]["waiting"]


# -- what the lobby reads ---------------------------------------------------------------


def test_the_variants_come_with_their_descriptions_and_seat_names(store: SqliteStore) -> None:
    with _client(store, 0) as client:
        found = client.get("/api/variants").json()
    assert found["variants"] == list(ba.variants.names())
    for name in found["variants"]:
        assert found["descriptions"][name] == ba.variants.description(name)
        assert found["seat_names"][name] == list(seat_names(ba.variants.get(name)))
    assert found["descriptions"]["gamerules"]
    assert found["seat_names"]["gamerules"] == ["North", "East", "South", "West"]
    assert found["seat_names"]["cutthroat-3"] == ["Seat 1", "Seat 2", "Seat 3"]


def test_a_table_summary_names_its_seats_its_progress_and_its_last_move(store: SqliteStore) -> None:
    with _client(store, 0) as client:
        table, tokens = _sit(client)
        summary = client.get(f"/api/tables/{table}").json()
        assert [s["name"] for s in summary["seats"]] == ["North", "East", "South", "West"]
        assert summary["deals_played"] == 0 and summary["deals"] == 2
        assert abs(summary["created"] - time.time()) < 60
        assert summary["last_move"] == summary["created"]  # no move yet
        assert summary["to_act"] in range(4)
        _to_deal_end(client, table, tokens)
        later = client.get(f"/api/tables/{table}").json()
        assert later["deals_played"] == 1
        assert summary["created"] < later["last_move"] <= time.time()
        assert later["to_act"] is not None


# -- WebSockets: whether the server can open them ------------------------------------------


def test_health_says_when_a_socket_request_came_as_plain_http(store: SqliteStore) -> None:
    with _client(store, 0) as client:
        table, _ = _sit(client)
        health = client.get("/api/health")
        assert health.status_code == 200
        found = health.json()
        assert found.pop("bot_decisions") >= 0  # the bots of the table sat at may have moved
        assert found == {
            "websockets": True,
            "message": None,
            "listening": False,  # SQLite: other processes' moves are polled for
        }
        # what an ASGI server without WebSocket support passes on: the
        # handshake as a plain request
        upgrade = {"Upgrade": "websocket", "Connection": "Upgrade"}
        answer = client.get(f"/api/tables/{table}/seats/0/socket", headers=upgrade)
        assert answer.status_code == 501 and answer.json()["error"] == "no-websockets"
        health = client.get("/api/health").json()
        assert health["websockets"] is False
        assert "WebSocket" in health["message"] and "backalley[server]" in health["message"]
        # an address that is nothing, asked without the upgrade: the usual answer
        assert client.get("/api/nothing").json()["error"] == "no-route"
