"""The SVG picture of a position (backalley.render.svg) and ``backalley show``."""

from __future__ import annotations

import io
import math
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import backalley as ba
from backalley.cli import main
from backalley.render.diagram import diagram
from backalley.render.show import position_of_record
from backalley.render.svg import CENTER, GOLD, GREEN, board

from .. import ROOT
from ..randomgames import NAMES, play, positions, walk

NS = "{http://www.w3.org/2000/svg}"
RECORDS = ROOT / "tests" / "data" / "records"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def drawn(root: ET.Element) -> list[ba.Card]:
    """The face-up cards of a picture, one per drawing."""
    return [
        ba.parse_card(g.attrib["data-card"])
        for g in root.iter(f"{NS}g")
        if g.attrib.get("class") == "card"
    ]


def backs(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if g.attrib.get("class") == "card back"]


def table_cards(position: ba.GameState | ba.PlayerView) -> list[ba.Card]:
    """The public cards a picture shows: the trick (or, between tricks, the
    last one) and the turn-up."""
    cards = [c for _s, c in position.trick]
    if position.phase is ba.Phase.PLAYING and not position.trick and position.tricks:
        cards += position.tricks[-1].cards
    if position.turn_up is not None:
        cards.append(position.turn_up)
    return cards


def check_state_picture(state: ba.GameState) -> None:
    root = parse(board(state))
    expected = [c for hand in state.hands for c in hand] + table_cards(state)
    assert sorted(drawn(root)) == sorted(expected)
    assert backs(root) == []


def check_view_picture(state: ba.GameState, seat: int) -> None:
    view = state.view(seat)
    svg = board(view)
    root = parse(svg)
    assert sorted(drawn(root)) == sorted([*view.hand, *table_cards(view)])
    # every other hand is its count of identical backs
    hidden_backs = backs(root)
    assert len(hidden_backs) == sum(len(h) for s, h in enumerate(state.hands) if s != seat)
    shapes = {re.sub(r"[-\d.]+", "#", ET.tostring(g, encoding="unicode")) for g in hidden_backs}
    assert len(shapes) <= 1
    # and no hidden card is named anywhere in the text
    shown = set(view.hand) | set(table_cards(view))
    hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h]
    for card in [*hidden, *state.stock]:
        if card in shown:  # pragma: no cover - a card is in one place only
            continue
        assert not re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", svg), card


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_pictures_are_well_formed_show_every_card_and_a_view_hides_the_others(
    state: ba.GameState,
) -> None:
    check_state_picture(state)
    for seat in range(state.players):
        check_view_picture(state, seat)


@pytest.mark.parametrize("name", NAMES)
def test_every_variant_draws_through_a_game(name: str) -> None:
    for k, (state, _move) in enumerate(walk(ba.variants.get(name), 41, 42)):
        if k % 61 == 0 or state.is_over:
            check_state_picture(state)
            check_view_picture(state, k % state.players)


def test_notebooks_show_the_picture() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=3)
    assert state._repr_svg_() == board(state)
    view = state.view(1)
    assert view._repr_svg_() == board(view)
    parse(view._repr_svg_())


def seat_heights(root: ET.Element) -> dict[int, float]:
    """The top of each seat's first card."""
    out = {}
    for g in root.iter(f"{NS}g"):
        if g.attrib.get("class") == "seat":
            rects = [r for r in g.iter(f"{NS}rect") if r.attrib.get("width") == "36"]
            out[int(g.attrib["data-seat"])] = float(rects[0].attrib["y"])
    return out


def test_the_bottom_seat_is_drawn_lowest() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=5)
    heights = seat_heights(parse(board(state)))
    assert max(heights, key=heights.__getitem__) == 2  # South by default
    for bottom in range(4):
        heights = seat_heights(parse(board(state, bottom=bottom)))
        assert max(heights, key=heights.__getitem__) == bottom
        assert min(heights, key=heights.__getitem__) == (bottom + 2) % 4  # the partner across
        heights = seat_heights(parse(board(state.view(bottom))))
        assert max(heights, key=heights.__getitem__) == bottom  # a view sits at the bottom
    named = seat_heights(parse(board(state, players=["Ann", "Bo", "Cy", "Di"])))
    assert max(named, key=named.__getitem__) == 2  # still South's seat
    three = ba.new_game(ba.variants.get("cutthroat-3"), seed=5)
    heights = seat_heights(parse(board(three)))
    assert max(heights, key=heights.__getitem__) == 0


