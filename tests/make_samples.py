"""Write the sample outputs the documentation shows, from real runs.

    python3 tests/make_samples.py            # rewrite every shown output
    python3 tests/make_samples.py --check    # only say which pages are out of date

Two kinds of shown output (see :mod:`tests.docpages`):

- the output after a ``$`` line of a console block, on every page (the
  first lines up to a ``...`` and the last lines after it, as many as the
  page shows now, or all of it);
- a sample: a code block after a marker comment naming the command and,
  optionally, the lines of its output to show (``...`` is written where
  lines are left out)::

      .. sample: backalley play --seed 1
         :lines: 1-9, 20-23

  or, in Markdown, ``<!-- sample: backalley play --seed 1`` and
  ``:lines: 1-9, 20-23 -->``.

Each page's commands run in page order in a scratch folder, as a reader
would type them (``tests/docs/test_docs_examples.py`` runs them the same way and
fails when a page shows anything else).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tests.docpages import PAGES, ROOT, commands_of, rewrite, run_page, samples_of  # noqa: E402


def pages_showing_output() -> list[Path]:
    """The pages with a shown output to write."""
    return [
        page
        for page in PAGES
        if samples_of(page) or any(c.output is not None for c in commands_of(page))
    ]


def render(page: Path) -> str:
    """The page's text with every shown output written from a real run."""
    with tempfile.TemporaryDirectory(prefix="samples-") as folder:
        return rewrite(page, run_page(page, Path(folder)))


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for page in pages_showing_output():
        text = render(page)
        if text == page.read_text(encoding="utf-8"):
            continue
        stale.append(page)
        if not check:
            page.write_text(text, encoding="utf-8")
            print(f"wrote {page.relative_to(ROOT)}")
    if check and stale:
        print("out of date: " + ", ".join(str(p.relative_to(ROOT)) for p in stale))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
