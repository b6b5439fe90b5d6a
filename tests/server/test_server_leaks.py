"""No hidden card, stock card or seed reaches anyone who may not know it.

Whole games are played on the table server: several seats by the test (each
through its own token and socket), the others by bots, and a spectator who
polls the public endpoint and watches the spectator socket.  Every byte each
of them receives - every HTTP answer (status, headers and body) and every
WebSocket message - is kept with the table's version when it was sent: the
version the document names, or, for an answer that names none (a refusal, a
join), the versions before and after the request.

Afterwards the game is replayed from the store with the library, and each
message is searched for every card its receiver may not know at that
version - the other seats' unplayed cards and the stock's unshown cards - as
a whole token (``QS``, and its ``play QS`` and ``Q♠`` forms), and for the
seed's digits.  A card turned up in an earlier deal is public in that deal's
result (``deal_results[].turn_up``), and a card played in the last trick of
the last deal in ``deal_end.last_trick``: such a card may be named as often
as the document's results and deal end name it, and no more.  Each seat's documents are
also checked against the library's state at the version they name (the
seat, its hand, the hands' sizes, the calls, the phase, the seat to act,
and, in short games, the whole view), and the spectator's against the
public part of a view, so the versions the search relies on are the right
ones.
"""

from __future__ import annotations

import contextlib
import json
import queue
import random
import re
import time
import warnings
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette's note about httpx2
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

import backalley as ba
from backalley import lowlevel
from backalley.render.diagram import card_text
from backalley.server import SqliteStore, create_app

from ..server_services import SocketReader

SPECTATOR = -1
"""The receiver of what anyone may read (the public endpoint and socket)."""
PUBLIC_DROPPED = (
    "seat",
    "hand",
    "discards",
    "legal_moves",
    "cards",
    "call_answers",
    "format",
    "version",
)
"""The keys of a view document a spectator is not sent."""
WAIT = 60.0
"""The longest one game may take, in seconds."""

GAMES: list[tuple[str, object, list[str]]] = [
    (
        "gamerules-3-2-1",
        {
            "format": "backalley/rules",
            "name": "three-two-one",
            "base": "gamerules",
            "schedule": {"hand_sizes": [3, 2, 1]},
        },
        ["human", "human", "heuristic", "random"],
    ),
    (
        "vietnam-3-2",
        {
            "format": "backalley/rules",
            "name": "vietnam-short",
            "base": "vietnam",
            "schedule": {"hand_sizes": [3, 2]},
        },
        ["human", "random", "human", "human"],
    ),
    ("gamerules", "gamerules", ["random", "human", "random", "random"]),
]


@attrs.define
class Sent:
    """One message as its receiver got it."""

    receiver: int
    """A seat, or :data:`SPECTATOR`."""
    what: str
    """Where it came from (for a failure's message)."""
    text: str
    """Every byte, decoded: an answer's status line, headers and body, or a socket message."""
    versions: tuple[int, int]
    """The first and last version it may have been sent at."""
    document: Any = None
    """The parsed JSON body, when it is one."""
    status: int = 0
    """An answer's HTTP status."""


class Socket(SocketReader):
    """A test WebSocket read on a daemon thread, so that every wait is bounded."""

    def __init__(self, ws: Any, receiver: int, what: str) -> None:
        self.receiver, self.what = receiver, what
        self.got: list[Sent] = []
        super().__init__(ws)

    def wait(self, timeout: float) -> dict[str, Any] | None:
        """The next message as a document (kept), or ``None`` after ``timeout``."""
        try:
            message = self.messages.get(timeout=timeout)
        except queue.Empty:
            return None
        assert message["type"] == "websocket.send", (self.what, message)
        text = message.get("text") or message.get("bytes", b"").decode("utf-8")
        document = json.loads(text)
        version = document["version"]
        self.got.append(Sent(self.receiver, self.what, text, (version, version), document))
        return dict(document)

    def take(self) -> list[dict[str, Any]]:
        """The messages that have come (kept), as documents, without waiting."""
        out = []
        while not self.messages.empty():
            found = self.wait(0)
            if found is not None:
                out.append(found)
        return out

    def drain_until(self, version: int, timeout: float) -> None:
        """Keep every message until one of ``version`` (or later) has come."""
        deadline = time.monotonic() + timeout
        while not self.got or self.got[-1].versions[0] < version:
            if self.wait(max(0.01, deadline - time.monotonic())) is None:
                raise AssertionError(f"{self.what}: no message of version {version}")


