"""A person at the table in ``backalley play``: what the screen shows, what
it asks, and records that are never lost (through the input stream, through a
pseudo-terminal, and through a pipe closed early)."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

import backalley as ba
from backalley.cli import main
from backalley.cli.human import COMMANDS, HumanPlayer, blooper_note
from backalley.cli.text import TextTable

from .. import ROOT

SHORT = {
    "format": "backalley/rules",
    "name": "short",
    "base": "gamerules",
    "schedule": {"hand_sizes": [3, 1]},
}
COMPASS = ("North", "East", "South", "West")
PROMPT = re.compile(r"(?:North|East|South|West)> ")


@pytest.fixture
def short(tmp_path: Path) -> str:
    path = tmp_path / "short.json"
    path.write_text(json.dumps(SHORT), encoding="utf-8")
    return str(path)


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


class Person(io.StringIO):
    """Types the ``script`` lines, one per prompt, then (``then="legal"``)
    asks for the legal moves and types the first of them at every prompt,
    pressing Enter when the screen is handed on; the input ends when the
    script is done and ``then`` is ``"stop"``."""

    def __init__(self, screen: io.StringIO, script: list[str], then: str = "legal") -> None:
        super().__init__()
        self.screen = screen
        self.script = list(script)
        self.then = then

    def readline(self, size: int | None = -1) -> str:
        if self.script:
            return self.script.pop(0) + "\n"
        if self.then == "stop":
            return ""
        text = self.screen.getvalue()
        if text.endswith("and press Enter "):
            return "\n"
        if text.endswith("Confirm> "):
            return "yes\n"
        answer = PROMPT.split(text)[-2] if len(PROMPT.split(text)) > 1 else ""
        if "Legal: " not in answer:
            return "?\n"
        return answer.split("Legal: ")[1].splitlines()[0].split(", ")[0] + "\n"


def play(*argv: str, script: list[str] | None = None, then: str = "legal") -> tuple[int, str]:
    screen = io.StringIO()
    status = main(["play", *argv], out=screen, inp=Person(screen, script or [], then))
    return status, screen.getvalue()


def record_of(path: Path) -> ba.GameRecord:
    return ba.from_json(path.read_text(encoding="utf-8"), ba.GameRecord)


def backalley(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backalley", *args],
        cwd=ROOT, env=env(), capture_output=True, text=True, timeout=120,
    )  # fmt: skip


# --------------------------------------------------------- calls and commands


def test_board_is_bid_only_when_confirmed(tmp_path: Path, short: str) -> None:
    """`board` (typed looking for the table) asks first; anything else is read
    as the next thing typed (here `hand`, which redraws the table); the call
    is made once confirmed with `yes` (or `board` again)."""
    for confirm in ("yes", "board"):
        path = tmp_path / f"{confirm}.json"
        status, output = play(
            "--variant", short, "--seed", "6", "--human", "south", "--players", "random",
            "--record", str(path), script=["board", "hand", "board", confirm], then="stop",
        )  # fmt: skip
        assert status == 0
        asked = (
            "Bid board: your side must take every trick (3). Type 'board' again or 'yes' "
            "to confirm, anything else to choose again."
        )
        assert output.count(asked) == 2
        first, second = output.split(asked)[1:3]
        assert "No board: choose again." in first and "South, your hand: " in first
        assert "No board" not in second
        record = record_of(path)
        states = ba.replay(record)
        south = [move for state, move in zip(states, record.moves) if state.to_act == 2]
        assert south == [ba.BoardBid()]


def test_no_cancels_a_board_and_a_plain_bid_is_not_asked(tmp_path: Path, short: str) -> None:
    path = tmp_path / "game.json"
    status, output = play(
        "--variant", short, "--seed", "6", "--human", "south", "--players", "random",
        "--record", str(path), script=["board", "no", "bid 1"], then="stop",
    )  # fmt: skip
    assert status == 0
    assert "No board: choose again." in output and "Not a move" not in output
    assert output.count("Confirm> ") == 1
    assert ba.Bid(1) in record_of(path).moves


def test_help_lists_every_command_and_each_one_works(short: str) -> None:
    words = [w for word, others, _ in COMMANDS for w in (word, *others) if word != "quit"]
    status, output = play(
        "--variant", short, "--seed", "6", "--human", "south", "--players", "random",
        script=["help", *words], then="stop",
    )  # fmt: skip
    assert status == 0
    helped = output.split("South> ")[1]
    for word, others, what in COMMANDS:
        line = next(line for line in helped.splitlines() if line.strip().startswith(word + " "))
        assert what in line and all(other in line for other in others)
    for example in ("QS", "bid 3", "pass", "board"):
        assert example in helped
    assert "a call      bid 3, pass, board  (board asks you to confirm)" in helped
    moves = helped.split("Or a command:")[0]
    assert "counter" not in moves and "trump" not in moves, "calls gamerules never uses"
    assert "Not a move" not in output
    assert output.count("  Legal: ") == 3  # ?, moves, legal
    assert output.count("South, your hand: ") == 1 + 3  # the first show, hand, show, table
    status, output = play(
        "--variant", short, "--seed", "6", "--human", "south", "--players", "random",
        script=["exit"], then="stop",
    )  # fmt: skip
    assert status == 0 and "Stopped after 0 deals" in output


def test_help_and_not_a_move_offer_only_the_calls_the_rules_can_use(tmp_path: Path) -> None:
    """gamerules: bids, pass and board, never counters nor a trump call; the
    Vietnam auction: counters and trump calls, never board; asked of the rule
    set, so a house rule that takes passes away is followed too."""
    offered = {}
    for name, variant in (
        ("gamerules", "gamerules"),
        ("vietnam", "vietnam"),
        ("no-pass", _house(tmp_path, "[bidding]\npass_allowed = false\n")),
    ):
        status, output = play(
            "--variant", variant, "--seed", "3", "--human", "south", "--players", "random",
            script=["help", "hello"], then="stop",
        )  # fmt: skip
        assert status == 0
        helped = output.split("Type a move:")[1]
        offered[name] = re.search(r"  a call      (.*)", helped).group(1)  # type: ignore[union-attr]
        refused = re.search(r"Not a move: 'hello': (.*)", output).group(1)  # type: ignore[union-attr]
        calls = offered[name].split("  (")[0].split(", ")
        assert refused.startswith(
            "write a card ('QS', 'play QS') or a call ("
            + ", ".join(f"'{c}'" for c in calls)
            + "). Type '?'"
        ), refused
    assert offered["gamerules"] == "bid 3, pass, board  (board asks you to confirm)"
    assert offered["vietnam"] == "bid 3, pass, counter, trump H  (counters ask you to confirm)"
    assert offered["no-pass"] == "bid 3, board  (board asks you to confirm)"


def _house(folder: Path, text: str) -> str:
    path = folder / "house.toml"
    path.write_text('name = "house"\n' + text, encoding="utf-8")
    return str(path)


def test_the_call_examples_are_those_the_rule_set_allows_somewhere() -> None:
    """Each call offered is legal somewhere in random games of the variant,
    and each kind of call met there is offered."""
    import random

    from backalley.cli.human import call_examples

    kinds = {
        ba.Bid: "bid 3", ba.Pass: "pass", ba.BoardBid: "board", ba.Counter: "counter",
    }  # fmt: skip
    for name in ("gamerules", "vietnam", "vietnam-spades", "bab-online", "vietnam-literal"):
        rules = ba.variants.get(name)
        met: set[str] = set()
        rng = random.Random(name)
        for seed in range(20):
            state = ba.new_game(rules, seed=seed)
            while not state.is_over and state.deals_played < 2:
                moves = state.legal_moves()
                for move in moves:
                    if isinstance(move, ba.NameTrump):
                        met.add("trump NT" if move.suit is None else "trump H")
                    elif type(move) in kinds:
                        met.add(kinds[type(move)])
                state = state.apply(rng.choice(moves))
        assert set(call_examples(rules)) == met, name


def test_each_deal_is_announced_once_to_a_person(short: str) -> None:
    """The game's telling announces each deal; the person's screen does not
    announce it again (only ``hand``, asked for, shows which deal it is)."""
    status, output = play("--variant", short, "--seed", "6", "--human", "south")
    assert status == 0
    assert output.count("Deal 1 of 2") == 1
    deals = re.findall(r"^Deal \d of 2: \w+ deals", output, re.MULTILINE)  # one a thrown-in
    assert len(deals) == output.count("Deal ") - 1 >= 2, "(and the score sheet's head)"
    assert "dealt by" not in output
    status, output = play(
        "--variant", short, "--seed", "6", "--human", "south", script=["hand"], then="stop"
    )
    assert output.count("Deal 1 of 2") == 2
    assert "  Deal 1 of 2: 3 cards, dealt by " in output.split("South> ")[1]


def test_a_refusal_quotes_what_was_typed(short: str) -> None:
    status, output = play(
        "--variant", short, "--seed", "6", "--human", "south", "--players", "random",
        "--no-autoplay", script=["\u2660Q", "play \u2660Q", "Q\u2660", "bid 1", "A\u2660"],
        then="stop",
    )  # fmt: skip
    assert status == 0
    assert "Not a move: '\u2660Q': " in output
    assert "Not a move: 'play \u2660Q': '\u2660Q' is not a card" in output
    assert "Refused: 'Q\u2660': cards cannot be played yet" in output
    assert "South, your hand: \u2665 2   \u2666 4 2" in output
    assert "Refused: 'A\u2660': you do not hold A\u2660" in output
    assert "'SQ'" not in output


def test_a_refusals_sentence_names_every_card_as_the_table_shows_cards() -> None:
    """The library's sentence names cards by their letters (``not 4D``); the
    table writes each as it writes cards (``not 4♦``), in ASCII as letters."""
    sentence = "a trump was led and you hold a trump, so you must play a trump, not 4D"
    table = TextTable(ba.variants.GAMERULES)
    assert table.sentence(sentence).endswith("not 4♦")
    assert table.sentence("your highest trump, TS, then AH and BJ") == (
        "your highest trump, 10♠, then A♥ and BJ"
    )
    assert TextTable(ba.variants.GAMERULES, ascii=True).sentence(sentence) == sentence
    assert table.sentence("QSX and 4DS are not cards") == "QSX and 4DS are not cards"


# ------------------------------------------------------------ what is shown


def _deal_seats(output: str) -> list[tuple[str, list[str]]]:
    """(dealer, seats of a calls line) for each calls line of a told game."""
    found = []
    dealer = ""
    for line in output.splitlines():
        match = re.search(r"(\w+) deals|dealt by (\w+)", line)
        if match:
            dealer = match.group(1) or match.group(2)
        for label in ("  Bids so far: ", "  Bids: "):
            if line.startswith(label) and not line.startswith(label + "none"):
                calls = line[len(label) :].split(";")[0].split(", ")
                found.append((dealer, [call.split()[0] for call in calls]))
    return found


def test_calls_are_in_calling_order_on_every_screen(short: str) -> None:
    """Clockwise from the player left of the dealer (who speaks first in
    gamerules): on the person's screen, in the story and on the quiet line."""
    status, output = play("--variant", short, "--seed", "6", "--human", "south")
    assert status == 0
    seen = _deal_seats(output)
    assert any(len(seats) < 4 for _, seats in seen), "the calls so far, before all have spoken"
    for dealer, seats in seen:
        first = (COMPASS.index(dealer) + 1) % 4
        assert seats == [COMPASS[(first + k) % 4] for k in range(len(seats))], (dealer, seats)
    status, quiet = play("--seed", "3", "--players", "random", "--quiet")
    for line in quiet.splitlines()[1:-1]:
        dealer = re.search(r"(\w+) deals", line).group(1)  # type: ignore[union-attr]
        seats = [c.split()[0] for c in line.split(" | bids ")[1].split(" | ")[0].split(", ")]
        first = (COMPASS.index(dealer) + 1) % 4
        assert seats == [COMPASS[(first + k) % 4] for k in range(4)]


