"""The library in the browser: its size and start-up time (the tables of
docs/browser.rst).

    python3 benchmarks/web_startup.py [--pyodide PATH] [--runs N] [--json FILE]

Builds the folder (``backalley build-web``) from the npm package pyodide
(``--pyodide``, default ``web/node_modules/pyodide``: ``npm ci --prefix
web``), then measures:

- sizes: every file as stored and gzip-compressed (``gzip -9``, what a
  static host that compresses sends), by part: the runtime, the wheels, the
  pages;
- Node (``node``, no Python): ``load()`` of backalley.js, split into the
  runtime's start, unpacking the wheels and importing the library, then the
  issue's trial (``new_game``, 2,000 moves applied, an illegal move refused)
  - the median of ``--runs`` processes;
- Chromium (Debian's, headless, driven by Playwright; the median of ``--runs``
  browsers, each with a profile of its own): the offline table from
  a plain static host on loopback until the library is loaded in the page,
  first with an empty cache (every byte transferred) and then reloaded with
  the cache of the first load (a browser profile on disk); the bytes transferred as the browser counts
  them, the worker's requests too (uncompressed: the test host does not compress); and the page's
  longest task on its own thread while it loaded (the browser's long tasks,
  50 ms and over: how long a click could have waited; the longest of the runs).

Not a test: run it on purpose.
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backalley.web.build import build_web  # noqa: E402
from tests.browser import ARGS, CHROMIUM  # noqa: E402
from tests.web_runtime import static_host  # noqa: E402

NODE_TRIAL = r"""
import { pathToFileURL } from "node:url";
const base = pathToFileURL(process.argv[2] + "/");
const started = performance.now();
const { load, BackAlleyError } = await import(new URL("backalley.js", base).href);
const ba = await load();
const loaded = performance.now();
let game = ba.newGame("gamerules", { seed: 7 });
let moves = 0;
for (let ply = 0; moves < 2000; ply++) {
  if (game.isOver) game = ba.newGame("gamerules", { seed: 7 + ply });
  const legal = game.legalMoves();
  game = game.apply(legal[(7 * ply) % legal.length]);
  moves += 1;
}
let refused = null;
const bids = ba.newGame("gamerules", { seed: 36 });
try { bids.apply("bid 99"); } catch (err) { refused = err instanceof BackAlleyError ? err.reason : String(err); }
const played = performance.now();
process.stdout.write(JSON.stringify({ ...ba.timings, module: loaded - started, trial: played - loaded, refused }),
  () => process.exit(0));
"""


def sizes(site: Path) -> dict[str, Any]:
    rows = []
    for path in sorted(site.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            rows.append(
                {
                    "file": path.relative_to(site).as_posix(),
                    "bytes": len(data),
                    "gzip": len(gzip.compress(data, 9)),
                }
            )

    def part(prefix: str) -> dict[str, int]:
        chosen = [r for r in rows if r["file"].startswith(prefix)]
        return {"bytes": sum(r["bytes"] for r in chosen), "gzip": sum(r["gzip"] for r in chosen)}

    pages = [r for r in rows if "/" not in r["file"]]
    return {
        "files": rows,
        "runtime": part("pyodide/"),
        "wheels": part("wheels/"),
        "pages": {"bytes": sum(r["bytes"] for r in pages), "gzip": sum(r["gzip"] for r in pages)},
        "all": {"bytes": sum(r["bytes"] for r in rows), "gzip": sum(r["gzip"] for r in rows)},
    }


def node_runs(site: Path, runs: int) -> dict[str, Any]:
    script = site.parent / "trial.mjs"
    script.write_text(NODE_TRIAL, encoding="utf-8")
    found = []
    for _ in range(runs):
        done = subprocess.run(
            ["node", str(script), str(site)],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        found.append(json.loads(done.stdout))
    keys = ("runtime", "wheels", "import", "total", "trial")
    return {
        **{k: statistics.median(r[k] for r in found) / 1000 for k in keys},
        "fastest": min(r["total"] for r in found) / 1000,
        "refused": found[0]["refused"],
    }


LONG_TASKS = """
window.longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.longTasks.push(entry.duration);
}).observe({ type: "longtask", buffered: true });
"""
"""The page's tasks of 50 ms and over on its own thread, as the browser reports them."""


