"""The browser table of ``backalley serve``, played in a real browser.

``python -m backalley serve --port 0 --bot-delay 0 --deal-pause 600`` runs
as a subprocess; headless Chromium (Debian's ``chromium``, driven by
Playwright; never ``playwright install``) opens the address it prints.

- At 1280 px it makes a table in the lobby (the gamerules, three heuristic
  bots, hand sizes ``5 2 1``: a game of three deals) and plays the whole game
  by clicking, always one of the calls or cards the page offers.  On the way
  it clicks greyed-out cards and checks that the notice shows the sentence
  the server's view gives for them, and that nothing was sent; at the end of
  each deal the page shows the last trick and the deal's result until it
  clicks Continue; at the end, the game over (once), the final scores (the
  record's points added up) and a link to the record.
- At 400 px: nothing scrolls sideways (the lobby with a table listed, the
  table, the end of a deal), a card of the hand is at least 44 px wide and
  44 px of it can be tapped, no text is under 12 px, the status shows on one
  line only, and the end of a deal holds - the bots too - until Continue.
- Without WebSocket support in the server (``websockets`` and ``wsproto``
  left out of its imports), and for a table that is gone, the page stops
  trying after a few attempts and says why.

The page may not log an error (a refused script or style would be one: the
server sends ``Content-Security-Policy: default-src 'self'``).  Screenshots
go to the test's temporary folder and, when the environment variable
``BACKALLEY_SCREENSHOTS`` names a folder, there too (the docs' pictures:
``BACKALLEY_SCREENSHOTS=docs/_static``): ``browser_table-1280.png`` and
``browser_table-400.png`` (a trick being played), ``browser_deal_end-1280.png``
and ``browser_deal_end-400.png`` (the end of a deal).  Skipped, saying why, without Chromium at
/usr/bin/chromium, Playwright or the server's extra.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..browser import ARGS, CARD_LETTERS, CHROMIUM, PLACEHOLDER_ROOM, VISIBLE_TEXT, as_shown
from ..server_services import Served

WAIT_MS = 15_000
"""The longest any one wait in the page may take."""
GAME_SECONDS = 90.0
"""The longest the whole game may take."""
READY = ", ".join(
    [
        "#calls button[data-move]:not([disabled])",
        '#board .hand-card[data-playable="true"]',
        "#continue:visible",
        "#game-over:visible",
    ]
)
"""The page waits for the person: a call to choose, a card to play, the end
of a deal to continue from, or the end of the game."""
PAUSE = 600.0
"""The server's deal pause: longer than any test, so the bots wait for Continue."""
MIN_TAP = 44
MIN_TEXT = 12

pytest.importorskip("starlette", reason="the server's extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the server's extra (uvicorn) is not installed")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="pip package playwright (the 'test' extra) is not installed"
)
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason=f"Chromium is not at {CHROMIUM} (apt-get install -y chromium)",
    ),
]