def outlines(root: ET.Element, color: str) -> int:
    return sum(1 for r in root.iter(f"{NS}rect") if r.attrib.get("stroke") == color)


def playing_state() -> ba.GameState:
    state = ba.new_game(ba.variants.GAMERULES, seed=11)
    rng = random.Random(2)
    while state.phase is not ba.Phase.PLAYING or len(state.trick) < 2:
        state = state.apply(rng.choice(state.legal_moves()))
    return state


def test_highlight_and_legal_moves() -> None:
    state = playing_state()
    plain = parse(board(state))
    assert outlines(plain, GOLD) == outlines(plain, GREEN) == 0
    last = ba.Play(state.trick[-1][1])
    assert outlines(parse(board(state, highlight=last)), GOLD) == 1
    hand = state.hands[state.to_act]  # type: ignore[index]
    assert outlines(parse(board(state, highlight=[hand[0], last])), GOLD) == 2
    legal = parse(board(state, legal=True))
    assert outlines(legal, GREEN) == len(state.legal_moves())
    # another seat's view has no legal moves to show; the seat to act's has
    other = (state.to_act + 1) % 4  # type: ignore[operator]
    assert outlines(parse(board(state.view(other), legal=True)), GREEN) == 0
    assert outlines(parse(board(state.view(state.to_act), legal=True)), GREEN) == len(  # type: ignore[arg-type]
        state.legal_moves()
    )


def test_legal_calls_and_calls_are_shown_during_the_bidding() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=11).apply(ba.Pass())
    svg = board(state, legal=True, highlight=ba.Pass())
    root = parse(svg)
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "legal calls" in texts
    for move in state.legal_moves():  # pass, 1 .. 12, board
        assert str(move).removeprefix("bid ") in texts
    assert outlines(root, GOLD) >= 1  # the pass is marked
    assert "legal calls" not in [t.text for t in parse(board(state)).iter(f"{NS}text")]


def test_size_players_and_bad_options() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=1)
    root = parse(board(state, size=400))
    assert root.attrib["width"] == "400"
    assert "max-width:100%" in root.attrib["style"]  # a narrower page shrinks it
    svg = board(state, players=["Ann <&>", "Bo", "Cy", "Di"])
    assert "Ann &lt;&amp;&gt;" in svg
    parse(svg)
    bads: tuple[dict[str, Any], ...] = (
        {"bottom": 4},
        {"bottom": True},
        {"size": -1},
        {"size": "big"},
        {"highlight": "QS"},
        {"highlight": [object()]},
        {"players": ["A", "B"]},
        {"players": "ABCD"},
        {"players": [1, 2, 3, 4]},
    )
    for bad in bads:
        with pytest.raises(ba.SetupError):
            board(state, **bad)


def test_a_record_position_and_the_show_command(tmp_path: Path) -> None:
    record = ba.from_json((RECORDS / "gamerules.json").read_text(), ba.GameRecord)
    states = list(ba.replay(record))
    assert position_of_record(record) == states[-1]
    assert position_of_record(record, move=0) == states[0]
    assert position_of_record(record, move=5) == states[5]
    start = position_of_record(record, deal=2)
    first = next(k for k, s in enumerate(states) if s.deals_played == 1)
    assert start == states[first]
    assert position_of_record(record, deal=2, move=3) == states[first + 3]
    for bad in ({"deal": 0}, {"deal": 99}, {"move": -1}, {"move": 10**6}, {"deal": 2, "move": 999}):
        with pytest.raises(ba.SetupError):
            position_of_record(record, **bad)

    out = io.StringIO()
    target = tmp_path / "pos.svg"
    path = str(RECORDS / "gamerules.json")
    assert main(["show", path, "--deal", "2", "--move", "3", "-o", str(target)], out) == 0
    assert out.getvalue() == f"Picture written to {target}\n"
    players = record.players
    assert board(states[first + 3], players=players, legal=True) == target.read_text()
    out = io.StringIO()
    assert main(["show", path, "--deal", "2", "--seat", "1", "--text"], out) == 0
    assert out.getvalue() == diagram(start.view(1), players=players, legal=True) + "\n"
    assert main(["show", path, "--deal", "99"], io.StringIO()) == 2
    assert main(["show", str(tmp_path / "missing.json")], io.StringIO()) == 2