class Table:
    """One table and everything its seats and its spectator were sent."""

    def __init__(self, client: TestClient, store: SqliteStore) -> None:
        self.client, self.store = client, store
        self.table = ""
        self.sent: list[Sent] = []
        self.tokens: dict[int, str] = {}

    def version(self) -> int:
        return self.store.version(self.table) if self.table else 0

    def request(self, receiver: int, method: str, path: str, **kwargs: Any) -> Sent:
        before = self.version()
        answer = self.client.request(method, path, **kwargs)
        after = self.version()
        head = f"{answer.status_code}\n" + "".join(f"{k}: {v}\n" for k, v in answer.headers.items())
        body = answer.content.decode("utf-8")
        try:
            document = json.loads(body)
        except ValueError:
            document = None
        versions = (before, after)
        if isinstance(document, dict) and type(document.get("version")) is int:
            versions = (document["version"], document["version"])
        sent = Sent(
            receiver, f"{method} {path}", head + body, versions, document, answer.status_code
        )
        self.sent.append(sent)
        return sent

    def seat(self, seat: int, method: str, suffix: str, **kwargs: Any) -> Sent:
        headers = {"Authorization": f"Bearer {self.tokens[seat]}"}
        path = f"/api/tables/{self.table}/seats/{seat}/{suffix}"
        return self.request(seat, method, path, headers=headers, **kwargs)


# -- what each receiver may not know -----------------------------------------------------------


class Replayed:
    """The table's game at every version, replayed from the store by the library."""

    def __init__(self, store: SqliteStore, table: str) -> None:
        row = store.table(table)
        assert row is not None
        self.seed = row.seed
        state = ba.new_game(
            ba.from_json(row.rules, ba.RuleSet), seed=row.seed, dealer=row.first_dealer
        )
        self.states = [state]
        for stored in store.moves(table):
            state = state.apply(ba.parse_move(stored.move))
            self.states.append(state)
        moves = [ba.parse_move(stored.move) for stored in store.moves(table)]
        self.earlier_turn_ups: list[frozenset[str]] = []
        seen: dict[int, str] = {}  # deal -> its turn-up
        played: dict[int, set[str]] = {}  # deal -> the cards played in it
        for version, state in enumerate(self.states):
            deal = len(state.deal_results) + lowlevel.thrown_in(state)
            if state.turn_up is not None and not state.is_over:
                seen.setdefault(deal, str(state.turn_up))
            move = moves[version] if version < len(moves) else None
            if isinstance(move, ba.Play):
                played.setdefault(deal, set()).add(str(move.card))
            earlier = {card for number, card in seen.items() if number < deal}
            for number, cards in played.items():
                if number < deal:
                    earlier |= cards
            self.earlier_turn_ups.append(frozenset(earlier))

    @cache  # noqa: B019 - one replay per test
    def hidden(self, version: int, receiver: int) -> frozenset[str]:
        """The cards ``receiver`` may not know at ``version``: every hand but
        its own (all of them for a spectator) and the stock."""
        state = self.states[version]
        cards = {str(c) for c in state.stock}
        for seat, hand in enumerate(state.hands):
            if seat != receiver:
                cards |= {str(c) for c in hand}
        return frozenset(cards)

    @cache  # noqa: B019 - one replay per test
    def view_doc(self, version: int, seat: int) -> Any:
        """The library's view document of ``seat`` at ``version``, parsed."""
        return json.loads(ba.to_json(self.states[version].view(seat)))

    def hidden_between(self, versions: tuple[int, int], receiver: int) -> frozenset[str]:
        first, last = versions
        found = self.hidden(first, receiver)
        for version in range(first + 1, last + 1):
            found &= self.hidden(version, receiver)
        return found

    def public_between(self, versions: tuple[int, int]) -> frozenset[str]:
        found: frozenset[str] = frozenset()
        for version in range(versions[0], versions[1] + 1):
            found |= self.earlier_turn_ups[version]
        return found


