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
- The library runs in a Web Worker: while it loads, the page shows its
  steps (the runtime, the wheels, the import) with their progress and a
  clock that ticks; while a pimc bot decides, a click on the page is
  answered within 200 ms (measured in the page, from the click's event to
  the next frame after the notice shows).
- At game over the offline table says so once, and drawn at 1280 px then
  resized to 400 px it lays itself out again: no sideways scroll, no text
  under 12 px, the header on one line, the lobby's placeholder whole.

Needs the npm package pyodide (see tests/web_runtime.py), Chromium at
/usr/bin/chromium and Playwright; skipped, saying why, without them.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
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

from ..browser import ARGS, BOX, CHROMIUM, PLACEHOLDER_ROOM, SCROLL_WIDTH, VISIBLE_TEXT, as_shown
from ..web_runtime import ROOT, build_site, pyodide_package, static_host

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="pip package playwright (the 'test' extra) is not installed"
)
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"Chromium is not at {CHROMIUM} (apt-get install -y chromium)"
    ),
]

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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module; each test opens its own context (its own
    storage) in it."""
    with sync_api.sync_playwright() as driver:
        found = driver.chromium.launch(
            executable_path=str(CHROMIUM), args=ARGS, headless=True, timeout=30_000
        )
        try:
            yield found
        finally:
            found.close()


@contextlib.contextmanager
def _page(browser: Any, width: int = 1200, **options: Any) -> Iterator[Any]:
    """A page in a context of its own, closed afterwards."""
    context = browser.new_context(viewport={"width": width, "height": 940}, **options)
    try:
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        yield page
    finally:
        context.close()


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
    site: Path, browser: Any, tmp_path: Path
) -> None:
    with static_host(site) as origin, _page(browser, accept_downloads=True) as page:
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
        _game_over_once(page)
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
        assert as_shown(refused.value.message) in seen["notice"]  # cards as the page writes them
    assert aborted == [], "the page reached outside its folder"
    assert errors == []
    assert loaded < LOAD_MS / 1000


def _game_over_once(page: Any) -> None:
    """At game over the status line says so and nothing else on the page
    does; the panel beside the board gives each side's final score (the
    score sheet's totals)."""
    page.locator("#game-over").wait_for(state="visible")
    shown = [text for text, _ in page.evaluate(VISIBLE_TEXT)]
    said = [t for t in shown if re.search(r"game (is )?over", t, re.IGNORECASE)]
    assert said == [page.text_content("#status")], said
    assert said[0].startswith("Game over")
    assert page.text_content("#game-over h2") == "Final scores"
    final = page.text_content("#final") or ""
    sides = page.locator("#scores tfoot [data-score-side]")
    totals = [sides.nth(i).text_content() or "" for i in range(sides.count())]
    assert len(totals) >= 2 and all(total in final for total in totals), (final, totals)


# -- the library in a worker: loading, a bot thinking, the page at 400 px -----------------

LOAD_STEPS = """() => ({
  ready: document.documentElement.dataset.ready === "true",
  clock: document.querySelector("#load-clock").textContent,
  steps: Array.from(document.querySelectorAll("#load-steps li"), (row) => {
    const bar = row.querySelector("progress");
    return {
      step: row.dataset.step,
      state: row.dataset.state,
      value: bar.hasAttribute("value") ? bar.value : null,
      max: bar.max,
      text: row.querySelector(".step-state").textContent,
    };
  }),
})"""

ANSWER_NEXT_CLICK = """() => {
  // from the next click's event (its time is the input's) to the frame after
  // the notice it brings shows; and whether a bot was thinking then
  const notice = document.querySelector("#notice");
  const game = document.querySelector("#game");
  let clicked = null;
  document.addEventListener("click", (event) => { clicked = event.timeStamp; },
    { capture: true, once: true });
  window.clickAnswered = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (clicked === null || notice.hidden || !notice.dataset.reason) return;
      observer.disconnect();
      const thinking = game.dataset.thinking;
      requestAnimationFrame(() => resolve({
        ms: performance.now() - clicked, thinking, reason: notice.dataset.reason,
      }));
    });
    observer.observe(notice, { attributes: true, childList: true, subtree: true });
  });
}"""


