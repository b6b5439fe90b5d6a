#!/usr/bin/env python3
"""A small Back Alley bot speaking the bot protocol (JSON lines on stdin and
stdout), with nothing but Python's standard library.

Its play: during the bidding the first legal call the view lists (the
library lists a pass, or the smallest bid, first), then the first legal
move the view lists (the lowest legal card).  A real bot would read the
view's hand and public facts and choose better.

Run it in a game:

    backalley simulate --external first=python3 examples/bots/first_legal.py \\
        --players first,heuristic --games 25
"""

import json
import sys


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose(view):
    """The move to make: the first of the view's legal moves."""
    return view["legal_moves"][0]


def main():
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            send(
                {
                    "type": "hello",
                    "protocol": "backalley-bot",
                    "version": 1,
                    "name": "first-legal (Python)",
                    "author": "the backalley developers",
                    "options": {},
                }
            )
        elif kind == "game":
            send({"type": "ready"})
        elif kind == "turn":
            send({"type": "move", "id": message["id"], "move": choose(message["view"])})
        elif kind == "refused":  # cannot happen with a legal move; answer again anyway
            send({"type": "move", "id": message["id"], "move": "pass"})
        elif kind == "quit":
            return
        # deal_end, game_end and error are notices: nothing to answer


if __name__ == "__main__":
    main()
