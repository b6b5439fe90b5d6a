"""A person at the table: shows what the seat may know and reads a move.

The seat sees its hand sorted by suit, trump (and, in the play, whether it is
broken), the calls in calling order, the contracts, the last trick and the
trick so far with each card's player and who is winning it, and the score;
the first time a joker is in play, one line says what the bloopers do, in the
words of the rules sheet.  It types a move (``QS``, ``Q♠``, ``10h``,
``bid 3``, ``pass``, ``board``, ``counter``, ``trump H``) or one of the
:data:`COMMANDS` (``help`` lists them all).  ``help`` and the answer to
something that is not a move offer only the calls the rule set can ever
use (:func:`call_examples`: asked of its plan, never of its name).  A move
the rules refuse is refused with their reason, quoting what was typed, and
asked for again.

Two calls are asked to be confirmed before they are made, because a slip
costs a whole deal: ``board`` and a counter (``Bid board: your side must take
every trick (13). Type 'board' again or 'yes' to confirm ...``); a plain
number of tricks and ``pass`` are not.  When the seat has only one legal move
it is made for the person, with a line saying so (unless ``autoplay`` is off).

Several people may share one screen (:class:`Screen`): before a hand is
shown to another seat than the one that saw the screen last, the screen is
cleared and handed on (``Pass to West and press Enter``).

Input that is not a terminal is read a bounded line at a time: a line longer
than :data:`MAX_LINE` characters ends the input, like its end.

One module, one job: a person's seat on the command line - what it shows, and
the move or command it reads.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import TextIO

from backalley import (
    Bid,
    BoardBid,
    Card,
    Counter,
    Move,
    Pass,
    Phase,
    Play,
    PlayerView,
    RuleSet,
    Suit,
    parse_move,
)
from backalley.bots import bot_names, make_bot
from backalley.cli.arguments import is_terminal
from backalley.cli.text import TextTable, normalize_input
from backalley.errors import IllegalMoveError, NotationError
from backalley.rules.plan import Plan
from backalley.rules.sheet import describe_part

__all__ = [
    "COMMANDS",
    "EndOfInput",
    "HumanPlayer",
    "Screen",
    "blooper_note",
    "call_examples",
    "help_lines",
]

Read = Callable[[str], "str | None"]
Write = Callable[[str], None]

COMMANDS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("?", ("moves", "legal"), "your legal moves, in the order of your hand"),
    ("hand", ("show", "table"), "the table again: your hand, trump, calls, tricks, score"),
    ("hint", (), "what the heuristic bot would play here"),
    ("help", ("h",), "this list"),
    ("quit", ("exit",), "stop the game with the score so far, like Ctrl-D or Ctrl-C"),
)
"""Every command a person may type besides a move: the word, its other
spellings, and what it does (``help`` shows this table)."""

CONFIRM_WORDS = ("yes", "y")
"""Answers that confirm a call asked to be confirmed (so does the call typed again)."""

MAX_LINE = 4096
"""The longest line a person's input may have, in characters (a move is a few)."""

CLEAR_SCREEN = "\033[H\033[2J\033[3J"
"""Clears a terminal and its scroll-back, so that the last hand cannot be read."""


class EndOfInput(Exception):
    """The player closed the input (end of file, Ctrl-C or ``quit``)."""


CALL_SEARCH_LIMIT = 64
"""How many points of one opening's bidding :func:`call_examples` looks at,
at most, for a call its bidding part knows but has not yet allowed."""