def test_trick_lines_name_the_player_of_each_card(tmp_path: Path) -> None:
    """Every card of the told tricks, with its player, is the record's play
    in order; the winner named leads the next trick of the deal."""
    path = tmp_path / "game.json"
    status, output = play("--seed", "2", "--players", "random", "--record", str(path), "--ascii")
    assert status == 0
    states = list(ba.replay(record_of(path)))
    plays = [
        f"{COMPASS[before.to_act]} {move.card}"  # type: ignore[index]
        for before, move in zip(states, record_of(path).moves)
        if isinstance(move, ba.Play)
    ]
    told: list[str] = []
    lines = [line for line in output.splitlines() if line.startswith("  Trick ")]
    for line, after in itertools.pairwise(lines):
        cards, winner = line.split(": ", 1)[1].split("   won by ")
        told += cards.split(", ")
        if not after.startswith("  Trick  1: "):
            assert after.split(": ", 1)[1].startswith(winner + " "), (line, after)
    told += lines[-1].split(": ", 1)[1].split("   won by ")[0].split(", ")
    assert told == plays


def _ascii_hand(line: str) -> list[str]:
    """The cards of an ASCII hand line (``BJ   S K 7   H T``), in the order shown."""
    cards = []
    for group in line.split("   "):
        words = group.split()
        if words[0] in ("BJ", "LJ"):
            cards += words
        else:
            cards += [rank + words[0] for rank in words[1:]]
    return cards