_SYMBOL = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
_CARD = re.compile(
    r"(?<![A-Za-z0-9])(?:([2-9TJQKA][CDHS]|BJ|LJ)|(10|[2-9JQKA])([♣♦♥♠]))(?![A-Za-z0-9])"
)
"""A card as a whole token (no letter or digit either side): ``QS`` (so also
``play QS``), ``BJ``, or with its suit's symbol, ``Q♠``, ``10♠``."""


def _cards_in(text: str) -> list[str]:
    """Every card named in ``text`` as a whole token, in its canonical form
    (as often as it is named)."""
    return [
        plain or ("T" if rank == "10" else rank) + _SYMBOL[symbol]
        for plain, rank, symbol in _CARD.findall(text)
    ]


def _past_turn_ups(document: Any) -> Counter[str]:
    """The cards of earlier deals a seat's or the public document shows: the
    turn-ups of the deals' results (``deal_results[].turn_up``) and the last
    deal's last trick (``deal_end.last_trick.cards``)."""
    found: Counter[str] = Counter()
    if not isinstance(document, dict):
        return found
    for key in ("view", "public"):
        results = document.get(key, {}).get("deal_results", [])
        found.update(r["turn_up"] for r in results if isinstance(r.get("turn_up"), str))
    end = document.get("deal_end")
    if isinstance(end, dict) and isinstance(end.get("last_trick"), dict):
        found.update(end["last_trick"]["cards"])
    return found


def _check(replayed: Replayed, sent: list[Sent]) -> int:
    """Search every message; answer how many were searched."""
    seed = str(replayed.seed)
    seed_forms = re.compile(rf"(?<![0-9A-Za-z])(?:{seed}|{replayed.seed:x})(?![0-9A-Za-z])")
    for message in sent:
        where = f"{message.what} to seat {message.receiver} at versions {message.versions}"
        assert not seed_forms.search(message.text), f"the seed in {where}"
        assert "\\u" not in message.text, f"an escaped text in {where}"  # all searched as written
        hidden = replayed.hidden_between(message.versions, message.receiver)
        named = Counter(_cards_in(message.text))
        shown = set(named) & hidden
        leaked = shown - replayed.public_between(message.versions)
        assert not leaked, f"{sorted(leaked)} in {where}: {message.text[:3000]}"
        document = message.document
        if shown:  # a card of an earlier deal's result: named there and nowhere else
            allowed = _past_turn_ups(document)
            more = sorted(card for card in shown if named[card] > allowed[card])
            assert not more, f"{more} in {where}: {message.text[:3000]}"
        if document is None:
            continue
        if isinstance(document, dict) and document.get("version") == message.versions[0]:
            _check_version(replayed, message, document, where)
    return len(sent)


def _check_version(replayed: Replayed, message: Sent, document: Any, where: str) -> None:
    """The version the search relied on is the one the document shows: its
    hand, the hands' sizes, the calls, phase, trump and seat to act are those
    of the library's state at that version (and, in short games and every
    25th version, the whole document is the library's view)."""
    version = message.versions[0]
    state = replayed.states[version]
    shown = document.get("view", document.get("public"))
    if not isinstance(shown, dict):
        return
    facts = {
        "hand_counts": [len(hand) for hand in state.hands],
        "calls": [str(call) for call in state.calls],
        "phase": state.phase.value,
        "to_act": state.to_act,
        "trump": None if state.trump is None else str(state.trump),
    }
    if "view" in document:
        assert document.get("seat") == message.receiver, where  # never another seat's view
        facts["hand"] = [str(card) for card in state.hand(message.receiver)]
    assert {key: shown.get(key) for key in facts} == facts, where
    if len(replayed.states) < 200 or version % 25 == 0:
        expected = replayed.view_doc(version, max(message.receiver, 0))
        if "public" in document:
            expected = {k: v for k, v in expected.items() if k not in PUBLIC_DROPPED}
        assert shown == expected, where


