"""The SVG picture of a position (backalley.render.svg) and ``backalley show``."""

from __future__ import annotations

import io
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

import backalley as ba
from backalley.cli import main
from backalley.render.show import position_of_record
from backalley.render.svg import GOLD, GREEN, board

from .randomgames import NAMES, positions, walk

NS = "{http://www.w3.org/2000/svg}"
RECORDS = Path(__file__).parent / "data" / "records"


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
    named = seat_heights(parse(board(state, names=["Ann", "Bo", "Cy", "Di"])))
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


def test_size_names_and_bad_options() -> None:
    state = ba.new_game(ba.variants.GAMERULES, seed=1)
    root = parse(board(state, size=400))
    assert root.attrib["width"] == "400"
    svg = board(state, names=["Ann <&>", "Bo", "Cy", "Di"])
    assert "Ann &lt;&amp;&gt;" in svg
    parse(svg)
    for bad in (
        {"bottom": 4},
        {"bottom": True},
        {"size": -1},
        {"size": "big"},
        {"highlight": "QS"},
        {"highlight": [object()]},
        {"names": ["A", "B"]},
    ):
        with pytest.raises(ba.SetupError):
            board(state, **bad)  # type: ignore[arg-type]


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
    assert board(states[first + 3]) == target.read_text()
    out = io.StringIO()
    assert main(["show", path, "--deal", "2", "--seat", "1", "--text"], out) == 0
    assert out.getvalue() == start.view(1).diagram() + "\n"
    assert main(["show", path, "--deal", "99"], io.StringIO()) == 2
    assert main(["show", str(tmp_path / "missing.json")], io.StringIO()) == 2


def test_the_readme_picture_is_the_one_the_script_draws() -> None:
    import importlib.util

    root = Path(__file__).parent.parent
    assert "](docs/_static/position.svg)" in (root / "README.md").read_text(encoding="utf-8")
    spec = importlib.util.spec_from_file_location("make_pictures", root / "docs/make_pictures.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    committed = (root / "docs/_static/position.svg").read_text(encoding="utf-8")
    parse(committed)
    assert committed == script.readme_position(), "run: python docs/make_pictures.py"