def test_the_legal_moves_are_listed_in_the_order_of_the_hand() -> None:
    table = TextTable(ba.variants.GAMERULES)
    cards = [ba.parse_card(c) for c in ["2D", "AS", "LJ", "3H", "KS", "9C", "BJ", "TH"]]
    ordered = table.in_hand_order(cards, ba.Suit.HEARTS)
    assert [str(c) for c in ordered] == ["BJ", "LJ", "TH", "3H", "AS", "KS", "9C", "2D"]
    assert (
        table.hand(cards, ba.Suit.HEARTS)
        == "BJ LJ   \u2665 10 3   \u2660 A K   \u2663 9   \u2666 2"
    )
    status, output = play("--seed", "4", "--human", "west", "--players", "random", "--ascii")
    assert status == 0
    checked = 0
    for block in output.split("West, your hand: ")[1:]:
        hand = _ascii_hand(block.splitlines()[0])
        legal = re.search(r"  Legal: (.*)", block)
        if legal is None or not any(c in hand for c in legal.group(1).split(", ")):
            continue  # the calls
        shown = legal.group(1).split(", ")
        places = [hand.index(card) for card in shown]
        assert places == sorted(places), (hand, shown)
        checked += len(shown) > 1
    assert checked > 10


def _shown(view: ba.PlayerView, player: HumanPlayer) -> list[str]:
    lines: list[str] = []
    player.write = lines.append
    player.show(view)
    return lines


