"""``python -m backalley``: the command line."""

from backalley.cli import main

raise SystemExit(main())
