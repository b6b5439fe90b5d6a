"""The library in the browser, in a real browser (Debian's Chromium driven by
Playwright; never ``playwright install``).

- The table that needs no server, opened from the folder ``backalley
  build-web`` writes, served by a plain static host (no backalley server
  running) while every request outside that folder's origin is aborted:
  the library loads in the page, a deal is played against its bots, a
  greyed-out card's sentence is shown (and is the one the Python library
  gives at that position, found by replaying the game's record), and the
  downloaded record passes ``backalley check``.
- The served table with ``--web``: the page loads the library, reads each
  view with it (its cards greyed by the page's own answers), explains a
  refused card without a request and still sends a legal move to the
  server; only that page's policy allows WebAssembly.
- The example page (examples/browser) beside the built folder.

Needs the npm package pyodide (see tests/web.py), Chromium at
/usr/bin/chromium and Playwright; skipped, saying why, without them.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import backalley as ba
from backalley.cli import main

from .browser import ARGS, CHROMIUM
from .web import ROOT, build_site, pyodide_package, static_host

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="pip package playwright (the 'test' extra) is not installed"
)
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason=f"Chromium is not at {CHROMIUM} (apt-get install -y chromium)"
)

EXAMPLE = ROOT / "examples" / "browser"
LOAD_MS = 90_000
"""The longest the library may take to load in the page."""
WAIT_MS = 15_000
"""The longest any other wait in the page may take."""
READY = ", ".join(
    [
        "#continue-box:not([hidden]) #continue",
        "#calls button[data-move]:not([disabled])",
        '#board .hand-card[data-playable="true"]',
        '#game[data-phase="game-over"]',
    ]
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder, why = pyodide_package()
    if folder is None:
        pytest.skip(why)
    return build_site(tmp_path_factory.mktemp("web") / "site", folder)


@contextlib.contextmanager
def _browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM), args=ARGS, headless=True, timeout=30_000
        )
        try:
            yield browser
        finally:
            browser.close()


def _watch(page: Any, origin: str) -> tuple[list[str], list[str]]:
    """Abort every request outside ``origin``; answers (the aborted
    requests, the page's errors)."""
    aborted: list[str] = []
    errors: list[str] = []

    def route(found: Any) -> None:
        if found.request.url.startswith(origin + "/"):
            found.continue_()
        else:
            aborted.append(found.request.url)
            found.abort()

    page.route("**/*", route)
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return aborted, errors


def _greyed_click(page: Any) -> dict[str, str]:
    """Click a greyed-out card of the hand: the notice shows its sentence
    and reason.  Answers what was seen, and at which version."""
    card = page.locator('#board .hand-card[data-playable="false"]').first
    seen = {
        "card": card.get_attribute("data-hand-card"),
        "reason": card.get_attribute("data-reason"),
        "version": page.get_attribute("#game", "data-version"),
    }
    card.click()
    notice = page.locator("#notice")
    notice.wait_for(state="visible")
    assert notice.get_attribute("data-reason") == seen["reason"]
    seen["notice"] = notice.text_content() or ""
    assert page.get_attribute("#game", "data-version") == seen["version"], "nothing was played"
    return seen


def _play(page: Any, shots: Path, seconds: float = 90.0) -> tuple[list[dict[str, str]], int]:
    """Play seat 0 until the game is over: a bid of 1 where offered (so the
    deal is not thrown in), else the first call, else the first playable
    card; once in the bidding and once in the play, click a greyed card;
    continue after each deal's end.  Answers the greyed cards clicked and
    the deals' ends seen."""
    greyed: list[dict[str, str]] = []
    ends = 0
    deadline = time.monotonic() + seconds
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        page.wait_for_selector(READY)
        if page.locator("#continue-box:not([hidden]) #continue").count():
            # the end of a deal, held until the person continues (offline)
            paused = page.get_attribute("#game", "data-paused")
            assert paused and page.locator("#board .last-trick, #board .trick").count()
            page.screenshot(path=str(shots / f"deal-end-{paused}.png"))
            ends += 1
            page.click("#continue")
            page.wait_for_selector("#game[data-paused='']")
            continue
        phase = page.get_attribute("#game", "data-phase")
        if phase == "game-over":
            return greyed, ends
        version = page.get_attribute("#game", "data-version")
        if page.locator('#board .hand-card[data-playable="false"]').count() and phase not in {
            g["phase"] for g in greyed
        }:
            greyed.append({**_greyed_click(page), "phase": str(phase)})
        calls = page.locator("#calls button[data-move]:not([disabled])")
        if calls.count():
            moves = [calls.nth(i).get_attribute("data-move") for i in range(calls.count())]
            page.click(f'#calls button[data-move="{"bid 1" if "bid 1" in moves else moves[0]}"]')
        else:
            page.locator('#board .hand-card[data-playable="true"]').first.click()
        page.wait_for_function(
            "v => document.querySelector('#game').dataset.version !== v", arg=version
        )


def test_the_offline_table_plays_a_deal_against_bots_from_a_static_folder(
    site: Path, tmp_path: Path
) -> None:
    with static_host(site) as origin, _browser() as browser:
        page = browser.new_page(viewport={"width": 1200, "height": 940}, accept_downloads=True)
        page.set_default_timeout(WAIT_MS)
        aborted, errors = _watch(page, origin)
        started = time.monotonic()
        page.goto(f"{origin}/index.html?delay=0")
        page.wait_for_selector("html[data-ready='true']", timeout=LOAD_MS)
        loaded = time.monotonic() - started
        assert "no server" in (page.text_content("#connection") or "")

        page.select_option("#variant", "gamerules")
        assert page.input_value("#seat-0") == "human"
        for seat in (1, 2, 3):
            page.select_option(f"#seat-{seat}", "heuristic")
        page.fill("#hand-sizes", "3")
        page.click("#create")
        page.wait_for_selector("#game:not([hidden])")
        greyed, ends = _play(page, tmp_path)
        assert ends == 1, "the deal's end is held until the person continues"

        assert greyed and greyed[0]["phase"] == "bidding", greyed
        page.locator("#game-over").wait_for(state="visible")
        assert "Final scores" in (page.text_content("#final") or "")
        with page.expect_download() as download:
            page.click("#record-link")
        record_path = tmp_path / "offline-record.json"
        download.value.save_as(record_path)
        page.screenshot(path=str(tmp_path / "offline-over.png"), full_page=True)

    # the record replays with backalley check
    out = io.StringIO()
    assert main(["check", str(record_path)], out=out) == 0, out.getvalue()
    assert "OK" in out.getvalue() and "game over" in out.getvalue()
    # each greyed card's sentence is the Python library's at that position
    record = ba.from_json(record_path.read_text(encoding="utf-8"), ba.GameRecord)
    states = list(ba.replay(record))
    for seen in greyed:
        view = states[int(seen["version"])].view(0)
        with pytest.raises(ba.IllegalMoveError) as refused:
            view.check(ba.parse_move(f"play {seen['card']}"))
        assert refused.value.reason.name == seen["reason"]
        assert refused.value.message in seen["notice"]
    assert aborted == [], "the page reached outside its folder"
    assert errors == []
    assert loaded < LOAD_MS / 1000


# -- the served table with the library in the page ---------------------------------------


@contextlib.contextmanager
def _served(data: Path, site: Path) -> Iterator[str]:
    uvicorn = pytest.importorskip("uvicorn", reason="the server's extra (uvicorn) is not installed")
    from backalley.server import SqliteStore, create_app

    store = SqliteStore(data / "tables.db")
    listener = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(
        uvicorn.Config(create_app(store, bot_delay=0, web=site), log_level="warning")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        listener.close()
        store.close()


def test_the_served_table_reads_each_view_with_the_library_in_the_page(
    site: Path, tmp_path: Path
) -> None:
    pytest.importorskip("starlette", reason="the server's extra (starlette) is not installed")
    with _served(tmp_path, site) as url, _browser() as browser:
        page = browser.new_page(viewport={"width": 1200, "height": 940})
        page.set_default_timeout(WAIT_MS)
        aborted, errors = _watch(page, url)
        moves: list[str] = []
        page.on(
            "request",
            lambda r: (
                moves.append(json.loads(r.post_data or "{}").get("move", ""))
                if r.method == "POST" and r.url.endswith("/moves")
                else None
            ),
        )
        answer = page.goto(url + "/")
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self' 'wasm-unsafe-eval'" in policy
        page.wait_for_selector("html[data-rules='local']", timeout=LOAD_MS)
        assert page.get_attribute("#offline-link", "href") == "/web/"

        page.wait_for_selector('#variant option[value="gamerules"]', state="attached")
        page.select_option("#variant", "gamerules")
        for seat in (1, 2, 3):
            page.select_option(f"#seat-{seat}", "heuristic")
        page.fill("#hand-sizes", "2")
        page.click("#create")
        page.wait_for_selector("#game[data-checked='local']")
        page.wait_for_selector(READY)
        seen = _greyed_click(page)
        assert moves == [], "a card the library refuses is not sent"
        assert seen["reason"] in {"WRONG_PHASE", "NOT_YOUR_TURN"}
        page.wait_for_selector("#calls button[data-move]:not([disabled])")
        version = page.get_attribute("#game", "data-version")
        page.click('#calls button[data-move="pass"]')
        page.wait_for_function(
            "v => document.querySelector('#game').dataset.version !== v", arg=version
        )
        assert moves == ["pass"], "a move the library allows goes to the server"

        offline = page.request.get(url + "/web/")
        assert 'data-table="offline"' in offline.text()
        assert "'wasm-unsafe-eval'" in offline.headers["content-security-policy"]
        assert "wasm" not in page.request.get(url + "/static/table.js").headers.get(
            "content-security-policy", ""
        )
    assert aborted == [] and errors == []


# -- the example page --------------------------------------------------------------------


def test_the_example_page_shows_a_refused_cards_sentence_from_the_library(
    site: Path, tmp_path: Path
) -> None:
    """examples/browser beside the built folder, as its instructions say:
    South's hand with each card's answer, and a refused card's sentence on a
    click - the Python library's at the same position."""
    from backalley.bots import make_bot

    folder = tmp_path / "site"
    shutil.copytree(site, folder)
    shutil.copytree(EXAMPLE, folder / "example")
    with static_host(folder) as origin, _browser() as browser:
        page = browser.new_page()
        page.set_default_timeout(WAIT_MS)
        aborted, errors = _watch(page, origin)
        page.goto(f"{origin}/example/")
        page.wait_for_selector("html[data-ready='true']", timeout=LOAD_MS)
        shown = [b.text_content() for b in page.locator("#hand button").all()]
        page.locator("#hand button.refused").first.click()
        answer = page.text_content("#answer") or ""
        reason = page.get_attribute("#answer", "data-reason")
    # the same game in Python: seed 36, the heuristic bots seeded by their seats
    state = ba.new_game("gamerules", seed=36)
    bots = [make_bot("heuristic", str(seat)) for seat in range(4)]
    while state.to_act != 2:
        assert state.to_act is not None
        state = state.apply(bots[state.to_act].choose(state.view(state.to_act)))
    view = json.loads(ba.to_json(state.view(2)))
    assert shown == [a["card"] for a in view["cards"]]
    first = next(a for a in view["cards"] if not a["playable"])
    assert answer == f"play {first['card']}: {first['message']} ({first['reason']})"
    assert reason == first["reason"]
    assert aborted == [] and errors == []
