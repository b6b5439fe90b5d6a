"""Write the shipped schema file: ``python -m backalley.io.schema``.

The file, ``backalley/io/schema/backalley.schema.json``, is the schema of the
library's own rule parts and reasons (:func:`backalley.io.schema.built_in_schema_text`),
generated from the code; with ``--check``, only say whether it is up to date
(exit status 1 if not).  ``--output PATH`` writes (or checks) another file.
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from pathlib import Path

from backalley.io import schema


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m backalley.io.schema", description=__doc__)
    parser.add_argument("--check", action="store_true", help="only compare; write nothing")
    parser.add_argument("--output", type=Path, help="the file (default: the shipped one)")
    args = parser.parse_args(argv)
    target = args.output or Path(str(resources.files(schema).joinpath(schema.SCHEMA_FILE)))
    text = schema.built_in_schema_text()
    if args.check:
        current = target.read_text(encoding="utf-8") if target.is_file() else None
        if current != text:
            print(f"{target} is out of date: run python -m backalley.io.schema", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
