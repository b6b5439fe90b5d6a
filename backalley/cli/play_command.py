"""``backalley play``: watch a whole game between bots, or play in it.

Every deal is told as it is played (see :mod:`backalley.cli.watch`);
``--quiet`` prints one line per deal.  ``--human SEAT`` (several allowed)
seats a person, who sees only that seat's view and types its moves (see
:mod:`backalley.cli.human`); several people share the screen, handed on
between their turns.  End of input, ``quit``, Ctrl-C or an output whose
reader has gone stop a game with a person in it, with the score so far.

``--record FILE`` is never lost: a game between bots is written after every
deal and when it ends or stops (an output closed early, ``| head``, only
stops the telling: the game is played out and recorded); a game with a
person in it is written once, when it ends or stops, since the record holds
the seed, which shows every hand.  A record that cannot be written is an
error (status 2), never a silent success.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TextIO

from backalley import GameState, Move, new_game
from backalley.bots import Bot, bot_notes, check_throw_ins, close_bots, make_bot, tell_game_over
from backalley.cli.arguments import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    UsageError,
    is_terminal,
    load_rules,
    player_names,
    seat_option,
    utf8,
    writable_path,
)
from backalley.cli.human import EndOfInput, HumanPlayer, Screen, line_reader
from backalley.cli.output import Output, RecordFile
from backalley.cli.text import TextTable
from backalley.cli.watch import Narrator

__all__ = ["add_parser", "run"]


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
        help="bot names per seat, comma separated; one name fills every seat, and one "
        "per side each side's seats (default: heuristic where available, else random)",
    )
    play.add_argument(
        "--human",
        action="append",
        default=[],
        metavar="SEAT",
        help="seat a person here: north/east/south/west (n/e/s/w), 'seat 3' where seats are "
        "numbered, or the library's seat number 0..n-1 (may be given more than once)",
    )
    play.add_argument(
        "--no-autoplay",
        dest="autoplay",
        action="store_false",
        help="a person types even a move that is the only legal one (by default it is "
        "played for them)",
    )
    play.add_argument(
        "--record",
        default=None,
        metavar="FILE",
        help="write the game record to this file (JSON; the record notation, text people "
        "read, where FILE ends .bar): between bots after every deal and at the end; with a "
        "person at the table only when the game ends or stops",
    )
    play.add_argument("--quiet", "-q", action="store_true", help="one line per deal")
    play.add_argument("--ascii", action="store_true", help="letters for suits (QS), not symbols")
    play.add_argument(
        "--hands", action="store_true", help="show every dealt hand (not with --human)"
    )
    play.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    """Play the game the options describe, telling it on ``out`` and reading
    the people's moves from ``inp``; 0 when it ends or a person stops it,
    130 after Ctrl-C (the record written in every case)."""
    rules = load_rules(args.variant)
    table = TextTable(rules, ascii=args.ascii or not utf8(out))
    humans = sorted({seat_option(rules, h, "--human") for h in args.human})
    if humans and args.hands:
        raise UsageError("--hands shows every hand, so it cannot be used with --human")
    names = player_names(args.players, rules.players, teams=rules.teams)
    for seat in humans:
        names[seat] = "human"
    record_path = writable_path(args.record, "--record") if args.record else None
    state = new_game(rules, seed=args.seed)
    output = Output(out, flush=bool(humans))
    write = output.line
    read = line_reader(inp, out)
    clear = output.raw if is_terminal(out) else None
    screen = Screen(read, write, people=len(humans), clear=clear)
    players: list[Bot | HumanPlayer] = [
        HumanPlayer(
            table, read, write, seed=(state.seed, seat), autoplay=args.autoplay, screen=screen
        )
        if name == "human"
        else make_bot(name, seed=(state.seed, seat))
        for seat, name in enumerate(names)
    ]
    record = None if record_path is None else RecordFile(record_path, state, names)
    narrator = Narrator(table, write, show_hands=args.hands, quiet=args.quiet)
    moves: list[Move] = []
    status = EXIT_OK
    try:
        _header(table, state, names, write, quiet=args.quiet, secret=bool(humans))
        narrator.start(state)
        while not state.is_over and not (humans and output.closed):
            before = state
            to_act = before.to_act
            assert to_act is not None
            move = players[to_act].choose(before.view(to_act))
            state = before.apply(move)
            moves.append(move)
            narrator.step(before, move, state)
            if not humans:
                check_throw_ins(state)
                if record is not None and state.deals_played > before.deals_played:
                    record.save(state, moves, bot_notes(players))
        if state.is_over:
            tell_game_over(players, state)
    except EndOfInput:
        pass
    except BrokenPipeError:  # a prompt found the reader gone
        output.close()
    except KeyboardInterrupt:
        write("")
        status = EXIT_INTERRUPTED
    finally:
        close_bots(players)
        if record is not None:  # whatever stopped the game
            record.save(state, moves, bot_notes(players))
    narrator.finish(state)
    if humans and state.is_over:  # now it may be told, so that the game can be replayed
        write(f"The seed was {state.seed}: replay the game with --seed {state.seed}.")
    if record_path is not None:
        write(f"Record written to {record_path}")
    output.finish()
    return status


def _header(
    table: TextTable,
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
        write(f"{title}: {seed}, first dealer {table.seat(state.dealer)}")
        return
    write(f"Back Alley, {title}: {seed}.")
    if table.partnerships:
        sides = [" & ".join(f"{table.seat(s)} ({names[s]})" for s in team) for team in table.teams]
        write("Partnerships: " + " against ".join(sides) + ".")
    else:
        write("Players: " + ", ".join(f"{table.seat(s)} ({n})" for s, n in enumerate(names)) + ".")