def test_the_readme_picture_is_the_one_the_script_draws() -> None:
    import importlib.util

    root = ROOT
    assert "](docs/_static/position.svg)" in (root / "README.md").read_text(encoding="utf-8")
    spec = importlib.util.spec_from_file_location("make_pictures", root / "docs/make_pictures.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    committed = (root / "docs/_static/position.svg").read_text(encoding="utf-8")
    parse(committed)
    assert committed == script.readme_position(), "run: python docs/make_pictures.py"


# -- seat names, the lead mark, the legal cards; the show command's options ----------

COMPASS = ["North", "East", "South", "West"]


def seat_labels(root: ET.Element) -> dict[int, tuple[str, str]]:
    """Per seat: the name written for it and the player beside it ('' if none)."""
    out = {}
    for g in root.iter(f"{NS}g"):
        if g.attrib.get("class") == "seat":
            (text,) = [t for t in g.iter(f"{NS}text") if t.attrib.get("class") == "seat-name"]
            beside = [t for t in text.iter(f"{NS}tspan") if t.attrib.get("class") == "player"]
            out[int(g.attrib["data-seat"])] = (
                text.text or "",
                beside[0].text or "" if beside else "",
            )
    return out


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{NS}text")]


def test_seats_keep_their_names_and_the_players_sit_beside_them() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=1)
    root = parse(board(state, players=["heuristic"] * 4))
    assert seat_labels(root) == {s: (COMPASS[s], " (heuristic)") for s in range(4)}
    assert "North (heuristic)" in texts(root)
    footer = texts(root)
    assert "N\u2013S0" in footer and "E\u2013W0" in footer  # sides by seats, not by players
    assert not any("heuristic + heuristic" in t for t in footer)
    plain = parse(board(state))
    assert seat_labels(plain) == {s: (COMPASS[s], "") for s in range(4)}
    # a player named as the seat is not repeated; an over-long name is cut, not spilled
    long = "a-bot-with-a-name-far-too-long-for-any-place-at-this-table"
    labels = seat_labels(parse(board(state, players=["North", long, "Cy", "Di"])))
    assert labels[0] == ("North", "")
    assert labels[1][0] == "East" and labels[1][1].endswith("…)") and len(labels[1][1]) < len(long)
    three = ba.new_game(ba.variants.get("cutthroat-3"), seed=1)
    labels = seat_labels(parse(board(three, players=["Ann", "Bo", "Cy"])))
    assert labels == {0: ("Seat 1", " (Ann)"), 1: ("Seat 2", " (Bo)"), 2: ("Seat 3", " (Cy)")}


def card_box(root: ET.Element, card: ba.Card) -> tuple[float, float]:
    """The centre of ``card`` as drawn nearest the middle of the table (in the trick)."""
    boxes = []
    for g in root.iter(f"{NS}g"):
        if g.attrib.get("data-card") == str(card):
            rect = g.find(f"{NS}rect")
            assert rect is not None
            boxes.append((float(rect.attrib["x"]) + 18, float(rect.attrib["y"]) + 25))
    return min(boxes, key=lambda b: (b[0] - CENTER[0]) ** 2 + (b[1] - CENTER[1]) ** 2)


def tags(root: ET.Element, kind: str) -> list[tuple[int, tuple[float, float, float, float], str]]:
    """The ``led``/``won`` tags: their seat, their box (centre, half width,
    half height), their text."""
    out = []
    for g in root.iter(f"{NS}g"):
        if kind in g.attrib.get("class", "").split() and g.attrib["class"] != "card":
            rect = g.find(f"{NS}rect")
            assert rect is not None
            x, y = float(rect.attrib["x"]), float(rect.attrib["y"])
            w, h = float(rect.attrib["width"]), float(rect.attrib["height"])
            (label,) = texts(g)
            out.append((int(g.attrib["data-seat"]), (x + w / 2, y + h / 2, w / 2, h / 2), label))
    return out


