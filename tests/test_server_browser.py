"""The browser table of ``backalley serve``, played in a real browser.

``python -m backalley serve --port 0 --bot-delay 0`` runs as a subprocess;
headless Chromium (Debian's ``chromium``, driven by Playwright; never
``playwright install``) opens the address it prints, makes a table in the
lobby (the gamerules, three heuristic bots, hand sizes ``3 2 1``: a game of
three deals) and plays the whole game by clicking, always one of the calls or
cards the page offers.  On the way it clicks greyed-out cards and checks
that the notice shows the sentence the server's view gives for them, and
that nothing was sent.  At the end the page shows the game over, the final
scores (the record's points added up) and a link to the record.  The page
may not log an error (a refused script or style would be one: the server
sends ``Content-Security-Policy: default-src 'self'``).

Screenshots go to the test's temporary folder, and, when the environment
variable ``BACKALLEY_SCREENSHOT`` names a ``.png`` file, there (the end of
the game) and beside it (``<name>-playing.png``, a trick being played).
Skipped, saying why, without Chromium at /usr/bin/chromium, Playwright or
the server's extra.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import ARGS, CHROMIUM
from .server_services import Served

WAIT_MS = 15_000
"""The longest any one wait in the page may take."""
GAME_SECONDS = 60.0
"""The longest the whole game may take."""
READY = ", ".join(
    [
        "#calls button[data-move]:not([disabled])",
        '#board .hand-card[data-playable="true"]',
        '#phase[data-phase="game-over"]',
    ]
)
"""The page waits for the person: a call to choose, a card to play, or the end."""

pytest.importorskip("starlette", reason="the server's extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the server's extra (uvicorn) is not installed")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="pip package playwright (the 'test' extra) is not installed"
)
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"Chromium is not at {CHROMIUM} (apt-get install -y chromium)",
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    served = Served(tmp_path / "data", bot_delay=0.0).start()
    try:
        yield served
    finally:
        served.stop()


def _get(url: str, token: str | None = None) -> Any:
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def _save(page: Any, path: Path, beside: str = "") -> None:
    """A screenshot at ``path``, and where ``BACKALLEY_SCREENSHOT`` says."""
    page.screenshot(path=str(path), full_page=True, timeout=WAIT_MS)
    assert path.stat().st_size > 10_000, "the screenshot is blank"
    wanted = os.environ.get("BACKALLEY_SCREENSHOT")
    if wanted:
        target = Path(wanted)
        if beside:
            target = target.with_name(f"{target.stem}-{beside}{target.suffix}")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


def _check_refused_card(page: Any, server: Served, table: str, token: str) -> str:
    """Click a greyed-out card: the notice shows the view's sentence for it
    and its reason, and the table does not move.  Answers the reason."""
    card = page.locator('#board .hand-card[data-playable="false"]').first
    code = card.get_attribute("data-hand-card")
    reason = card.get_attribute("data-reason")
    version = page.get_attribute("#game", "data-version")
    view = _get(f"{server.url}/api/tables/{table}/seats/0/view", token)
    assert str(view["version"]) == version
    (found,) = [c for c in view["view"]["cards"] if c["card"] == code]
    assert found["playable"] is False and found["reason"] == reason
    card.click(timeout=WAIT_MS)
    notice = page.locator("#notice")
    notice.wait_for(state="visible", timeout=WAIT_MS)
    assert found["message"] in notice.text_content()
    assert notice.get_attribute("data-reason") == reason
    # nothing was sent: the server's table has not moved
    again = _get(f"{server.url}/api/tables/{table}/seats/0/view", token)
    assert again["version"] == view["version"]
    return str(reason)


def _wait_ready(page: Any, server: Served, table: str, token: str) -> None:
    """Wait until the page offers a call or a card, or shows the game over;
    failing, say what the page and the server each show."""
    try:
        page.wait_for_selector(READY, timeout=WAIT_MS)
    except sync_api.TimeoutError:
        view = _get(f"{server.url}/api/tables/{table}/seats/0/view", token)
        shown = {
            key: page.text_content(key) for key in ("#status", "#notice", "#connection", "#calls")
        }
        pytest.fail(
            f"the page waits: at version {page.get_attribute('#game', 'data-version')} it "
            f"shows {shown}; the server is at version {view['version']}, "
            f"{view['facts']['status']!r}, legal moves {view['view']['legal_moves']}"
        )


def _choose_call(moves: list[str]) -> str:
    """A call among those offered: a bid of 1 when there is one (so the
    bidding is not thrown in), else the first."""
    return "bid 1" if "bid 1" in moves else moves[0]


def test_a_whole_game_against_three_bots(server: Served, tmp_path: Path) -> None:
    errors: list[str] = []
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=str(CHROMIUM), args=ARGS, headless=True, timeout=30_000
        )
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 940})
            page.set_default_timeout(WAIT_MS)
            page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
            page.on(
                "console",
                lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None,
            )
            page.on(
                "response",
                lambda r: errors.append(f"{r.status} for {r.url}") if r.status >= 400 else None,
            )
            page.goto(server.url + "/", timeout=WAIT_MS)

            # the lobby: rules, players and a short game
            page.wait_for_selector('#variant option[value="gamerules"]', state="attached")
            page.select_option("#variant", "gamerules")
            page.wait_for_selector("#seat-3")
            assert page.input_value("#seat-0") == "human"
            for seat in (1, 2, 3):
                page.select_option(f"#seat-{seat}", "heuristic")
            page.fill("#hand-sizes", "3 2 1")
            page.click("#create")
            page.wait_for_url("**/#table/*/seat/0", timeout=WAIT_MS)
            page.wait_for_selector("#phase:not([data-phase=''])")
            table = page.get_attribute("#game", "data-table")
            assert table
            token = page.evaluate("t => sessionStorage.getItem(`backalley:token:${t}:0`)", table)
            assert token and len(token) == 32
            summary = _get(f"{server.url}/api/tables/{table}")
            assert [s["player"] for s in summary["seats"]] == ["human"] + ["heuristic"] * 3
            assert not summary["seats"][0]["open"]

            # the game, click by click
            reasons: set[str] = set()
            calls = plays = 0
            playing_shot = 0
            deadline = time.monotonic() + GAME_SECONDS
            while True:
                assert time.monotonic() < deadline, "the game did not end in time"
                _wait_ready(page, server, table, token)
                phase = page.get_attribute("#phase", "data-phase")
                if phase == "game-over":
                    break
                version = page.get_attribute("#game", "data-version")
                offered = page.locator("#calls button[data-move]:not([disabled])")
                greyed = page.locator('#board .hand-card[data-playable="false"]')
                refused = ""
                if greyed.count() and (not reasons or (phase == "playing" and len(reasons) < 2)):
                    refused = _check_refused_card(page, server, table, token)
                    reasons.add(refused)
                if offered.count():
                    assert phase in ("bidding", "naming-trump")
                    moves = [
                        offered.nth(i).get_attribute("data-move") for i in range(offered.count())
                    ]
                    view = _get(f"{server.url}/api/tables/{table}/seats/0/view", token)
                    assert moves == view["view"]["legal_moves"]
                    page.click(f'#calls button[data-move="{_choose_call(moves)}"]')
                    calls += 1
                else:
                    assert phase == "playing"
                    # a trick being played, at best with a refused card's notice
                    if playing_shot < 2 and page.locator("#board .trick .card").count():
                        if not playing_shot or refused:
                            _save(page, tmp_path / "table-playing.png", beside="playing")
                        playing_shot = 2 if refused else 1
                    page.locator('#board .hand-card[data-playable="true"]').first.click()
                    plays += 1
                page.wait_for_function(
                    "v => document.querySelector('#game').dataset.version !== v",
                    arg=version,
                    timeout=WAIT_MS,
                )
            assert plays == 3 + 2 + 1, "one card per trick of each deal"
            assert calls >= 3, "a call in each deal"
            assert reasons, "no greyed-out card was clicked"

            # game over: the final scores, the score sheet and the record
            page.locator("#game-over").wait_for(state="visible")
            record_href = page.get_attribute("#record-link", "href")
            assert record_href == f"/api/tables/{table}/record"
            record = _get(server.url + record_href)
            assert record["format"] == "backalley/record"
            assert len(record["results"]) == 3
            totals = [sum(r["points"][side] for r in record["results"]) for side in (0, 1)]
            shown = [
                page.text_content(f'#scores tfoot [data-score-side="{side}"]') for side in (0, 1)
            ]
            assert shown == [str(t).replace("-", "\u2212") for t in totals]
            assert page.locator("#scores tbody tr[data-deal]").count() == 3
            final = page.text_content("#final") or ""
            assert "Final scores" in final
            assert page.locator("#board .middle text", has_text="Game over").count() == 1
            _save(page, tmp_path / "table-over.png")
        finally:
            browser.close()
    assert not errors, errors