def call_examples(rules: RuleSet) -> tuple[str, ...]:
    """How the calls the rule set can ever use are typed, in the order
    ``bid 3``, ``pass``, ``board``, ``counter``, ``trump H``, ``trump NT``.

    Asked of the rule set's plan, never of its name or its parts' options: a
    kind of call is offered when the bidding part allows one somewhere in
    the bidding of a deal of the schedule (looked for from each opening,
    following one call of each kind at each point), and trump calls when a
    declarer names trump on a deal of the schedule."""
    plan = rules.plan
    kinds = _legal_call_kinds(plan)
    trumps: set[Suit | None] = set()
    for index, hand_size in enumerate(plan.hand_sizes):
        for dealer in range(plan.players):
            trumps.update(plan.trump_choices(plan.deal_context(index, dealer, hand_size)))
    examples = [
        text
        for kind, text in (
            (Bid, "bid 3"),
            (Pass, "pass"),
            (BoardBid, "board"),
            (Counter, "counter"),
        )
        if kind in kinds
    ]
    if trumps - {None}:
        examples.append("trump H")
    if None in trumps:
        examples.append("trump NT")
    return tuple(examples)


def _legal_call_kinds(plan: Plan) -> set[type]:
    """The kinds of call (``Bid``, ``Pass``, ...) the bidding part allows
    somewhere: from the opening of each hand size (and each first speaker),
    one call of each kind is followed at each point until every kind the
    part knows there has been allowed, or :data:`CALL_SEARCH_LIMIT` points."""
    found: set[type] = set()
    for hand_size in dict.fromkeys(plan.hand_sizes):
        for first in dict.fromkeys(plan.first_bidders):
            opening = plan.opening_node(hand_size, first)
            known = {type(call) for call in plan.known_calls(opening.ctx)}
            frontier = [opening]
            looked = 0
            while frontier and looked < CALL_SEARCH_LIMIT and not known <= found:
                node = frontier.pop(0)
                looked += 1
                if not node.open:
                    continue
                one_of_each: dict[type, Move] = {}
                for call in node.legal:
                    one_of_each.setdefault(type(call), call)
                found.update(one_of_each)
                frontier += [node.after(call) for call in one_of_each.values()]
    return found


def _confirmed_calls(examples: tuple[str, ...]) -> str:
    """Which of the calls ``examples`` ask to be confirmed, as a note."""
    asked = [
        name for word, name in (("board", "board"), ("counter", "counters")) if word in examples
    ]
    if not asked:
        return ""
    return f"  ({' and '.join(asked)} {'asks' if asked == ['board'] else 'ask'} you to confirm)"


def help_lines(rules: RuleSet) -> list[str]:
    """What ``help`` shows: how moves are typed (the calls ``rules`` can
    ever use, :func:`call_examples`), then every command of :data:`COMMANDS`."""
    calls = call_examples(rules)
    lines = ["Type a move:", "  a card      QS, Q\u2660, 10h, BJ (or play QS)"]
    if calls:
        lines.append(f"  a call      {', '.join(calls)}{_confirmed_calls(calls)}")
    lines.append("Or a command:")
    for word, others, what in COMMANDS:
        also = f" (also {', '.join(others)})" if others else ""
        lines.append(f"  {word:<11} {what}{also}")
    return lines


def blooper_note(rules: RuleSet) -> str:
    """One line on the jokers (the bloopers): the sentences of the rules
    sheet's ranking and follow paragraphs (:func:`~backalley.rules.sheet.describe_part`)
    that name a blooper, so that it says what this rule set says and nothing else."""
    sentences = []
    for part in (rules.ranking, rules.follow):
        text = " ".join(describe_part(part, rules).split())
        sentences += [s for s in re.split(r"(?<=\.)\s+", text) if "Blooper" in s]
    if not sentences:
        return "Bloopers: the jokers BJ and LJ; 'backalley rules' says how they rank."
    return "Bloopers: " + " ".join(sentences)