def chromium_load(site: Path) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    result: dict[str, Any] = {}
    profile = tempfile.mkdtemp(
        prefix="chromium-profile-"
    )  # a disk cache, as a person's browser has
    with static_host(site) as origin, sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=ARGS, headless=True
        )
        try:
            page = context.new_page()
            page.add_init_script(LONG_TASKS)
            # the bytes of every request, the library's worker's too (the page's own
            # performance entries leave the worker out); a cached answer's are negative
            sizes: list[int] = []
            context.on(
                "requestfinished",
                lambda r: sizes.append(
                    max(0, r.sizes()["responseBodySize"]) + max(0, r.sizes()["responseHeadersSize"])
                ),
            )
            for kind in ("first", "cached"):
                sizes.clear()
                started = time.monotonic()
                if kind == "first":
                    page.goto(f"{origin}/index.html")
                else:
                    page.reload()
                page.wait_for_selector("html[data-ready='true']", timeout=120_000)
                seconds = time.monotonic() - started
                transferred = sum(sizes)
                library = int(page.get_attribute("html", "data-load-ms") or 0) / 1000
                longest = page.evaluate("() => Math.max(0, ...(window.longTasks || []))") / 1000
                result[kind] = {
                    "seconds": seconds,
                    "library": library,
                    "transferred": transferred,
                    "longest_task": longest,
                }
        finally:
            context.close()
    return result


def chromium_loads(site: Path, runs: int) -> dict[str, Any]:
    """The median of ``runs`` pairs of loads (each a fresh browser profile)."""
    found = [chromium_load(site) for _ in range(runs)]
    return {
        kind: {
            key: statistics.median(run[kind][key] for run in found)
            for key in ("seconds", "library", "transferred")
        }
        | {"longest_task": max(run[kind]["longest_task"] for run in found)}
        for kind in ("first", "cached")
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pyodide", default=str(ROOT / "web" / "node_modules" / "pyodide"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        site = Path(folder) / "site"
        manifest = build_web(site, pyodide=args.pyodide)
        figures = {
            "machine": f"{platform.machine()}, {platform.system()}, {platform.python_version()}",
            "pyodide": manifest["pyodide"],
            "sizes": sizes(site),
            "node": node_runs(site, args.runs),
            "chromium": chromium_loads(site, args.runs),
        }
    mb = 1e6
    s = figures["sizes"]
    print(f"Pyodide {figures['pyodide']} on {figures['machine']}")
    for part in ("runtime", "wheels", "pages", "all"):
        print(f"  {part:8} {s[part]['bytes'] / mb:6.2f} MB, gzip {s[part]['gzip'] / mb:5.2f} MB")
    for row in sorted(s["files"], key=lambda r: -r["bytes"])[:8]:
        print(f"    {row['file']:45} {row['bytes'] / mb:6.2f} MB, gzip {row['gzip'] / mb:5.2f} MB")
    n = figures["node"]
    print(
        f"  node: load {n['total']:.2f} s, fastest {n['fastest']:.2f} (runtime {n['runtime']:.2f}, "
        f"wheels {n['wheels']:.2f}, import {n['import']:.2f}); new_game + 2,000 moves + a refusal ({n['refused']}) "
        f"{n['trial']:.2f} s"
    )
    for kind, c in figures["chromium"].items():
        print(
            f"  chromium {kind}: ready in {c['seconds']:.2f} s (library {c['library']:.2f} s), "
            f"{c['transferred'] / mb:.2f} MB transferred, the page's longest task "
            f"{c['longest_task']:.2f} s"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