# What the page shows, measured in the page (functions, as the page's policy
# allows no evaluated text); VISIBLE_TEXT is shared with the offline page's tests.
HAND_BOXES = """() => Array.from(document.querySelectorAll("#board .hand-card"), (card) => {
  const box = card.getBoundingClientRect();
  return [box.left, box.top, box.width, box.height];
})"""
SCROLL_WIDTH = "() => document.documentElement.scrollWidth"
LAST_TRICK = """() => {
  const label = document.querySelector("#board .last-trick-label");
  if (!label) return null;
  const box = (el) => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const near = document.querySelectorAll("#board .last-trick .card, #board .middle .tag");
  return { label: box(label), near: Array.from(near, box) };
}"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    served = Served(tmp_path / "data", bot_delay=0.0, deal_pause=PAUSE).start()
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as driver:
        found = driver.chromium.launch(
            executable_path=str(CHROMIUM), args=ARGS, headless=True, timeout=30_000
        )
        try:
            yield found
        finally:
            found.close()


def _page(browser: Any, width: int, errors: list[str] | None) -> Any:
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.set_default_timeout(WAIT_MS)
    seen = errors if errors is not None else []
    page.on("pageerror", lambda exc: seen.append(f"page error: {exc}"))
    if errors is not None:
        page.on(
            "console",
            lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None,
        )
        page.on(
            "response",
            lambda r: errors.append(f"{r.status} for {r.url}") if r.status >= 400 else None,
        )
    return page


def _get(url: str, token: str | None = None) -> Any:
    request = urllib.request.Request(url)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def _save(page: Any, path: Path, *, publish: bool = True) -> None:
    """A screenshot at ``path``, and (``publish``) in the folder
    ``BACKALLEY_SCREENSHOTS`` names."""
    page.screenshot(path=str(path), full_page=True, timeout=WAIT_MS)
    assert path.stat().st_size > 10_000, "the screenshot is blank"
    folder = os.environ.get("BACKALLEY_SCREENSHOTS")
    if folder and publish:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(folder) / path.name)


def _make_table(
    page: Any, server: Served, sizes: str = "3 2 1", *, live: bool = True
) -> tuple[str, str]:
    """In the lobby: the gamerules, a person at North and three heuristic bots,
    ``sizes``; answers the table and the seat's token (``live``: once the
    table shows the game)."""
    page.goto(server.url + "/", timeout=WAIT_MS)
    page.wait_for_selector('#variant option[value="gamerules"]', state="attached")
    page.select_option("#variant", "gamerules")
    page.wait_for_selector("#seat-3")
    assert page.input_value("#seat-0") == "human"
    for seat in (1, 2, 3):
        page.select_option(f"#seat-{seat}", "heuristic")
    page.fill("#hand-sizes", sizes)
    page.click("#create")
    page.wait_for_function("() => /^#table\\/[0-9a-f]+\\/seat\\/0$/.test(location.hash)")
    if live:
        page.wait_for_selector("#game:not([data-phase=''])")
    table = page.get_attribute("#game", "data-table")
    assert table
    token = page.evaluate("t => sessionStorage.getItem(`backalley:token:${t}:0`)", table)
    assert token and len(token) == 32
    return table, token


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
    shown = notice.text_content() or ""
    assert as_shown(found["message"]) in shown, (found["message"], shown)
    assert not CARD_LETTERS.search(shown), shown  # one notation for cards
    assert notice.get_attribute("data-reason") == reason
    # nothing was sent: the server's table has not moved
    again = _get(f"{server.url}/api/tables/{table}/seats/0/view", token)
    assert again["version"] == view["version"]
    return str(reason)


def _wait_ready(page: Any, server: Served, table: str, token: str) -> None:
    """Wait until the page offers a call, a card or Continue, or shows the
    game over; failing, say what the page and the server each show."""
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


def _one_status_line(page: Any, server: Served, table: str, token: str) -> None:
    """The status shows once: the server's status line (or, at the end of a
    deal, the page's), and nowhere else on the page."""
    shown = [text for text, _ in page.evaluate(VISIBLE_TEXT)]
    status = page.text_content("#status")
    assert status
    assert sum(status in text for text in shown) == 1, (status, shown)
    if not page.get_attribute("#game", "data-paused"):
        view = _get(f"{server.url}/api/tables/{table}/seats/0/view", token)
        if str(view["version"]) == page.get_attribute("#game", "data-version"):
            assert status == view["facts"]["status"]


def _check_layout(page: Any, width: int) -> None:
    """No sideways scroll, no text under 12 px, hand cards 44 px to tap."""
    assert page.evaluate(SCROLL_WIDTH) <= width
    small = [(text, size) for text, size in page.evaluate(VISIBLE_TEXT) if size < MIN_TEXT - 0.01]
    assert not small, f"text under {MIN_TEXT} px: {small[:10]}"
    boxes = page.evaluate(HAND_BOXES)
    rows: dict[int, list[float]] = {}
    for left, top, card_width, _height in boxes:
        assert card_width >= MIN_TAP, f"a hand card {card_width:.1f} px wide"
        assert left >= 0 and left + card_width <= width
        rows.setdefault(round(top), []).append(left)
    for lefts in rows.values():
        lefts.sort()
        steps = [b - a for a, b in itertools.pairwise(lefts)]
        assert all(step >= MIN_TAP - 0.5 for step in steps), f"cards {steps} px apart"


def _last_trick_clear(page: Any) -> None:
    """The game's last trick is shown and labelled, the label clear of its
    cards and their tags."""
    found = page.evaluate(LAST_TRICK)
    assert found is not None, "the game's last trick, labelled"
    left, top, right, bottom = found["label"]
    assert found["near"]
    for other in found["near"]:
        apart = right <= other[0] or other[2] <= left or bottom <= other[1] or other[3] <= top
        assert apart, f"the label {found['label']} crowds {other}"