@pytest.fixture(scope="module")
def offline(site: Path, browser: Any) -> Iterator[dict[str, Any]]:
    """The offline table at 1280 px, loaded once for the tests below, with
    what its loading showed (polled every 50 ms until it was ready)."""
    with static_host(site) as origin, _page(browser, 1280) as page:
        aborted, errors = _watch(page, origin)
        page.goto(f"{origin}/index.html?delay=0")
        seen: list[dict[str, Any]] = []
        deadline = time.monotonic() + LOAD_MS / 1000
        while not (seen and seen[-1]["ready"]):
            assert time.monotonic() < deadline, "the library did not load in time"
            seen.append(page.evaluate(LOAD_STEPS))
            time.sleep(0.05)
        yield {"page": page, "seen": seen, "aborted": aborted, "errors": errors}


def _lobby(page: Any) -> None:
    page.click("#home")
    page.wait_for_selector("#lobby:not([hidden])")


@pytest.mark.browser
def test_loading_shows_the_runtime_the_wheels_and_the_import_with_their_progress(
    offline: dict[str, Any],
) -> None:
    seen = offline["seen"]
    last = seen[-1]
    assert [step["step"] for step in last["steps"]] == ["runtime", "wheels", "import"]
    for step in last["steps"]:
        assert step["state"] == "done" and re.fullmatch(r"done at \d+\.\d s", step["text"]), step
        assert step["value"] == step["max"], "its bar full"
    assert offline["page"].locator("#loading").is_hidden()
    # on the way: the runtime under way with its bytes counted as they came,
    # the wheels' bytes against their total
    shown = [(step["step"], step["state"], step["text"]) for shot in seen for step in shot["steps"]]
    assert ("runtime", "active") in {(name, state) for name, state, _ in shown}
    for name in ("runtime", "wheels"):
        counted = [text for step, _, text in shown if step == name]
        assert any(re.match(r"\d+\.\d MB (of \d+\.\d MB|received)", t) for t in counted), counted
    # and the page was live while the library loaded: its clock ticked
    ticks = {shot["clock"] for shot in seen if not shot["ready"]}
    assert len(ticks) >= 3, ticks
    assert offline["aborted"] == [] and offline["errors"] == []


@pytest.mark.browser
def test_at_game_over_the_offline_table_says_so_once_and_lays_itself_out_again_at_400_px(
    offline: dict[str, Any],
) -> None:
    page = offline["page"]
    _lobby(page)
    page.select_option("#variant", "gamerules")
    for seat in range(4):
        page.select_option(f"#seat-{seat}", "heuristic")
    page.fill("#hand-sizes", "1")
    page.click("#create")
    page.wait_for_selector('#game[data-phase="game-over"]')
    _game_over_once(page)
    assert float(page.get_attribute("#board svg.board", "data-width") or 0) > 600

    page.set_viewport_size({"width": 400, "height": 900})
    page.wait_for_function(
        "() => Number(document.querySelector('#board svg.board').dataset.width) <= 400"
    )
    assert page.evaluate(SCROLL_WIDTH) <= 400
    small = [(text, size) for text, size in page.evaluate(VISIBLE_TEXT) if size < 11.99]
    assert not small, f"text under 12 px: {small[:10]}"
    _game_over_once(page)
    # the header on one line: the badge in the title's line, the connection beside it
    title = page.evaluate(BOX, "header.top h1")
    badge = page.evaluate(BOX, "header.top .offline-badge")
    connection = page.evaluate(BOX, "#connection")
    assert title[3] < 40, "the title on one line"
    assert title[1] <= badge[1] and badge[1] + badge[3] <= title[1] + title[3]
    assert connection[1] < title[1] + title[3], "the connection beside the title"
    assert "no server" in (page.text_content("#connection") or "")

    # the lobby at 400 px: the hand sizes' placeholder whole
    _lobby(page)
    assert page.evaluate(SCROLL_WIDTH) <= 400
    width, room = page.evaluate(PLACEHOLDER_ROOM, "#hand-sizes")
    assert width <= room, f"the placeholder takes {width:.0f} px of {room:.0f}"
    page.set_viewport_size({"width": 1280, "height": 900})
    assert offline["aborted"] == [] and offline["errors"] == []