def test_the_status_says_whether_trump_is_broken_and_who_is_winning_the_trick() -> None:
    """Checked against the engine: the broken flag of the view, and - for the
    last player to a trick that the last card does not win - the trick's
    winner as the engine scored it."""
    rules = ba.variants.GAMERULES
    table = TextTable(rules)
    bots = [ba.bots.make_bot("random", seed=s) for s in range(4)]
    checked = {"broken": 0, "not broken": 0, "winning": 0}
    for seed in range(3):
        state = ba.new_game(rules, seed=seed)
        pending: tuple[int, str] | None = None
        while not state.is_over and state.deals_played < 3:
            seat = state.to_act
            assert seat is not None
            if state.phase is ba.Phase.PLAYING:
                player = HumanPlayer(table, lambda p: None, lambda s: None)
                lines = _shown(state.view(seat), player)
                trump = next(line for line in lines if line.startswith("  Trump: "))
                if state.trump is not None:
                    word = "broken" if state.trump_broken else "not broken"
                    assert trump.endswith(", broken" if word == "broken" else ", not broken yet")
                    checked[word] += 1
                if len(state.trick) == 3:
                    pending = (len(state.tricks), next(
                        line for line in lines if line.startswith("  Trick so far: ")
                    ))  # fmt: skip
            before = state
            state = state.apply(bots[seat].choose(state.view(seat)))
            if pending is not None and before.phase is ba.Phase.PLAYING and len(before.trick) == 3:
                if state.deals_played == before.deals_played:
                    winner = state.tricks[pending[0]].winner
                    if winner != seat:
                        assert pending[1].endswith(f"; {COMPASS[winner]} is winning"), pending
                        checked["winning"] += 1
                pending = None
    assert all(n > 5 for n in checked.values()), checked


