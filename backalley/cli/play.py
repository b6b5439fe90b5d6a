"""``backalley play``: watch a whole game between bots, or play in it.

Every deal is told as it is played (see :mod:`backalley.cli.watch`);
``--quiet`` prints one line per deal.  ``--human SEAT`` (several allowed)
seats a person, who sees only that seat's view and types its moves (see
:mod:`backalley.cli.human`).  End of input, ``quit`` or Ctrl-C stop the game
with the score so far, and ``--record`` still writes the record of the moves
played.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TextIO

from backalley import GameRecord, GameState, Move, new_game, to_json
from backalley.bots import Bot, check_throw_ins, make_bot
from backalley.cli.common import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    UsageError,
    load_rules,
    player_names,
    utf8,
    writable_path,
)
from backalley.cli.human import EndOfInput, HumanPlayer, line_reader
from backalley.cli.text import Table
from backalley.cli.watch import Narrator

__all__ = ["add_parser", "run", "seat_of"]


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = sub.add_parser(
        "play",
        help="watch a whole game between bots, or play in it (--human SEAT)",
        description="Play a whole game and tell it deal by deal, trick by trick.",
    )
    play.add_argument(
        "--variant",
        default="gamerules",
        metavar="NAME|FILE",
        help="variant name or house-rules file",
    )
    play.add_argument(
        "--seed", type=int, default=None, metavar="N", help="seed for all chance (default: random)"
    )
    play.add_argument(
        "--players",
        default=None,
        metavar="A,B,C,D",
        help="bot names per seat, comma separated; one name fills every seat "
        "(default: heuristic where available, else random)",
    )
    play.add_argument(
        "--human",
        action="append",
        default=[],
        metavar="SEAT",
        help="seat a person here: north/east/south/west (n/e/s/w) or a seat number 1..n "
        "(may be given more than once)",
    )
    play.add_argument(
        "--record", default=None, metavar="FILE", help="write the game record (JSON) to this file"
    )
    play.add_argument("--quiet", "-q", action="store_true", help="one line per deal")
    play.add_argument("--ascii", action="store_true", help="letters for suits (QS), not symbols")
    play.add_argument(
        "--hands", action="store_true", help="show every dealt hand (not with --human)"
    )
    play.set_defaults(run=run)


def seat_of(text: str, table: Table) -> int:
    """A seat from its name (``south``, ``s``, ``seat 3``) or number 1..n."""
    key = text.strip().lower().replace("seat", "").strip()
    for seat, name in enumerate(table.seat_names):
        if key in (name.lower(), name.lower()[:1]) and not key.isdigit():
            return seat
    if key.isdigit() and 1 <= int(key) <= table.players:
        return int(key) - 1
    names = ", ".join(n.lower() for n in table.seat_names)
    raise UsageError(f"--human {text}: not a seat; use {names} or a number 1..{table.players}")


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    rules = load_rules(args.variant)
    table = Table(rules, ascii=args.ascii or not utf8(out))
    humans = sorted({seat_of(h, table) for h in args.human})
    if humans and args.hands:
        raise UsageError("--hands shows every hand, so it cannot be used with --human")
    names = player_names(args.players, rules.players)
    for seat in humans:
        names[seat] = "human"
    record_path = writable_path(args.record, "--record") if args.record else None
    state = new_game(rules, seed=args.seed)

    def write(line: str) -> None:
        print(line, file=out, flush=bool(humans))

    read = line_reader(inp, out)
    players: list[Bot | HumanPlayer] = [
        HumanPlayer(table, read, write, seed=(state.seed, seat))
        if name == "human"
        else make_bot(name, seed=(state.seed, seat))
        for seat, name in enumerate(names)
    ]
    _header(table, state, names, write, quiet=args.quiet, secret=bool(humans))
    narrator = Narrator(table, write, show_hands=args.hands, quiet=args.quiet)
    start = state
    moves: list[Move] = []
    status = EXIT_OK
    narrator.start(state)
    try:
        while not state.is_over:
            to_act = state.to_act
            assert to_act is not None
            move = players[to_act].choose(state.view(to_act))
            after = state.apply(move)
            moves.append(move)
            narrator.step(state, move, after)
            state = after
            if "human" not in names:
                check_throw_ins(state)
    except EndOfInput:
        pass
    except KeyboardInterrupt:
        write("")
        status = EXIT_INTERRUPTED
    narrator.finish(state)
    if humans and state.is_over:  # now it may be told, so that the game can be replayed
        write(f"The seed was {state.seed}: replay the game with --seed {state.seed}.")
    if record_path is not None:
        record = GameRecord.from_game(
            start,
            moves,
            final=state,
            players=names,
            metadata={"program": "backalley play"},
        )
        record_path.write_text(to_json(record), encoding="utf-8")
        write(f"Record written to {record_path}")
    return status


def _header(
    table: Table,
    state: GameState,
    names: list[str],
    write: Callable[[str], None],
    *,
    quiet: bool,
    secret: bool,
) -> None:
    """The game's first lines.  With a human at the table the seed is not
    shown (it decides every hand) until the game is over."""
    rules = state.rules
    title = rules.name or "custom rules"
    seed = "seed hidden until the game ends" if secret else f"seed {state.seed}"
    if quiet:
        write(f"{title}: {seed}, first dealer seat {state.dealer}")
        return
    write(f"Back Alley, {title}: {seed}.")
    if table.partnerships:
        sides = [" & ".join(f"{table.seat(s)} ({names[s]})" for s in team) for team in table.teams]
        write("Partnerships: " + " against ".join(sides) + ".")
    else:
        write("Players: " + ", ".join(f"{table.seat(s)} ({n})" for s, n in enumerate(names)) + ".")