class Screen:
    """The one screen the human seats of a game share.

    With more than one person at it, a hand is shown to a seat only after the
    screen is cleared (``clear``) and handed on: ``Pass to West and press
    Enter``.  With one person, nothing is cleared."""

    def __init__(self, read: Read, write: Write, *, people: int = 1, clear: Write | None = None):
        self.read = read
        self.write = write
        self.people = people
        self.clear = clear
        self.seat: int | None = None
        """The seat whose hand the screen shows (or showed last)."""

    def hand_to(self, seat: int, name: str) -> bool:
        """Make the screen ``seat``'s: hide the hand on it and wait for the
        person of ``seat`` (when several people share it).  Whether it was
        handed on (so that what the game told before may be gone)."""
        if self.people < 2 or self.seat == seat:
            self.seat = seat
            return False
        if self.clear is not None and self.seat is not None:
            self.clear(CLEAR_SCREEN)
        self.write("")
        answer = self.read(f"Pass to {name} and press Enter ")
        if answer is None or answer.strip().lower() in ("quit", "exit"):
            raise EndOfInput
        self.seat = seat
        return True


class HumanPlayer:
    """Asks a person for the moves of one seat, through ``read`` and ``write``."""

    def __init__(
        self,
        table: TextTable,
        read: Read,
        write: Write,
        *,
        seed: object = None,
        autoplay: bool = True,
        screen: Screen | None = None,
    ) -> None:
        self.table = table
        self.read = read
        self.write = write
        self.seed = seed
        self.autoplay = autoplay
        self.screen = screen or Screen(read, write)
        self._bloopers_told = False
        self._forced_told = False

    # ----------------------------------------------------------- showing

    def show(self, view: PlayerView, *, deal: bool = True) -> None:
        """What the seat may know now; with ``deal``, first which deal this
        is (the game's telling says so at the start of each deal, so the
        seat's turn leaves it out unless the screen was handed on)."""
        t = self.table
        self.write("")
        if deal:
            deals = len(view.rules.schedule.hand_sizes)
            self.write(
                f"  Deal {view.deals_played + 1} of {deals}: {view.hand_size} "
                f"{'card' if view.hand_size == 1 else 'cards'}, dealt by {t.seat(view.dealer)}"
            )
        self.write(f"  {t.seat(view.seat)}, your hand: {t.hand(view.hand, view.trump)}")
        self.write(f"  Trump: {self._trump(view)}")
        calls = t.calls(view.first_bidder, view.calls)
        if view.phase is Phase.BIDDING:
            self.write("  Bids so far: " + (calls or "none"))
        else:
            contracts = view.contracts or ()
            parts = [f"{t.side(s)} {t.contract(c)}" for s, c in enumerate(contracts)]
            self.write(f"  Bids: {calls}; contracts: " + ", ".join(parts))
            won = [f"{t.side(s)} {n}" for s, n in enumerate(self._side_tricks(view))]
            self.write("  Tricks: " + ", ".join(won))
        if view.phase is Phase.PLAYING:
            if view.tricks:
                last = view.tricks[-1]
                self.write(f"  Last trick: {t.plays(last.plays)}; won by {t.seat(last.winner)}")
            if view.trick:
                self.write(f"  Trick so far: {t.plays(view.trick)}; {self._winning(view)}")
            else:
                self.write("  Trick so far: none, you lead")
        self.write(f"  Score: {t.scores(view.scores)}")
        self._tell_bloopers(view)

    def _tell_bloopers(self, view: PlayerView) -> None:
        """The bloopers explained, the first time this seat sees a joker."""
        if not self._bloopers_told and _joker_in_play(view):
            self._bloopers_told = True
            self.write("  " + blooper_note(view.rules))

    def _trump(self, view: PlayerView) -> str:
        t = self.table
        text = t.suit(view.trump) if view.trump_known else "not named yet"
        if view.turn_up is not None:
            text += f" (turn-up {t.card(view.turn_up)})"
        if view.phase is Phase.PLAYING and view.trump is not None:
            text += ", broken" if view.trump_broken else ", not broken yet"
        return text

    def _winning(self, view: PlayerView) -> str:
        """Who wins the trick so far, as the rule set's ranking answers."""
        cards = tuple(card for _seat, card in view.trick)
        position = view.rules.ranking.trick_winner(cards, view.trump)
        return f"{self.table.seat(view.trick[position][0])} is winning"

    def _side_tricks(self, view: PlayerView) -> list[int]:
        won = view.tricks_won
        return [sum(won[s] for s in team) for team in self.table.teams]

    # ----------------------------------------------------------- choosing

    def choose(self, view: PlayerView) -> Move:
        """The seat's move: made for the person when it is the only legal one
        (``autoplay``), else asked for until the rules accept it."""
        t = self.table
        me = t.seat(view.seat)
        legal = view.legal_moves()
        if self.autoplay and len(legal) == 1:
            self._forced(me, legal[0])
            self._tell_bloopers(view)
            return legal[0]
        handed_on = self.screen.hand_to(view.seat, me)
        self.show(view, deal=handed_on)
        prompt = f"{me}> "
        pending: str | None = None
        while True:
            text = pending if pending is not None else self.read(prompt)
            pending = None
            if text is None:
                raise EndOfInput
            typed = _typed(text)
            if not typed:
                continue
            if self._command(typed.lower(), view):
                continue
            move = self._move(typed, view)
            if move is None:
                continue
            question = self._confirmation(move, view)
            if question is None:
                return move
            self.write("  " + question)
            answer = self.read("  Confirm> ")
            if answer is None:
                raise EndOfInput
            if _confirms(answer, move):
                return move
            self.write(f"  No {t.move(move)}: choose again.")
            if _typed(answer).lower() not in ("", "no", "n"):
                pending = answer

    def _forced(self, me: str, move: Move) -> None:
        card = isinstance(move, Play)
        what = "card" if card else "call"
        line = f"  {me} {'plays' if card else 'calls'} {self.table.move(move)}, "
        line += f"the only {what} {me} may {'play' if card else 'make'} now"
        if not self._forced_told:
            self._forced_told = True
            line += " (made for you; with --no-autoplay you type it yourself)"
        self.write(line + ".")

    def _command(self, word: str, view: PlayerView) -> bool:
        """Carry out the command ``word``; ``False`` when it is none."""
        command = next((c for c, others, _ in COMMANDS if word == c or word in others), None)
        if command is None:
            return False
        if command == "quit":
            raise EndOfInput
        if command == "?":
            moves = view.legal_moves()
            cards = self.table.in_hand_order(
                [m.card for m in moves if isinstance(m, Play)], view.trump
            )
            shown = [self.table.move(m) for m in moves if not isinstance(m, Play)]
            shown += [self.table.card(c) for c in cards]
            self.write("  Legal: " + ", ".join(shown))
        elif command == "help":
            for line in help_lines(view.rules):
                self.write("  " + line)
        elif command == "hand":
            self.show(view)
        else:
            self.write("  " + self.hint(view))
        return True

    def _move(self, typed: str, view: PlayerView) -> Move | None:
        """The move ``typed`` names, if the rules allow it now; else ``None``,
        the reason written, quoting what was typed."""
        try:
            move = parse_move(typed)
        except NotationError as exc:
            why = _quoting(str(exc), typed)
            lead = f"{typed!r} is not a move"
            why = why[len(lead) :].lstrip(";: ") if why.startswith(lead) else why
            if why.startswith("write "):  # the notation's list of every kind of move
                calls = [f"'{c}'" for c in call_examples(view.rules)]
                why = "write a card ('QS', 'play QS')"
                why += f" or a call ({', '.join(calls)})" if calls else ""
            self.write(
                f"  Not a move: {typed!r}: {why}. Type '?' for your legal moves, 'help' for more."
            )
            return None
        try:
            view.check(move)
        except IllegalMoveError as exc:
            why = self.table.sentence(str(exc))
            self.write(f"  Refused: {typed!r}: {why}")
            return None
        return move

    def _confirmation(self, move: Move, view: PlayerView) -> str | None:
        """What a call that is asked to be confirmed commits to, or ``None``."""
        partners = self.table.partnerships
        again = f"Type '{self.table.move(move)}' again or 'yes' to confirm, anything else to "
        again += "choose again."
        if isinstance(move, BoardBid):
            who = "your side must" if partners else "you must"
            return f"Bid board: {who} take every trick ({view.hand_size}). {again}"
        if isinstance(move, Counter):
            at = "the next multiplier" if move.multiplier is None else f"x{move.multiplier}"
            who = "your side takes" if partners else "you take"
            return f"Counter: {who} over the contract of the other side at {at}. {again}"
        return None

    def hint(self, view: PlayerView) -> str:
        """What the heuristic bot would play here."""
        if "heuristic" not in bot_names():
            return "No hint: the heuristic bot is not available."
        bot = make_bot("heuristic", seed=self.seed)
        return f"The heuristic bot would play: {self.table.move(bot.choose(view))}"


