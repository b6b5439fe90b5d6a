"""The picture ``backalley show`` draws, looked at in a real browser.

Headless Chromium (Debian's ``chromium``, driven by Playwright; never
``playwright install``) loads the SVG from a server of this test on
127.0.0.1, as a page of its own and inlined in an HTML page, 400 and 900
pixels wide.  Each time: the picture fits the width (no sideways scrolling),
every seat's name is visible inside the window, and the screenshot is not
blank.  The test installs Chromium with ``apt-get`` when it is missing and it
can (as root), and is skipped, saying why, when it cannot.
"""

from __future__ import annotations

import functools
import http.server
import io
import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import backalley as ba
from backalley.cli import main

from ..browser import ARGS, CHROMIUM
from ..randomgames import play

pytestmark = pytest.mark.browser

WIDTHS = (400, 900)
HEIGHT = 800


def _install_chromium() -> str | None:
    """Install Debian's chromium; ``None`` when done, else why it could not be."""
    if shutil.which("apt-get") is None:
        return "there is no apt-get here"
    if os.geteuid() != 0:
        return "installing it needs root"
    for steps in ([["apt-get", "install", "-y", "chromium"]],
                  [["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]]):  # fmt: skip
        try:
            done = all(
                subprocess.run(step, capture_output=True, timeout=900).returncode == 0
                for step in steps
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"apt-get failed: {exc}"
        if done and CHROMIUM.exists():
            return None
    return "'apt-get install -y chromium' failed"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="pip package playwright (the 'test' extra) not installed"
    )
    if not CHROMIUM.exists():
        why = _install_chromium()
        if why is not None:
            pytest.skip(f"Chromium is not at {CHROMIUM} and could not be installed: {why}")
    with sync_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The picture of a record's position (``backalley show``), as ``position.svg``
    and inlined in ``page.html``, served on 127.0.0.1 at a free port."""
    root = tmp_path_factory.mktemp("site")
    start, _end, moves = play(ba.variants.GAMERULES, 9, 9, 80)
    record = ba.GameRecord.from_game(start, moves, players=("heuristic",) * 4)
    states = list(ba.replay(record))
    k = next(k for k, s in enumerate(states) if s.phase is ba.Phase.PLAYING and s.trick)
    (root / "game.json").write_text(ba.to_json(record), encoding="utf-8")
    svg = root / "position.svg"
    argv = ["show", str(root / "game.json"), "--move", str(k), "-o", str(svg)]
    assert main(argv, io.StringIO()) == 0
    (root / "page.html").write_text(
        "<!doctype html><html><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width'></head>"
        f"<body style='margin:8px'>{svg.read_text(encoding='utf-8')}</body></html>",
        encoding="utf-8",
    )
    handler = functools.partial(_Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


_NOT_BLANK = """async (src) => {
  const bitmap = await createImageBitmap(await (await fetch(src)).blob());
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const g = canvas.getContext("2d");
  g.drawImage(bitmap, 0, 0);
  const d = g.getImageData(0, 0, bitmap.width, bitmap.height).data;
  let drawn = 0;
  for (let i = 0; i < d.length; i += 4) {
    if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 60) drawn++;
  }
  return drawn / (bitmap.width * bitmap.height);
}"""


@pytest.mark.parametrize("page_name", ["position.svg", "page.html"])
def test_the_picture_fits_400_and_900_pixels_with_every_seat_named_in_view(
    browser: Any, site: str, page_name: str, tmp_path: Path
) -> None:
    import base64

    for width in WIDTHS:
        page = browser.new_page(viewport={"width": width, "height": HEIGHT})
        try:
            page.goto(f"{site}/{page_name}")
            scroll, inner = page.evaluate(
                "[document.documentElement.scrollWidth, window.innerWidth]"
            )
            assert scroll <= inner == width, f"{page_name} overflows {width} px: {scroll}"
            names = page.locator("text.seat-name")
            assert names.count() == 4
            seen = []
            for k in range(4):
                name = names.nth(k)
                assert name.is_visible()
                box = name.bounding_box()
                assert box is not None and box["width"] > 0 and box["height"] > 0
                assert box["x"] >= 0 and box["x"] + box["width"] <= width, (page_name, width, box)
                assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, (page_name, width, box)
                seen.append(name.text_content())
            assert sorted(seen) == sorted(
                f"{seat} (heuristic)" for seat in ("North", "East", "South", "West")
            )
            shot = page.screenshot(path=str(tmp_path / f"{page_name}-{width}.png"))
            src = "data:image/png;base64," + base64.b64encode(shot).decode("ascii")
            page.goto("about:blank")
            assert page.evaluate(_NOT_BLANK, src) > 0.2  # the felt, the cards, the names
        finally:
            page.close()