@pytest.mark.browser
def test_the_offline_page_answers_a_click_within_200_ms_while_pimc_decides(
    site: Path, browser: Any
) -> None:
    """A person at seat 0 and three pimc bots: while a bot decides (seconds,
    in the worker), a click on the person's hand is answered - its notice
    shown - within 200 ms, measured in the page."""
    with static_host(site) as origin, _page(browser, 1280) as page:
        aborted, errors = _watch(page, origin)
        page.goto(f"{origin}/index.html?delay=0")
        page.wait_for_selector("html[data-ready='true']", timeout=LOAD_MS)
        page.select_option("#variant", "gamerules")
        for seat in (1, 2, 3):
            page.select_option(f"#seat-{seat}", "pimc")
        page.fill("#hand-sizes", "9")
        page.click("#create")
        thinking = '#game[data-thinking]:not([data-thinking=""])'
        answers: list[dict[str, Any]] = []
        deadline = time.monotonic() + 90
        while not answers or not answers[-1]["thinking"]:
            assert time.monotonic() < deadline, f"no click came while a bot decided: {answers}"
            page.wait_for_selector(f"{thinking}, #calls button[data-move]")
            version = page.get_attribute("#game", "data-version")
            if not page.locator(thinking).count():  # the person's call
                moves = [b.get_attribute("data-move") for b in page.locator("#calls button").all()]
                page.click(
                    f'#calls button[data-move="{"bid 1" if "bid 1" in moves else moves[0]}"]'
                )
                page.wait_for_function(
                    "v => document.querySelector('#game').dataset.version !== v", arg=version
                )
                continue
            page.evaluate(ANSWER_NEXT_CLICK)
            page.locator("#board .hand-card").first.click()
            answers.append(page.evaluate("() => window.clickAnswered"))
            page.click("#notice")
        slow = [a["ms"] for a in answers if a["ms"] >= 200]
        assert not slow, f"clicks answered after {slow} ms"
        assert answers[-1]["reason"] in {"NOT_YOUR_TURN", "ALREADY_BID", "WRONG_PHASE"}
        # the bot's decision went on meanwhile: its move is made, no error shown
        page.wait_for_function(
            "v => document.querySelector('#game').dataset.version !== v",
            arg=version,
            timeout=60_000,
        )
        assert page.get_attribute("#notice", "data-kind") != "error", page.text_content("#notice")
    assert aborted == [] and errors == []


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
    site: Path, browser: Any, tmp_path: Path
) -> None:
    pytest.importorskip("starlette", reason="the server's extra (starlette) is not installed")
    with _served(tmp_path, site) as url, _page(browser) as page:
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
        # the link stands beside the title, not in it
        assert page.text_content("header.top h1") == "Back Alley"
        assert page.locator("header.top h1 #offline-link").count() == 0
        # the library runs in a worker, not on the page's thread
        assert [w.url for w in page.workers if w.url.endswith("/web/backalley-worker.js")]

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
    site: Path, browser: Any, tmp_path: Path
) -> None:
    """examples/browser beside the built folder, as its instructions say:
    South's hand with each card's answer, and a refused card's sentence on a
    click - the Python library's at the same position."""
    from backalley.bots import make_bot

    folder = tmp_path / "site"
    shutil.copytree(site, folder)
    shutil.copytree(EXAMPLE, folder / "example")
    with static_host(folder) as origin, _page(browser) as page:
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