def check_tag_beside(
    root: ET.Element, kind: str, seat: int, plays: list[tuple[int, ba.Card]]
) -> None:
    """The tag names ``seat`` and sits next to its card: nearer it than any
    other card of the trick, a few units from its edge, not over it."""
    ((tagged, (x, y, half_w, half_h), _text),) = tags(root, kind)
    assert tagged == seat
    centres = {s: card_box(root, c) for s, c in plays}
    distance = {s: math.hypot(x - cx, y - cy) for s, (cx, cy) in centres.items()}
    assert min(distance, key=distance.__getitem__) == seat
    cx, cy = centres[seat]
    gap_x = abs(x - cx) - (half_w + 18)  # a card is 36 by 50
    gap_y = abs(y - cy) - (half_h + 25)
    assert 0 < max(gap_x, gap_y) < 8


def test_the_led_tag_sits_beside_the_leaders_card_wherever_the_leader_sits() -> None:
    leaders: dict[int, ba.GameState] = {}
    lasts: list[ba.GameState] = []
    for state, _move in walk(ba.variants.GAMERULES, 4, 4):
        if state.trick and len(state.trick) < 4:
            leaders.setdefault(state.trick[0][0], state)
        elif state.phase is ba.Phase.PLAYING and state.tricks and len(lasts) < 6:
            lasts.append(state)
        if len(leaders) == 4 and len(lasts) == 6:
            break
    assert sorted(leaders) == [0, 1, 2, 3]
    for leader, state in leaders.items():
        for bottom in range(4):
            root = parse(board(state, bottom=bottom))
            check_tag_beside(root, "lead", leader, list(state.trick))
            assert [t for _s, _c, t in tags(root, "lead")] == ["led"]
            assert not any(t.endswith(" led") for t in texts(root))  # no caption far away
    for state in lasts:
        done = state.tricks[-1]
        root = parse(board(state))
        check_tag_beside(root, "lead", done.plays[0][0], list(done.plays))
        check_tag_beside(root, "won", done.winner, list(done.plays))
        assert "last trick" in texts(root)
    three = next(s for s, _m in walk(ba.variants.get("cutthroat-3"), 2, 2) if s.trick)
    check_tag_beside(parse(board(three)), "lead", three.trick[0][0], list(three.trick))


def legal_marks(root: ET.Element) -> list[ba.Card]:
    """The cards framed as legal: each frame matched to the card it surrounds."""
    corners = {}
    for g in root.iter(f"{NS}g"):
        if g.attrib.get("class") == "card":
            rect = g.find(f"{NS}rect")
            assert rect is not None
            corners[(float(rect.attrib["x"]), float(rect.attrib["y"]))] = g.attrib["data-card"]
    out = []
    for rect in root.iter(f"{NS}rect"):
        if rect.attrib.get("class") == "legal":
            assert rect.attrib["stroke"] == GREEN
            corner = (float(rect.attrib["x"]) + 1, float(rect.attrib["y"]) + 1)
            out.append(ba.parse_card(corners[corner]))
    return out


def test_legal_marks_frame_exactly_the_legal_cards() -> None:
    seen = 0
    for k, (state, _move) in enumerate(walk(ba.variants.get("must-head"), 6, 6)):
        if state.phase is not ba.Phase.PLAYING or k % 7:
            continue
        legal = sorted(m.card for m in state.legal_moves() if isinstance(m, ba.Play))
        assert sorted(legal_marks(parse(board(state, legal=True)))) == legal
        own = state.view(state.to_act)  # type: ignore[arg-type]
        assert sorted(legal_marks(parse(board(own, legal=True)))) == legal
        other = state.view((state.to_act + 1) % 4)  # type: ignore[operator]
        assert legal_marks(parse(board(other, legal=True))) == []
        assert legal_marks(parse(board(state))) == []
        seen += len(legal) < len(state.hands[state.to_act])  # type: ignore[index]
    assert seen  # some positions where only part of the hand is legal


def a_record(
    tmp_path: Path, players: tuple[str, ...] = ("heuristic",) * 4
) -> tuple[Path, list[ba.GameState]]:
    """A record of a random gamerules game with bots' names, and its positions."""
    start, _end, moves = play(ba.variants.GAMERULES, 9, 9, 80)
    record = ba.GameRecord.from_game(start, moves, players=players)
    path = tmp_path / "game.json"
    path.write_text(ba.to_json(record), encoding="utf-8")
    return path, list(ba.replay(record))


