"""A bot program for the tests of the bot protocol, misbehaving on request.

``python protocol_bot.py MODE [LOG]``: it speaks the protocol and plays the
first legal move, except as MODE says:

- ``good``: never misbehaves;
- ``illegal``: every move it answers is one its seat may not make (a card
  it does not hold);
- ``timeout``: never answers a turn;
- ``crash``: exits at its third turn;
- ``garbage``: answers every turn with a line that is not JSON;
- ``huge``: answers its first turn with a line of two megabytes;
- ``silent``: never answers the hello;
- ``late``: answers each turn after a second (too late), then the same turn's
  stale answer comes first at the next turn;
- ``wrong-version``: says it speaks version 99;
- ``flood``: after each move, writes a thousand answers to a turn that never
  was (the library sets them aside; the program waits on its full pipe).

With LOG, every line it reads is appended to the file LOG.
"""

import json
import sys
import time

MODE = sys.argv[1]
LOG = sys.argv[2] if len(sys.argv) > 2 else None
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def not_held(view):
    held = set(view["hand"])
    for suit in "CDHS":
        for rank in RANKS:
            if rank + suit not in held:
                return "play " + rank + suit
    raise AssertionError("every card is held")


def main():
    turns = 0
    for line in sys.stdin:
        if LOG:
            with open(LOG, "a", encoding="utf-8") as log:
                log.write(line)
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if MODE == "silent":
                continue
            version = 99 if MODE == "wrong-version" else 1
            send(
                {
                    "type": "hello",
                    "protocol": "backalley-bot",
                    "version": version,
                    "name": "protocol test bot " + MODE,
                    "options": {"depth": 2},
                }
            )
        elif kind == "game":
            send({"type": "ready"})
        elif kind in ("turn", "refused"):
            if kind == "turn":
                turns += 1
                view = message["view"]
            if MODE == "timeout":
                continue
            if MODE == "crash" and turns == 3:
                sys.exit(3)
            if MODE == "garbage":
                sys.stdout.write("this is not a move\n")
                sys.stdout.flush()
                continue
            if MODE == "huge":
                sys.stdout.write('{"type": "move", "move": "' + "x" * 2_000_000 + '"}\n')
                sys.stdout.flush()
                continue
            if MODE == "illegal":
                send({"type": "move", "id": message["id"], "move": not_held(view)})
                continue
            if MODE == "late" and kind == "turn":
                time.sleep(1.0)
            send({"type": "move", "id": message["id"], "move": view["legal_moves"][0]})
            if MODE == "flood":
                for _ in range(1000):
                    send({"type": "move", "id": 10**9, "move": "pass"})
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