def _deal_end(page: Any, server: Served, table: str, token: str) -> None:
    """The end of a deal: the last trick and the result, holding - the bots
    too - until Continue."""
    page.wait_for_selector("#game[data-paused]:not([data-paused=''])")
    deal = int(page.get_attribute("#game", "data-paused"))
    public = _get(f"{server.url}/api/tables/{table}/public")
    end = public["deal_end"]
    assert end["deal"] == deal and 0 in end["waiting"]
    result = public["public"]["deal_results"][deal - 1]
    # the last trick on the table, the result beside it
    cards = page.locator("#board .deal-last-trick .card")
    assert [cards.nth(i).get_attribute("data-card") for i in range(cards.count())] == end[
        "last_trick"
    ]["cards"]
    for side, points in enumerate(result["points"]):
        row = page.locator(f'#deal-result tbody tr[data-side="{side}"]')
        cells = [row.locator("td").nth(i).text_content() for i in range(4)]
        assert cells[1] == str(result["tricks"][side])
        made = end["made"][side]
        assert cells[2] == ("no contract" if made is None else "made" if made else "set")
        assert cells[3] == (f"+{points}" if points > 0 else str(points).replace("-", "\u2212"))
    assert page.text_content("#status") == f"Deal {deal} of {public['public']['deals']} is over"
    # it holds: the page, and the bots when one is to act
    version = public["version"]
    time.sleep(1.0)
    assert page.get_attribute("#game", "data-paused") == str(deal)
    assert page.locator("#continue").is_visible()
    again = _get(f"{server.url}/api/tables/{table}/public")
    assert again["version"] == version, "a bot moved while the person had not continued"
    assert again["deal_end"]["holding"] is (again["public"]["phase"] != "game-over")


def _continue(page: Any, server: Served, table: str) -> None:
    deal = int(page.get_attribute("#game", "data-paused"))
    page.click("#continue")
    page.wait_for_selector("#game[data-paused='']", state="attached")
    assert page.locator("#deal-end").is_hidden()
    # the server heard it: the bots need not wait for North
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        end = _get(f"{server.url}/api/tables/{table}/public")["deal_end"]
        if end["deal"] > deal or 0 not in end["waiting"]:
            break
        assert time.monotonic() < deadline, "the server did not hear the Continue"
        time.sleep(0.05)


def _play(
    page: Any,
    server: Served,
    table: str,
    token: str,
    *,
    width: int,
    shots: Path,
) -> dict[str, Any]:
    """Play the game click by click; answers what was done."""
    done: dict[str, Any] = {"calls": 0, "plays": 0, "reasons": set(), "ends": 0}
    playing_shot = deal_shot = False
    deadline = time.monotonic() + GAME_SECONDS
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        _wait_ready(page, server, table, token)
        _one_status_line(page, server, table, token)
        _check_layout(page, width)
        if page.locator("#continue").is_visible():
            _deal_end(page, server, table, token)
            if not deal_shot:
                _save(page, shots / f"browser_deal_end-{width}.png")
                deal_shot = True
            done["ends"] += 1
            _continue(page, server, table)
            continue
        phase = page.get_attribute("#game", "data-phase")
        if phase == "game-over":
            break
        version = page.get_attribute("#game", "data-version")
        offered = page.locator("#calls button[data-move]:not([disabled])")
        greyed = page.locator('#board .hand-card[data-playable="false"]')
        refused = ""
        reasons = done["reasons"]
        if greyed.count() and (not reasons or (phase == "playing" and len(reasons) < 2)):
            refused = _check_refused_card(page, server, table, token)
            reasons.add(refused)
        if offered.count():
            assert phase in ("bidding", "naming-trump")
            moves = [offered.nth(i).get_attribute("data-move") for i in range(offered.count())]
            view = _get(f"{server.url}/api/tables/{table}/seats/0/view", token)
            assert moves == view["view"]["legal_moves"]
            page.click(f'#calls button[data-move="{_choose_call(moves)}"]')
            done["calls"] += 1
        else:
            assert phase == "playing"
            # a trick being played, at best with a refused card's notice
            if not playing_shot and page.locator("#board .trick .card").count():
                _save(page, shots / f"browser_table-{width}.png")
                playing_shot = True
            page.locator('#board .hand-card[data-playable="true"]').first.click()
            done["plays"] += 1
        page.wait_for_function(
            "v => document.querySelector('#game').dataset.version !== v"
            " || document.querySelector('#game').dataset.paused !== ''",
            arg=version,
            timeout=WAIT_MS,
        )
    return done