def test_the_bloopers_are_explained_once_in_the_sheets_words(short: str) -> None:
    note = blooper_note(ba.variants.GAMERULES)
    sheet = " ".join(backalley("rules", "gamerules").stdout.split())
    sentences = re.split(r"(?<=\.)\s+", note.removeprefix("Bloopers: "))
    assert len(sentences) >= 2 and all(s in sheet for s in sentences)
    assert "Big Blooper (BJ)" in note and "Little Blooper (LJ)" in note
    status, output = play("--seed", "1", "--human", "south", "--players", "random")
    assert status == 0 and output.count("  Bloopers: ") == 1
    before = output.split("  Bloopers: ")[0]
    turns = re.split(r"(?=  South, your hand: |  South plays )", before)
    deal = before[before.rindex("\nDeal ") :]
    assert re.search(r"\b[BL]J\b", deal), "told in a deal where the seat has seen a joker"
    looks = [turn.split("South> ")[0] for turn in turns[1:-1] if "your hand" in turn]
    assert not any(re.search(r"\b[BL]J\b", look) for look in looks), "and not later"
    status, output = play(
        "--variant", "spades-no-jokers", "--seed", "1", "--human", "south", "--players", "random"
    )
    assert status == 0 and "Bloopers" not in output


def test_a_forced_card_is_played_for_the_person_unless_autoplay_is_off(
    tmp_path: Path, short: str
) -> None:
    """The deal of one card: once bid, its card is the only legal one."""
    status, output = play("--variant", short, "--seed", "6", "--human", "south")
    assert status == 0
    forced = re.findall(r"  South plays (\S+), the only card South may play now", output)
    assert len(forced) >= 2  # the last card of each deal
    assert output.count("with --no-autoplay you type it yourself") == 1
    status, output = play("--variant", short, "--seed", "6", "--human", "south", "--no-autoplay")
    assert status == 0
    assert "the only card" not in output
    last = output[output.index("Deal 2 of 2") :]
    assert "  Legal: " in last.split("South, your hand: ")[-1]


def test_two_people_get_the_screen_one_hand_at_a_time(short: str) -> None:
    status, output = play("--variant", short, "--seed", "6", "--human", "n", "--human", "s")
    assert status == 0
    owners = re.findall(r"Pass to (\w+) and press Enter|  (\w+), your hand: ", output)
    holder = None
    shown = 0
    for passed, hand in owners:
        if passed:
            holder = passed
        else:
            assert hand == holder, "a hand is shown only to the seat the screen was passed to"
            shown += 1
    assert shown >= 4 and {h for _, h in owners if h} == {"North", "South"}


# -------------------------------------------------------------- seats named


def test_a_person_is_seated_by_name_initial_or_the_librarys_number(short: str) -> None:
    for seat in ("south", "s", "S", "2"):
        status, output = play(
            "--variant", short, "--seed", "6", "--human", seat, "--players", "random",
            then="stop",
        )  # fmt: skip
        assert status == 0
        assert "North (random) & South (human)" in output
    status, output = play("--variant", short, "--human", "0", "--players", "random", then="stop")
    assert "North (human)" in output


def test_a_seat_out_of_range_is_refused_naming_the_convention(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "--human", "4"], out=io.StringIO(), inp=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--human" in err and "0 to 3" in err and "south" in err


def test_quiet_names_seats_and_sides() -> None:
    status, output = play("--seed", "5", "--players", "random", "--quiet")
    assert status == 0
    lines = output.splitlines()
    assert lines[0].endswith(", first dealer " + lines[1].split(", ")[1].split()[0])
    assert re.match(r"Deal  1: 13 cards, \w+ deals, trump ", lines[1])
    assert all(" N-S " in line and " E-W " in line for line in lines[1:])
    assert not re.search(r"\bseat \d|\bteam \d|dealer \d", output)
    assert lines[-1].startswith("Final score: N-S ")
    status, output = play("--variant", "cutthroat-3", "--seed", "3", "--players", "random", "-q")
    assert status == 0 and "Seat 3" in output and "first dealer Seat " in output


# ------------------------------------------------------------------- records