def show(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(["show", *args], out)
    return status, out.getvalue()


def test_show_names_seats_with_players_and_marks_the_legal_cards_by_default(
    tmp_path: Path,
) -> None:
    path, states = a_record(tmp_path)
    k = next(k for k, s in enumerate(states) if s.phase is ba.Phase.PLAYING and s.trick)
    state = states[k]
    status, svg = show(str(path), "--move", str(k))
    assert status == 0
    root = parse(svg)
    assert seat_labels(root) == {s: (COMPASS[s], " (heuristic)") for s in range(4)}
    legal = sorted(m.card for m in state.legal_moves() if isinstance(m, ba.Play))
    assert sorted(legal_marks(root)) == legal
    check_tag_beside(root, "lead", state.trick[0][0], list(state.trick))
    assert legal_marks(parse(show(str(path), "--move", str(k), "--no-legal")[1])) == []
    status, text = show(str(path), "--move", str(k), "--text")
    assert status == 0
    assert text == diagram(state, players=["heuristic"] * 4, legal=True) + "\n"
    lines = text.splitlines()
    for seat, name in enumerate(COMPASS):
        (line,) = [x for x in lines if x[2:].startswith(f"{name} (heuristic) ")]
        assert ("*" in line) == (seat == state.to_act)
    assert any(x.startswith("Legal: ") for x in lines)
    assert "Scores: N\u2013S" in text and "heuristic +" not in text
    plain = show(str(path), "--move", str(k), "--text", "--no-legal")[1]
    assert "*" not in plain and "Legal: " not in plain


def test_show_move_k_is_the_position_after_k_moves_counted_from_1(tmp_path: Path) -> None:
    path, states = a_record(tmp_path)
    for k in (0, 1, 5):
        assert show(str(path), "--move", str(k), "--text")[1] == (
            diagram(states[k], players=["heuristic"] * 4, legal=True) + "\n"
        )
    first = next(k for k, s in enumerate(states) if s.deals_played == 1)
    assert show(str(path), "--deal", "2", "--move", "1", "--text")[1] == (
        diagram(states[first + 1], players=["heuristic"] * 4, legal=True) + "\n"
    )
    assert (
        show(str(path), "--deal", "1", "--text")[1] == show(str(path), "--move", "0", "--text")[1]
    )


@pytest.mark.parametrize("seat", ["south", "South", "s", "S", "2"])
def test_show_seat_takes_a_seats_name_or_number(tmp_path: Path, seat: str) -> None:
    path, states = a_record(tmp_path)
    status, text = show(str(path), "--move", "3", "--seat", seat, "--text")
    assert status == 0
    assert text == diagram(states[3].view(2), players=["heuristic"] * 4, legal=True) + "\n"
    assert "(South's view)" in text
    assert show(str(path), "--move", "3", "--seat", seat)[1] == board(
        states[3].view(2), players=["heuristic"] * 4, legal=True
    )


@pytest.mark.parametrize("seat", ["4", "-1", "northeast", "seat 1", ""])
def test_show_refuses_a_seat_the_game_does_not_have_in_one_line(
    tmp_path: Path, seat: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _states = a_record(tmp_path)
    assert show(str(path), "--seat", seat) == (2, "")
    err = capsys.readouterr().err
    assert err.startswith("backalley: --seat: there is no seat ") and err.count("\n") == 1
    assert "north, east, south, west" in err


def test_show_in_a_game_of_numbered_seats_takes_seat_n(tmp_path: Path) -> None:
    start, _end, moves = play(ba.variants.get("cutthroat-3"), 3, 3, 20)
    record = ba.GameRecord.from_game(start, moves, players=("Ann", "Bo", "Cy"))
    path = tmp_path / "three.json"
    path.write_text(ba.to_json(record), encoding="utf-8")
    status, text = show(str(path), "--move", "10", "--seat", "seat 3", "--text")
    assert status == 0 and "(Seat 3's view)" in text
    assert "Seat 1 (Ann)" in text and "Seat 3 (Cy)" in text


def test_show_refuses_an_output_it_cannot_write_before_reading(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _states = a_record(tmp_path)
    target = tmp_path / "nowhere" / "pos.svg"
    assert show(str(path), "-o", str(target)) == (2, "")
    err = capsys.readouterr().err
    assert err == f"backalley: --output {target}: there is no directory {target.parent}\n"