def _typed(text: str) -> str:
    """What a person typed, without the invisible emoji variation selectors
    some keyboards add after a suit symbol (the symbols themselves stay)."""
    return text.replace("\ufe0f", "").replace("\ufe0e", "").strip()


def _quoting(message: str, typed: str) -> str:
    """``message`` quoting each word as ``typed`` rather than as its letters
    (``'♠Q'``, not ``'SQ'``)."""
    for word in typed.split():
        letters = normalize_input(word)
        if letters != word:
            for form in dict.fromkeys((letters, letters.upper(), letters.lower())):
                message = message.replace(repr(form), repr(word))
    return message


def _confirms(answer: str, move: Move) -> bool:
    word = _typed(answer).lower()
    if word in CONFIRM_WORDS:
        return True
    try:
        return parse_move(word) == move
    except NotationError:
        return False


def _joker_in_play(view: PlayerView) -> bool:
    """Whether the seat sees a joker: in its hand, turned up, put out, or played this deal."""
    seen: list[Card] = [*view.hand, *view.discards, *(c for _s, c in view.trick)]
    seen += [c for trick in view.tricks for c in trick.cards]
    if view.turn_up is not None:
        seen.append(view.turn_up)
    return any(card.rank.is_joker for card in seen)


def line_reader(stream: TextIO, out: TextIO) -> Callable[[str], str | None]:
    """Reads a line from ``stream`` after writing the prompt to ``out``
    (``None`` at the end of input; Ctrl-C raises ``KeyboardInterrupt``).

    From a stream that is not a terminal a line is read bounded (see
    :func:`read_line`): a line longer than :data:`MAX_LINE` characters, or
    bytes that are not text in the stream's encoding, end the input (said
    on ``out``), so ``< /dev/zero`` stops the game instead of filling memory."""

    if stream is sys.stdin and is_terminal(stream) and is_terminal(out):

        def read_terminal(prompt: str) -> str | None:
            try:
                return input(prompt)
            except EOFError:
                out.write("\n")
                return None
            except UnicodeDecodeError:  # asked again: the empty line is skipped
                out.write("  That was not text in the terminal's encoding.\n")
                return ""

        return read_terminal

    def read(prompt: str) -> str | None:
        out.write(prompt)
        out.flush()
        try:
            line = read_line(stream)
        except UnicodeDecodeError:
            _input_ends(out, "The input is not text")
            return None
        if line is None:
            out.write("\n")
            return None
        if len(line) > MAX_LINE:
            _input_ends(out, f"A line of more than {MAX_LINE} characters")
            return None
        return line

    return read


def _input_ends(out: TextIO, why: str) -> None:
    """Say on ``out`` why the input ends here."""
    out.write(f"\n  {why}: the input ends here.\n")


def read_line(stream: TextIO) -> str | None:
    """The next line of ``stream`` without its line end (``None`` at the end
    of input), reading at most :data:`MAX_LINE` ``+ 1`` characters: a line
    longer than ``MAX_LINE`` comes back as its first ``MAX_LINE + 1``
    characters (so longer than ``MAX_LINE``), the rest left unread."""
    line = stream.readline(MAX_LINE + 1)
    if not line:
        return None
    return line[:-1] if line.endswith("\n") else line