# -- playing ---------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    found = SqliteStore(tmp_path / "tables.db")
    yield found
    found.close()


def _choose(view: dict[str, Any], rng: random.Random) -> str:
    """A legal move: a call rather than a pass while bidding (so deals are
    not thrown in forever), else any legal move."""
    legal = view["legal_moves"]
    calls = [m for m in legal if m != "pass"]
    return rng.choice(calls or legal)


def _play(table: Table, humans: list[int], sockets: list[Socket], rng: random.Random) -> int:
    """Drive the people's seats until the game is over; answer the last version.

    Whose turn it is comes from the spectator socket's latest message (and
    from the public endpoint now and then, or when the socket is quiet)."""
    path = f"/api/tables/{table.table}"
    watching = sockets[0]
    deadline = time.monotonic() + WAIT
    turn = 0
    latest: dict[str, Any] | None = None
    while time.monotonic() < deadline:
        for socket in sockets:
            fresh = socket.take()
            if socket is watching and fresh:
                latest = max([latest or fresh[-1], *fresh], key=lambda m: m["version"])
        if latest is None or latest["public"]["to_act"] not in humans:
            if latest is not None and latest["public"]["phase"] == "game-over":
                return int(latest["version"])
            pushed = watching.wait(0.5)
            if pushed is None:  # quiet: ask the public endpoint
                pushed = table.request(SPECTATOR, "GET", f"{path}/public").document
            if latest is None or pushed["version"] >= latest["version"]:
                latest = pushed
            continue
        seat = latest["public"]["to_act"]
        turn += 1
        if turn % 4 == 0:
            latest = table.request(SPECTATOR, "GET", f"{path}/public").document
        view = table.seat(seat, "GET", "view").document
        if view["view"]["to_act"] != seat:
            latest = None
            continue
        # now and then: a refused card, a peek at another seat, the summary
        if turn % 7 == 0:
            refused = [c["card"] for c in view["view"]["cards"] if not c["playable"]]
            if refused:
                answer = table.seat(seat, "POST", "moves", json={"move": f"play {refused[0]}"})
                assert answer.status == 422
        if turn % 13 == 0:  # the record is refused while the game goes on
            record = table.request(SPECTATOR, "GET", f"{path}/record")
            assert record.status == 409 and record.document["error"] == "not-over"
        if turn % 5 == 0:
            table.seat(rng.choice(humans), "GET", "view")
            table.request(SPECTATOR, "GET", path)
            table.request(SPECTATOR, "GET", "/api/tables")
        move = _choose(view["view"], rng)
        body = {"move": move, "version": view["version"], "client_move_id": f"m{turn}"}
        answer = table.seat(seat, "POST", "moves", json=body)
        assert answer.status == 200, answer.text
        if turn % 11 == 0:  # the same move again: answered as repeated
            again = table.seat(seat, "POST", "moves", json=body)
            assert again.status == 200 and again.document["repeated"] is True
        latest = None
    raise AssertionError(f"the game did not end within {WAIT} s")


