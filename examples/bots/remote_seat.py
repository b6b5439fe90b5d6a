"""A bot that plays a seat of a table on a backalley server, from anywhere:
it takes a seat like a person (its token), listens on the seat's WebSocket
for its view, and sends its moves over HTTP.  Any program in any language can
do the same; this one needs Python and the ``websockets`` package.

    python examples/bots/remote_seat.py http://127.0.0.1:8000
    python examples/bots/remote_seat.py http://127.0.0.1:8000 TABLE SEAT

With a table and a seat it joins that seat; without, it makes a short table of
its own (itself on seat 0, the server's heuristic on the others).  Its play:
the first legal move of its view (a pass or the smallest bid, then the lowest
legal card) - put your bot's choice in ``choose``.  It ends with the game.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from typing import Any

from websockets.sync.client import connect

SHORT = {"format": "backalley/rules", "base": "gamerules", "name": "short",
         "schedule": {"hand_sizes": [3, 2, 1]}}  # fmt: skip


def call(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    """A request to the server's API, its JSON answer."""
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def choose(view: dict[str, Any]) -> str:
    """The move to make: the first of the view's legal moves."""
    return str(view["legal_moves"][0])


def play(server: str, table: str, seat: int) -> None:
    seat_url = f"{server}/api/tables/{table}/seats/{seat}"
    token = call(f"{seat_url}/join", {})["token"]
    socket_url = seat_url.replace("http", "ws", 1) + "/socket"
    with connect(socket_url) as socket:
        socket.send(json.dumps({"token": token}))
        continued = 0
        for text in socket:
            message = json.loads(text)
            if message["type"] == "error":
                raise SystemExit(f"the server refused the socket: {message['message']}")
            view = message["view"]
            if message["deal_end"] and message["deal_end"]["deal"] > continued:
                continued = message["deal_end"]["deal"]  # seen: the bots need not wait for us
                call(f"{seat_url}/continue", {"deal": continued}, token)
            if view["phase"] == "game-over":
                print(f"game over: scores {view['scores']}, winner {view['winner']}")
                return
            if view["to_act"] == seat:
                move = {"move": choose(view), "version": message["version"]}
                try:
                    call(f"{seat_url}/moves", move, token)
                except urllib.error.HTTPError as refused:  # stale-version: a newer view comes
                    if json.load(refused).get("error") != "stale-version":
                        raise


def main(argv: list[str]) -> None:
    server = argv[0].rstrip("/")
    if len(argv) >= 3:
        table, seat = argv[1], int(argv[2])
    else:
        seats = ["human", "heuristic", "heuristic", "heuristic"]
        table, seat = call(f"{server}/api/tables", {"rules": SHORT, "seats": seats})["table"], 0
    play(server, table, seat)


if __name__ == "__main__":
    main(sys.argv[1:])