def test_a_whole_game_against_three_bots(server: Served, browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    page = _page(browser, 1280, errors)
    table, token = _make_table(page, server, "5 2 1")
    summary = _get(f"{server.url}/api/tables/{table}")
    assert [s["player"] for s in summary["seats"]] == ["human"] + ["heuristic"] * 3
    assert not summary["seats"][0]["open"]

    done = _play(page, server, table, token, width=1280, shots=tmp_path)
    assert done["plays"] == 5 + 2 + 1, "one card per trick of each deal"
    assert done["calls"] >= 3, "a call in each deal"
    assert done["reasons"], "no greyed-out card was clicked"
    assert done["ends"] == 3, "the end of each deal was shown, the last one too"

    # game over: once; the final scores, the score sheet and the record
    page.locator("#game-over").wait_for(state="visible")
    shown = [text for text, _ in page.evaluate(VISIBLE_TEXT)]
    assert sum("Game over" in text for text in shown) == 1, shown
    record_href = page.get_attribute("#record-link", "href")
    assert record_href == f"/api/tables/{table}/record"
    record = _get(server.url + record_href)
    assert record["format"] == "backalley/record"
    assert len(record["results"]) == 3
    totals = [sum(r["points"][side] for r in record["results"]) for side in (0, 1)]
    shown_totals = [
        page.text_content(f'#scores tfoot [data-score-side="{side}"]') for side in (0, 1)
    ]
    assert shown_totals == [str(t).replace("-", "\u2212") for t in totals]
    assert page.locator("#scores tbody tr[data-deal]").count() == 3
    final = page.text_content("#final") or ""
    assert all(str(abs(t)) in final for t in totals)
    _save(page, tmp_path / "table-over.png", publish=False)
    assert not errors, errors


def test_the_table_at_400_px(server: Served, browser: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    page = _page(browser, 400, errors)
    table, token = _make_table(page, server, "9 1")

    # the lobby names the variants, the seats and the tables in words
    page.goto(server.url + "/#", timeout=WAIT_MS)
    page.wait_for_selector(f'#tables .table-item[data-table="{table}"]')
    variants = _get(f"{server.url}/api/variants")
    assert page.text_content("#variant-description") == variants["descriptions"]["gamerules"]
    labels = [page.text_content(f'label[for="seat-{s}"]') for s in range(4)]
    assert labels == ["North", "East", "South", "West"]
    item = page.locator(f'#tables .table-item[data-table="{table}"]')
    assert page.text_content(f'#tables .table-item[data-table="{table}"] .table-name') == (
        "gamerules: 1 person, 3 heuristic bots"
    )
    assert table not in (item.inner_text() or "")
    # what tells it from another table of the same rules: how far, whose turn, when
    meta = page.text_content(f'#tables .table-item[data-table="{table}"] .table-meta') or ""
    assert meta.startswith("deal 1 of 2 \u00b7 "), meta
    assert re.search(r"(North|East|South|West) to play", meta), meta
    assert "made at" in meta or "last move" in meta, meta
    assert page.is_hidden("#quiet-tables")  # a table of this browser's is never quiet
    assert page.text_content(f'[data-resume="{table}:0"]') == "Back to North"
    _check_layout(page, 400)
    width, room = page.evaluate(PLACEHOLDER_ROOM, "#hand-sizes")
    assert width <= room, f"the hand sizes' placeholder takes {width:.0f} px of {room:.0f}"
    page.click(f'[data-resume="{table}:0"]')

    done = _play(page, server, table, token, width=400, shots=tmp_path)
    assert done["ends"] == 2 and done["plays"] == 9 + 1
    page.locator("#game-over").wait_for(state="visible")
    _last_trick_clear(page)
    _check_layout(page, 400)
    assert not errors, errors

    # a table that is gone: the page says so rather than trying forever
    page.goto(f"{server.url}/#watch/0123456789abcdef", timeout=WAIT_MS)
    page.wait_for_selector("#trouble")
    assert "This table is gone" in (page.text_content("#trouble-text") or "")


def test_without_websockets_the_page_says_why(
    tmp_path: Path, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the server's imports find websockets and wsproto left out: uvicorn then
    # passes a socket's handshake on as a plain request
    stubs = tmp_path / "stubs"
    for name in ("websockets", "wsproto"):
        (stubs / name).mkdir(parents=True)
        (stubs / name / "__init__.py").write_text(
            f"raise ImportError('{name} is left out for this test')\n", encoding="utf-8"
        )
    monkeypatch.setenv("PYTHONPATH", str(stubs))
    served = Served(tmp_path / "data").start()
    try:
        page = _page(browser, 400, None)
        _make_table(page, served, "1", live=False)
        page.wait_for_selector("#trouble", timeout=30_000)
        text = page.text_content("#trouble-text") or ""
        assert "WebSocket" in text and "backalley[server]" in text, text
        assert page.get_attribute("#connection", "data-state") == "closed"
        assert _get(f"{served.url}/api/health")["websockets"] is False
        assert page.locator("#try-again").is_visible()
        _check_layout(page, 400)
    finally:
        served.stop()