def test_a_game_between_bots_is_recorded_after_every_deal(
    tmp_path: Path, short: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from backalley.cli import output as module

    path = tmp_path / "game.json"
    written: list[int] = []
    real = module.write_whole

    def spy(target: Path, text: str) -> None:
        real(target, text)
        written.append(len(record_of(target).moves))

    monkeypatch.setattr(module, "write_whole", spy)
    status, _ = play(
        "--variant", short, "--seed", "6", "--players", "random", "--record", str(path)
    )
    assert status == 0
    final = record_of(path)
    assert len(written) == 3 and 0 < written[0] < written[1] == written[2] == len(final.moves)
    written.clear()
    status, _ = play("--variant", short, "--seed", "6", "--human", "west", "--record", str(path))
    assert status == 0 and len(written) == 1, "with a person: only when the game stops"


def test_a_record_that_cannot_be_written_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from backalley.cli import output as module

    def full(target: Path, text: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(module, "write_whole", full)
    path = tmp_path / "game.json"
    status, _ = play("--variant", "cutthroat-3", "--seed", "1", "--record", str(path), "-q")
    assert status == 2
    assert "No space left on device" in capsys.readouterr().err


def test_a_closed_output_still_writes_the_whole_record(tmp_path: Path) -> None:
    """`backalley play --record g.json | head -1`: the reader leaves after a
    line; the game is played out, its record written and checked."""
    path = tmp_path / "g.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "backalley", "play", "--seed", "3", "--record", str(path)],
        cwd=ROOT, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    assert proc.wait(timeout=120) == 0
    assert first.startswith(b"Back Alley, gamerules: seed 3.")
    assert proc.stderr.read() == b""
    checked = backalley("check", str(path))
    assert checked.returncode == 0 and "OK" in checked.stdout and "game over" in checked.stdout


def test_a_closed_output_stops_a_game_with_a_person_and_keeps_the_record(
    tmp_path: Path, short: str
) -> None:
    path = tmp_path / "g.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "backalley", "play", "--variant", short, "--human", "s",
         "--record", str(path)],
        cwd=ROOT, env=env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(b"?\n" * 50, timeout=120)
    assert proc.returncode == 0 and err == b""
    assert backalley("check", str(path)).returncode == 0


# -------------------------------------------------------------- a terminal


class Terminal:
    """``python -m backalley ARGS`` on a pseudo-terminal."""

    def __init__(self, *args: str) -> None:
        import pty

        self.fd, child = pty.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "backalley", *args],
            cwd=ROOT, env=env(), stdin=child, stdout=child, stderr=child,
        )  # fmt: skip
        os.close(child)
        self.seen = ""
        self.pos = 0

    def expect(self, text: str, timeout: float = 60) -> str:
        """Read until ``text`` shows after what earlier calls matched; what
        came since (up to and with ``text``)."""
        while text not in self.seen[self.pos :]:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            assert ready, f"{text!r} never came; last seen: {self.seen[-500:]!r}"
            self.seen += os.read(self.fd, 4096).decode("utf-8", "replace")
        start, self.pos = self.pos, self.seen.index(text, self.pos) + len(text)
        return self.seen[start : self.pos]

    def type(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def close(self) -> int:
        try:
            while select.select([self.fd], [], [], 5)[0]:
                chunk = os.read(self.fd, 4096)
                if not chunk:
                    break
                self.seen += chunk.decode("utf-8", "replace")
        except OSError:  # the terminal closes with the program
            pass
        os.close(self.fd)
        return self.proc.wait(timeout=60)


def test_two_people_at_one_terminal(short: str, tmp_path: Path) -> None:
    """Through a pseudo-terminal: the screen is handed on (and cleared once a
    hand was on it), `help` lists the commands, `board` asks to be
    confirmed, a refusal quotes the symbols typed, Ctrl-D stops the game and
    the record is written then."""
    path = tmp_path / "g.json"
    term = Terminal(
        "play", "--variant", short, "--seed", "6", "--human", "north", "--human", "2",
        "--players", "random", "--record", str(path),
    )  # fmt: skip
    head = term.expect("Pass to North and press Enter")
    assert "seed hidden" in head and "\x1b[2J" not in head
    term.type("\n")
    shown = term.expect("North> ")
    assert "North, your hand: " in shown and "South, your hand" not in shown
    term.type("help\n")
    helped = term.expect("North> ")
    assert all(word in helped for word, _, _ in COMMANDS)
    term.type("\u2660Q\n")
    assert "Not a move: '\u2660Q'" in term.expect("North> ")
    term.type("board\n")
    assert "Type 'board' again or 'yes' to confirm" in term.expect("Confirm> ")
    assert not path.exists(), "no record while a person plays: it holds the seed"
    term.type("yes\n")
    handed = term.expect("Pass to South and press Enter")
    assert "\x1b[2J" in handed and "South, your hand" not in handed
    term.type("\n")
    assert "South, your hand: " in term.expect("South> ")
    term.type("\x04")
    assert term.close() == 0
    assert "Stopped after 0 deals" in term.seen and "Traceback" not in term.seen
    record = record_of(path)
    assert ba.BoardBid() in record.moves and record.players[0] == record.players[2] == "human"
