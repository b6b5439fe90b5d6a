"""The command line (backalley/cli/): watching a game, playing in it, and the
frictions of a first use (version, pipes, exit statuses, messages)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import backalley as ba
from backalley.cli import main
from backalley.cli.text import SUIT_SYMBOLS, normalize_input

from .. import ROOT

SHORT = {
    "format": "backalley/rules",
    "name": "short",
    "base": "gamerules",
    "schedule": {"hand_sizes": [3, 1]},
}
SYMBOLS = "".join(SUIT_SYMBOLS.values())


def run(*argv: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out, inp=io.StringIO(stdin))
    return status, out.getvalue()


def python(*args: str, **kwargs: object) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, **kwargs)  # type: ignore[call-overload, no-any-return]


@pytest.fixture
def short(tmp_path: Path) -> str:
    path = tmp_path / "short.json"
    path.write_text(json.dumps(SHORT), encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ frictions


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"backalley {ba.__version__}"


def test_every_command_says_what_it_does_in_its_help() -> None:
    """``backalley COMMAND --help`` starts with a description, not only the usage."""
    from backalley.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    assert isinstance(commands, dict) and "show" in commands
    for name, command in commands.items():
        assert command.description and len(command.description) > 20, name


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ("play", "--variant", "gamerulez"),
            "unknown variant 'gamerulez' (did you mean 'gamerules'?)",
        ),
        (("rules", "vietnm"), "unknown variant 'vietnm' (did you mean 'vietnam'?)"),
        (
            ("play", "--players", "heuristc,random,random,random"),
            "unknown bot 'heuristc' (did you mean 'heuristic'?)",
        ),
    ],
)
def test_a_misspelt_variant_or_bot_name_gets_a_suggestion(
    argv: tuple[str, ...], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(*argv) == (2, "")
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err


def test_a_name_like_no_known_one_gets_no_suggestion() -> None:
    with pytest.raises(ba.UnknownVariantError) as info:
        ba.variants.get("canasta")
    assert "did you mean" not in str(info.value)


def test_python_m_backalley_and_a_closed_pipe_end_quietly() -> None:
    """`backalley play | head -1`: the reader goes away; no message, status 0."""
    proc = python(
        "-m", "backalley", "play", "--seed", "1", stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader has gone before the game is told
    assert proc.wait(timeout=60) == 0
    assert proc.stderr.read() == b""
    version = subprocess.run(
        [sys.executable, "-m", "backalley", "--version"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert version.stdout.strip() == f"backalley {ba.__version__}"


def test_variants_are_listed_with_what_they_are() -> None:
    status, output = run("variants")
    assert status == 0
    lines = {line.split()[0]: line for line in output.splitlines()}
    assert list(lines) == list(ba.variants.names())
    for name, note in ba.variants.PRESET_NOTES.items():
        assert " ".join(note.split()) in " ".join(lines[name].split())
    assert "auction" in lines["vietnam"]
    assert all(len(line.split()) > 3 for line in lines.values())


def test_check_names_the_file_once_and_labels_what_went_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert run("check", str(bad)) == (2, "")
    err = capsys.readouterr().err
    assert err.startswith(f"backalley: {bad}: ") and "JSON" in err and err.count("\n") == 1
    assert run("check", str(tmp_path / "missing.json"))[0] == 2
    err = capsys.readouterr().err
    assert "missing.json" in err and err.count("\n") == 1


# ------------------------------------------------------- reading bounded


def _record_text() -> str:
    start = ba.new_game(seed=2)
    return ba.to_json(ba.GameRecord.from_game(start, [start.legal_moves()[0]]))


def _limited_memory() -> None:  # pragma: no cover - runs in the child process
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
@pytest.mark.parametrize("command", ["check", "show"])
def test_an_endless_file_is_refused_as_too_large_at_once(command: str) -> None:
    """`/dev/zero` is read no further than the largest document: one line, status 2,
    even with memory limited to 1 GiB (reading it whole needs far more)."""
    proc = python(
        "-m", "backalley", command, "/dev/zero",
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_limited_memory,
    )  # fmt: skip
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    assert out == b""
    assert err.decode().startswith("backalley: /dev/zero: ") and err.count(b"\n") == 1
    assert b"too large" in err


@pytest.mark.parametrize("command", ["check", "show"])
def test_a_file_one_byte_over_the_largest_document_is_refused(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    from backalley.io.serialize import common

    path = tmp_path / "game.json"
    path.write_text(_record_text(), encoding="utf-8")
    size = path.stat().st_size
    monkeypatch.setattr(common, "MAX_DOCUMENT_SIZE", size - 1)
    assert run(command, str(path)) == (2, "")
    err = capsys.readouterr().err
    too_large = f"the file is too large for a JSON document: more than {size - 1} bytes"
    assert err == f"backalley: {path}: {too_large}\n"
    monkeypatch.setattr(common, "MAX_DOCUMENT_SIZE", size)
    assert run(command, str(path))[0] == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("command", ["check", "show"])
@pytest.mark.parametrize("kind", ["directory", "missing", "latin-1", "not json"])
def test_an_unreadable_record_is_one_line_naming_the_file_and_status_2(
    command: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    if kind == "directory":
        path.mkdir()
    elif kind == "latin-1":
        record = json.loads(_record_text())
        record["metadata"] = {"where": "caf\u00e9"}
        path.write_bytes(json.dumps(record, ensure_ascii=False).encode("latin-1"))
    elif kind == "not json":
        path.write_bytes(b"\x00" * 100)
    assert run(command, str(path)) == (2, "")
    err = capsys.readouterr().err
    assert err.startswith(f"backalley: {path}: ") and err.count("\n") == 1
    assert err.count(str(path)) == 1
    expected = {
        "directory": "cannot read the file: Is a directory",
        "missing": "cannot read the file: No such file or directory",
        "latin-1": "not a game record: $: not valid JSON: 'utf-8' codec can't decode",
        "not json": "not a game record: $: not valid JSON",
    }[kind]
    assert expected in err


def test_a_house_rules_file_too_large_is_refused_on_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from backalley.io import houserules

    path = tmp_path / "rules.json"
    path.write_text(json.dumps(SHORT), encoding="utf-8")
    monkeypatch.setattr(houserules, "MAX_FILE_SIZE", path.stat().st_size - 1)
    assert run("rules", str(path)) == (2, "")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "too large for a house-rules file" in err


def test_a_line_of_input_longer_than_the_limit_ends_the_persons_input(
    tmp_path: Path, short: str
) -> None:
    """A person's line is read bounded: an endless line (`< /dev/zero`) stops
    the game with the score so far, like the end of input."""
    from backalley.cli.human import MAX_LINE

    path = tmp_path / "game.json"
    status, output = run(
        "play", "--variant", short, "--seed", "6", "--human", "S", "--players", "random",
        "--record", str(path), stdin="x" * (MAX_LINE + 1) + "\nbid 1\n",
    )  # fmt: skip
    assert status == 0
    assert f"A line of more than {MAX_LINE} characters: the input ends here." in output
    assert "Stopped after 0 deals" in output and "Not a move" not in output
    assert run("check", str(path))[0] == 0


def test_a_line_of_input_at_the_limit_is_read_whole_and_a_longer_one_cut() -> None:
    from backalley.cli.human import MAX_LINE, read_line

    stream = io.StringIO("a" * MAX_LINE + "\n" + "b" * (3 * MAX_LINE) + "\nlast")
    assert read_line(stream) == "a" * MAX_LINE
    assert read_line(stream) == "b" * (MAX_LINE + 1)
    assert stream.tell() == MAX_LINE + 1 + MAX_LINE + 1, "the rest of the line is left unread"


def test_input_that_is_not_text_ends_the_persons_input() -> None:
    from backalley.cli.human import line_reader

    stream = io.TextIOWrapper(io.BytesIO(b"caf\xe9\n"), encoding="utf-8", errors="strict")
    screen = io.StringIO()
    assert line_reader(stream, screen)("South> ") is None
    assert "The input is not text: the input ends here." in screen.getvalue()


def test_rules_diff_refuses_a_third_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("rules", "--diff", "gamerules", "hook", "vietnam") == (2, "")
    assert "vietnam" in capsys.readouterr().err


def test_vectors_refuses_a_negative_count_and_documents_its_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run("vectors", "--games", "-1")[0] == 2
    assert run("vectors", "--games", "x")[0] == 2
    capsys.readouterr()
    assert main(["vectors", "--help"]) == 0
    text = capsys.readouterr().out
    for option in ("--variant", "--games", "--seed", "--output"):
        line = next(line for line in text.splitlines() if line.strip().startswith(option))
        assert len(line.split()) > 2 or option in ("--output",), line


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_bad_players_exit_2_whatever_the_mistake(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(command, "--players", "random,random,random") == (2, "")
    assert "4 names" in capsys.readouterr().err
    assert run(command, "--players", "random,nobody,random,random") == (2, "")
    err = capsys.readouterr().err
    assert "nobody" in err and err.count("\n") == 1


def test_a_record_path_that_cannot_be_written_is_refused_before_the_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run("play", "--record", "/nonexistent/x.json") == (2, "")
    assert "/nonexistent" in capsys.readouterr().err


def test_play_record_stores_the_players(tmp_path: Path, short: str) -> None:
    path = tmp_path / "game.json"
    status, output = run(
        "play", "--variant", short, "--seed", "4", "--players", "random", "--record", str(path)
    )
    assert status == 0 and f"Record written to {path}" in output
    record = ba.from_json(path.read_text(encoding="utf-8"), ba.GameRecord)
    assert record.players == ("random",) * 4
    assert record.metadata["program"] == "backalley play"
    assert run("check", str(path))[0] == 0


# ------------------------------------------------------------------- watching


def _tricks_per_side(
    output: str, sides: list[str], seat_side: dict[str, str]
) -> list[Counter[str]]:
    """Tricks won per side in each deal, read from the trick lines."""
    deals: list[Counter[str]] = []
    for line in output.splitlines():
        if line.startswith("Deal "):
            deals.append(Counter({s: 0 for s in sides}))
        match = re.search(r"won by (\w+)$", line)
        if match:
            deals[-1][seat_side[match.group(1)]] += 1
    return deals


@pytest.mark.parametrize("variant, seed", [("gamerules", 1), ("vietnam", 5), ("bab-online", 2)])
def test_watching_a_game_tells_every_deal_and_trick(
    tmp_path: Path, variant: str, seed: int
) -> None:
    path = tmp_path / "game.json"
    status, output = run(
        "play", "--variant", variant, "--seed", str(seed), "--players", "random",
        "--record", str(path),
    )  # fmt: skip
    assert status == 0
    final = list(ba.replay(ba.from_json(path.read_text(encoding="utf-8"), ba.GameRecord)))[-1]
    lines = output.splitlines()
    assert lines[0] == f"Back Alley, {variant}: seed {seed}."
    assert (
        lines[1]
        == "Partnerships: North (random) & South (random) against East (random) & West (random)."
    )
    headers = [line for line in lines if line.startswith("Deal ")]
    assert len(headers) >= final.deals_played
    for result in final.deal_results:
        # the deal's calls, each labelled by its seat
        assert any(
            line.startswith(f"Deal {result.number} of ")
            and f"deals {result.hand_size} card" in line
            for line in headers
        )
    bids = [line for line in lines if line.startswith("  Bids: ")]
    for line in bids:
        seats = [call.split()[0] for call in line[len("  Bids: ") :].split(", ")]
        assert set(seats) <= {"North", "East", "South", "West"}
        assert len(seats) == len(set(seats))
    # every trick is told, and the winners add up to the tricks of the results
    seat_side = {"North": "NS", "South": "NS", "East": "EW", "West": "EW"}
    told = [d for d in _tricks_per_side(output, ["NS", "EW"], seat_side) if sum(d.values())]
    assert [(d["NS"], d["EW"]) for d in told] == [r.tricks for r in final.deal_results]
    scores = [line for line in lines if line.startswith("  Score: ")]
    assert len(scores) == final.deals_played
    assert scores[-1] == f"  Score: N-S {final.scores[0]}, E-W {final.scores[1]}"
    assert lines[-2].startswith(f"Final score: N-S {final.scores[0]}")
    assert any(ch in output for ch in SYMBOLS)


def test_cutthroat_seats_are_numbered() -> None:
    status, output = run("play", "--variant", "cutthroat-3", "--seed", "3", "--players", "random")
    assert status == 0
    assert output.splitlines()[1] == "Players: Seat 1 (random), Seat 2 (random), Seat 3 (random)."
    assert "North" not in output and "won by Seat " in output


def test_ascii_and_quiet() -> None:
    status, output = run("play", "--seed", "9", "--players", "random", "--ascii")
    assert status == 0 and not any(ch in output for ch in SYMBOLS)
    assert re.search(r"Turn-up (\w\w|10)[CDHS]: trump [CDHS]\.|Turn-up [BL]J", output)
    status, output = run("play", "--seed", "9", "--players", "random", "--quiet")
    lines = output.splitlines()
    assert status == 0 and len(lines) == 1 + 25 + 1
    assert all(line.startswith("Deal ") for line in lines[1:-1])
    assert lines[-1].startswith("Final score: N-S ")


def test_the_default_players_are_the_fastest_strong_bot() -> None:
    from backalley.bots import bot_names
    from backalley.cli.arguments import default_bot

    expected = "heuristic" if "heuristic" in bot_names() else "random"
    assert default_bot() == expected
    status, output = run("play", "--seed", "1", "--quiet")
    assert status == 0 and output.count("Deal ") == 25


def test_symbols_typed_by_a_player_read_as_letters() -> None:
    assert normalize_input("Q\u2660") == "QS"
    assert normalize_input("10\u2661") == "10H"
    assert normalize_input("A\u2663\ufe0f") == "AC"
    assert ba.parse_move(normalize_input("10\u2666")) == ba.Play(ba.parse_card("TD"))


# -------------------------------------------------------------------- playing


class Typist(io.StringIO):
    """A player who asks for the legal moves, then types the first of them,
    with a suit symbol (``Q♠``, ``10♥``), at every prompt; first a few
    mistakes."""

    def __init__(
        self, screen: io.StringIO, mistakes: list[str], stop_after: int | None = None
    ) -> None:
        super().__init__()
        self.screen = screen
        self.mistakes = list(mistakes)
        self.moves = 0
        self.stop_after = stop_after

    def readline(self, size: int | None = -1) -> str:
        text = self.screen.getvalue()
        if self.mistakes:
            return self.mistakes.pop(0) + "\n"
        if text.endswith("and press Enter "):  # the screen handed on to another person
            return "\n"
        answer = re.split(r"(?:North|East|South|West)> ", text)[-2]  # to the last input
        if "Legal: " not in answer:
            return "?\n"
        if self.stop_after is not None and self.moves >= self.stop_after:
            return ""
        legal = answer.split("Legal: ")[1].splitlines()[0].split(", ")
        self.moves += 1
        return legal[0] + "\n"


def test_a_person_plays_a_whole_game_through_the_input(short: str) -> None:
    screen = io.StringIO()
    typist = Typist(screen, ["hello", "bid 9", "play QS"])
    status = main(
        ["play", "--variant", short, "--seed", "6", "--human", "south", "--players", "random"],
        out=screen,
        inp=typist,
    )
    output = screen.getvalue()
    assert status == 0, output
    assert "Partnerships: North (random) & South (human) against East (random) & " in output
    assert "Not a move: 'hello'" in output
    assert "Refused: " in output  # bid 9 with 3 cards, or a card not held, refused with the reason
    assert re.search(r"Refused: .*(highest bid|not hold|not your|must)", output), output
    assert "  South, your hand: " in output and "  Score: N-S 0, E-W 0" in output
    assert "Legal: " in output
    assert typist.moves >= 4  # a call and cards in both deals
    assert "Final score: N-S" in output
    # the person saw only their own hand
    assert "North, your hand" not in output and "  North   " not in output


def test_end_of_input_stops_with_the_score_so_far_and_writes_the_record(
    tmp_path: Path, short: str
) -> None:
    path = tmp_path / "partial.json"
    screen = io.StringIO()
    typist = Typist(screen, [], stop_after=2)
    status = main(
        ["play", "--variant", short, "--seed", "6", "--human", "S", "--human", "0",
         "--players", "random", "--record", str(path)],
        out=screen,
        inp=typist,
    )  # fmt: skip
    output = screen.getvalue()
    assert status == 0
    assert "Stopped after 0 deals. Score: N-S 0, E-W 0." in output
    record = ba.from_json(path.read_text(encoding="utf-8"), ba.GameRecord)
    assert record.players == ("human", "random", "human", "random")
    assert run("check", str(path))[0] == 0
    assert 2 <= len(record.moves) < 12


def test_a_bad_human_seat_and_hands_with_a_human_are_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run("play", "--human", "middle") == (2, "")
    assert "north, east, south, west" in capsys.readouterr().err
    assert run("play", "--human", "south", "--hands") == (2, "")


def test_a_person_at_a_terminal(short: str) -> None:
    """One game through a pseudo-terminal: the prompt shows and Ctrl-D ends it."""
    import pty

    main_fd, child_fd = pty.openpty()
    proc = python(
        "-m", "backalley", "play", "--variant", short, "--seed", "6", "--human", "north",
        "--players", "random",
        stdin=child_fd, stdout=child_fd, stderr=child_fd,
    )  # fmt: skip
    os.close(child_fd)
    seen = b""
    while b"North> " not in seen:
        chunk = os.read(main_fd, 4096)
        assert chunk, seen
        seen += chunk
    os.write(main_fd, b"?\n\x04")
    try:
        while True:
            chunk = os.read(main_fd, 4096)
            if not chunk:
                break
            seen += chunk
    except OSError:  # the terminal closes with the program
        pass
    assert proc.wait(timeout=60) == 0
    text = seen.decode("utf-8", "replace")
    assert "Legal: " in text and "Stopped after 0 deals" in text and "Traceback" not in text
    os.close(main_fd)


# ------------------------------------------------------------------ packaging


def test_the_library_imports_no_terminal_or_cluster_library() -> None:
    code = (
        "import sys, backalley, backalley.sim.simulate, backalley.cli; "
        "print(sorted(m for m in ('rich', 'ray') if m in sys.modules))"
    )
    proc = python("-c", code, stdout=subprocess.PIPE)
    out, _ = proc.communicate(timeout=60)
    assert out.decode().strip() == "[]"


def test_the_command_line_works_without_rich(monkeypatch: pytest.MonkeyPatch) -> None:
    """rich is optional: on a terminal without it the table is plain text."""
    import backalley.cli.arguments as arguments

    monkeypatch.setitem(sys.modules, "rich", None)
    monkeypatch.setitem(sys.modules, "rich.console", None)
    monkeypatch.setattr(arguments, "is_terminal", lambda out: True)
    status, output = run("simulate", "--players", "random", "--games", "2", "--seed", "1")
    assert status == 0 and "random + random" in output


def test_the_results_table_with_rich() -> None:
    rich_console = pytest.importorskip("rich.console")
    from backalley.cli.simulate_command import _rich_table
    from backalley.sim.simulate import SimulationPlan, run_local, summarize

    plan = SimulationPlan(ba.variants.GAMERULES, ("random",) * 4, games=2, seed=1)
    out = io.StringIO()
    _rich_table(rich_console.Console(file=out, width=120), summarize(plan, run_local(plan)))
    text = out.getvalue()
    assert "random + random" in text and "Contracts" in text and "Boards" in text
    assert "gamerules: 2 games, seed 1" in text


def test_packaging_ships_the_license_and_the_benchmarks() -> None:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib

    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "The backalley developers" in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = project["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    assert "benchmarks" in include and "LICENSE" in include
    extras = project["project"]["optional-dependencies"]
    assert any(r.startswith("ray") for r in extras["ray"])
    assert any(r.startswith("ray") for r in extras["test"])
    assert any(r.startswith("rich") for r in extras["cli"])
    assert project["project"]["scripts"]["backalley"] == "backalley.cli:main"


def test_the_docs_stand_alone() -> None:
    """No page (nor the changelog they include) cites a file outside the project."""
    for page in [*sorted((ROOT / "docs").rglob("*.rst")), ROOT / "CHANGELOG.md"]:
        text = page.read_text(encoding="utf-8")
        # the names are built so that this file does not hold them either
        assert "RULES" + ".md" not in text and "DESIGN" + ".md" not in text, page.name


class CtrlC(io.StringIO):
    def readline(self, size: int | None = -1) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_at_the_prompt_stops_with_the_score_and_the_record(
    tmp_path: Path, short: str
) -> None:
    path = tmp_path / "stopped.json"
    screen = io.StringIO()
    status = main(
        ["play", "--variant", short, "--seed", "6", "--human", "west", "--players", "random",
         "--record", str(path)],
        out=screen,
        inp=CtrlC(),
    )  # fmt: skip
    assert status == 130
    assert "Stopped after 0 deals. Score: N-S 0, E-W 0." in screen.getvalue()
    assert ba.from_json(path.read_text(encoding="utf-8"), ba.GameRecord).players[3] == "human"


def test_a_human_at_the_table_is_not_shown_the_seed_until_the_game_ends(
    tmp_path: Path, short: str
) -> None:
    """The seed decides every hand: with a human seated and no seed given, no
    line the person sees names it before the game is over; then it is told,
    so that the game can be replayed."""
    path = tmp_path / "game.json"
    screen = io.StringIO()
    status = main(
        ["play", "--variant", short, "--human", "south", "--players", "random",
         "--record", str(path)],
        out=screen,
        inp=Typist(screen, []),
    )  # fmt: skip
    assert status == 0
    seed = str(ba.from_json(path.read_text(encoding="utf-8"), ba.GameRecord).seed)
    lines = screen.getvalue().splitlines()
    assert "seed hidden until the game ends" in lines[0]
    told = [i for i, line in enumerate(lines) if re.search(rf"\b{seed}\b", line)]
    final = next(i for i, line in enumerate(lines) if "Final score" in line)
    assert told and all(i > final for i in told), lines[: max(told, default=0) + 1]
    assert f"--seed {seed}" in lines[told[0]]


def test_a_game_a_human_leaves_never_shows_the_seed(tmp_path: Path, short: str) -> None:
    path = tmp_path / "left.json"
    screen = io.StringIO()
    status = main(
        ["play", "--variant", short, "--human", "north", "--players", "random",
         "--record", str(path)],
        out=screen,
        inp=Typist(screen, [], stop_after=1),
    )  # fmt: skip
    assert status == 0
    seed = str(ba.from_json(path.read_text(encoding="utf-8"), ba.GameRecord).seed)
    shown = screen.getvalue().replace(str(path), "")
    assert not re.search(rf"\b{seed}\b", shown)


def test_a_watched_game_still_names_its_seed() -> None:
    status, output = run("play", "--seed", "5")
    assert status == 0 and output.splitlines()[0] == "Back Alley, gamerules: seed 5."