@pytest.mark.parametrize(
    ("rules", "seats"),
    [
        pytest.param(*g[1:], id=g[0], marks=[pytest.mark.slow] if g[0] == "gamerules" else [])
        for g in GAMES
    ],
)
def test_no_receiver_is_sent_a_card_it_may_not_know(
    store: SqliteStore, rules: object, seats: list[str]
) -> None:
    rng = random.Random(repr(rules))
    humans = [seat for seat, kind in enumerate(seats) if kind == "human"]
    app = create_app(
        store,
        bot_delay=0,
        deal_pause=0,
        move_rate=1e6,
        move_burst=1e6,
        allowed_hosts="testserver",
    )
    with TestClient(app) as client:
        table = Table(client, store)
        made = table.request(
            SPECTATOR, "POST", "/api/tables", json={"rules": rules, "seats": seats}
        )
        assert made.status == 201, made.text
        table.table = made.document["table"]
        path = f"/api/tables/{table.table}"
        for seat in humans:
            joined = table.request(seat, "POST", f"{path}/seats/{seat}/join")
            assert joined.status == 201
            table.tokens[seat] = joined.document["token"]
        record = table.request(SPECTATOR, "GET", f"{path}/record")
        assert record.status == 409 and record.document["error"] == "not-over"
        with contextlib.ExitStack() as open_sockets:
            watching = open_sockets.enter_context(client.websocket_connect(f"{path}/socket"))
            sockets = [Socket(watching, SPECTATOR, "the spectator socket")]
            for seat in humans:  # each person's seat its socket
                ws = open_sockets.enter_context(
                    client.websocket_connect(f"{path}/seats/{seat}/socket")
                )
                sockets.append(Socket(ws, seat, f"seat {seat}'s socket"))
                ws.send_text(json.dumps({"token": table.tokens[seat]}))
            final = _play(table, humans, sockets, rng)
            for socket in sockets:
                socket.drain_until(final, timeout=10)
        # the record is given now, and only now holds the seed
        record = client.get(f"{path}/record")
        assert record.status_code == 200
        assert ba.from_json(record.text, ba.GameRecord).seed == store.table(table.table).seed  # type: ignore[union-attr]
    replayed = Replayed(store, table.table)
    assert replayed.states[-1].is_over and len(replayed.states) == final + 1
    if "vietnam" in repr(rules):  # a declarer named trump (the naming is tested too)
        assert any(isinstance(move, ba.NameTrump) for move in replayed.states[-1].moves)
    everything = table.sent + [m for socket in sockets for m in socket.got]
    assert _check(replayed, everything) > final
    for socket in sockets:  # each socket saw the game move on, in order
        versions = [m.versions[0] for m in socket.got]
        assert versions == sorted(versions) and versions[-1] == final


def test_the_search_finds_a_leaked_card() -> None:
    """The search itself: another seat's card, in any of its forms, or the
    seed, is caught; the seat's own cards and an earlier deal's turn-up in
    that deal's result are not."""
    seed = 8_123_456_789_012_345_678
    state = ba.new_game("gamerules", seed=seed)
    replayed = Replayed.__new__(Replayed)
    replayed.seed, replayed.states = seed, [state]
    replayed.earlier_turn_ups = [frozenset()]
    other, own = str(state.hand(1)[0]), str(state.hand(0)[0])

    def check(receiver: int, text: str) -> None:
        document = json.loads(text) if text.startswith("{") else None
        _check(replayed, [Sent(receiver, "a test", text, (0, 0), document)])

    check(0, ba.to_json(state.view(0)))
    check(0, f'{{"x": "{own}", "y": "X{other}", "z": "{other}9"}}')
    for text in (
        f'{{"x": "{other}"}}',
        f'{{"x": "play {other}"}}',
        f"... {card_text(ba.parse_card(other))} ...",
        f"({other})",
    ):
        with pytest.raises(AssertionError, match=re.escape(other)):
            check(0, text)
    with pytest.raises(AssertionError, match="the seed"):
        check(0, f'{{"seed": {seed}}}')
    with pytest.raises(AssertionError, match=re.escape(own)):
        check(SPECTATOR, f'{{"x": "{own}"}}')
    # a card turned up in an earlier deal, now in seat 1's hand
    replayed.earlier_turn_ups = [frozenset({other})]
    result = f'{{"view": {{"deal_results": [{{"turn_up": "{other}"}}]}}}}'
    check(0, result)
    with pytest.raises(AssertionError, match=re.escape(other)):
        check(0, result[:-1] + f', "hand": ["{other}"]}}')
