"""The record notation (:mod:`backalley.io.notation`): game records as text
people read, and a deal alone as one line (:mod:`backalley.io.deal_line`).

Every record of ``tests/`` goes JSON -> text -> JSON to an equal record (its
metadata compared too: a record's equality leaves metadata out), and so do
random games of every variant.  The golden texts of ``tests/data/notation/``
read to the records they stand for; a text the replay refuses is refused with
the line and column of the word at fault.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backalley as ba
from backalley.io.deal_line import DealLayout, deal_from_line, deal_of, deal_to_line
from backalley.io.notation import (
    RecordNotationError,
    load_record,
    load_records,
    record_from_text,
    record_to_text,
    records_from_text,
    records_to_text,
    save_record,
)

from .. import ROOT
from ..randomgames import games, positions
from ..strategies import registry_rule_sets

DATA = ROOT / "tests" / "data"
NOTATION = DATA / "notation"
RECORDS = sorted((DATA / "records").glob("*.json"))
GOLDEN = sorted((DATA / "golden").glob("*.json"))


def _same(got: ba.GameRecord, want: ba.GameRecord) -> None:
    assert got == want
    assert dict(got.metadata) == dict(want.metadata)


def _round_trip(record: ba.GameRecord) -> str:
    text = record_to_text(record)
    _same(record_from_text(text), record)
    # and on through JSON: the same record again
    _same(ba.from_json(ba.to_json(record_from_text(text)), ba.GameRecord), record)
    return text


def _club() -> str:
    return (NOTATION / "club-night.bar").read_text(encoding="utf-8")


# ------------------------------------------------------------- round trips


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_every_record_of_the_tests_goes_to_text_and_back(path: Path) -> None:
    record = ba.from_json(path.read_text(encoding="utf-8"), ba.GameRecord)
    text = _round_trip(record)
    assert text.startswith(f'[Variant "{record.rules.name}"]\n[Seed "{record.seed}"]\n')


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_every_golden_game_goes_to_text_and_back(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    state = ba.from_json(json.dumps(doc["state"]), ba.GameState)
    record = ba.GameRecord.from_state(state)
    text = _round_trip(record)
    assert text.count("\n  result  ") == len(doc["deals"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.booleans())
def test_random_games_of_every_variant_go_to_text_and_back(game: object, whole: bool) -> None:
    start, state, moves = game  # type: ignore[misc]
    if whole:  # results, players and metadata of every kind
        record = ba.GameRecord.from_game(
            start,
            moves,
            final=state,
            players=[f'player {k} "q"' for k in range(state.players)],
            metadata={"date": "2026-12-07", "Round two": "a\nb", "ü": "ß", "Result": "x"},
        )
    else:  # no results, no players, the deck orders as well as the seed
        record = ba.GameRecord.from_game(start, moves)
    _round_trip(record)


@pytest.mark.filterwarnings("ignore::backalley.RuleSetWarning")
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(registry_rule_sets(), st.integers(0, 2**32 - 1))
def test_a_rule_set_of_its_own_is_written_as_its_document(rules: ba.RuleSet, seed: int) -> None:
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    moves = []
    while not state.is_over and len(moves) < 30:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    record = ba.GameRecord.from_state(state)
    text = _round_trip(record)
    assert text.startswith("[Rules {")


def test_a_variant_may_be_written_whole_to_keep_its_rules() -> None:
    record = record_from_text(_club())
    text = record_to_text(record, rules_document=True)
    first, rest = text.split("\n", 1)
    assert first.startswith('[Rules {"name":"gamerules",') and first.endswith("}]")
    assert rest == _club().split("\n", 1)[1]
    _same(record_from_text(text), record)
    assert records_to_text([record] * 2, rules_document=True) == text + "\n" + text


def test_deck_orders_without_a_seed_go_to_text_and_back() -> None:
    rules = ba.variants.GAMERULES
    deck = [str(card) for card in ba.CARDS if card in rules.deck.cards]
    random.Random(1).shuffle(deck)
    state = ba.new_game(rules, decks=[deck], dealer=3)
    moves = []
    for _ in range(9):
        moves.append(state.legal_moves()[-1])
        state = state.apply(moves[-1])
    record = ba.GameRecord(rules=rules, first_dealer=3, decks=[deck], moves=moves)
    text = _round_trip(record)
    assert "[Seed" not in text
    assert f'[Deck "{" ".join(deck)}"]' in text


def test_results_of_no_deal_and_of_the_first_deals_only() -> None:
    record = ba.from_json((DATA / "records" / "vietnam.json").read_text(), ba.GameRecord)
    assert record.results is not None
    for count in (0, 1):
        shorter = ba.GameRecord(
            rules=record.rules,
            first_dealer=record.first_dealer,
            seed=record.seed,
            moves=record.moves,
            results=record.results[:count],
        )
        text = _round_trip(shorter)
        assert text.count("\n  result  ") == count
    assert '[Result "N-S 0, E-W 0"]' in record_to_text(
        ba.GameRecord(rules=record.rules, first_dealer=0, seed=1, results=())
    )


# ----------------------------------------------------------- the golden texts


def test_the_golden_text_is_the_json_record() -> None:
    text = (NOTATION / "vietnam-42.bar").read_text(encoding="utf-8")
    want = ba.from_json((DATA / "records" / "vietnam-42.json").read_text(), ba.GameRecord)
    _same(record_from_text(text), want)


def test_the_worked_example_reads_as_people_read_it() -> None:
    record = record_from_text(_club())
    assert record.rules == ba.variants.GAMERULES
    assert (record.seed, record.first_dealer, record.decks) == (7, 1, ())
    assert record.players == ("Ann", "Bob", "Cy", "Di")
    assert dict(record.metadata) == {"date": "2026-12-07", "event": "Club night"}
    assert [str(m) for m in record.moves[:5]] == ["bid 1", "bid 1", "bid 5", "bid 3", "play 3H"]
    assert len(record.moves) == 4 + 52
    assert record.results is not None and len(record.results) == 1
    assert record.results[0].tricks == (8, 5) and record.results[0].points == (32, 21)
    states = list(ba.replay(record))
    assert states[-1].scores == (32, 21) and states[-1].dealer == 2


def test_lines_the_replay_gives_may_be_left_out_and_games_share_a_file() -> None:
    club, second = records_from_text((NOTATION / "by-hand.bar").read_text(encoding="utf-8"))
    _same(club, record_from_text(_club()))
    assert second.rules == ba.variants.get("vietnam")
    assert (second.seed, second.first_dealer, second.players, second.results) == (1, 0, None, None)
    assert [str(m) for m in second.moves[:5]] == ["bid 9", "bid 11", "bid 13", "pass", "trump S"]
    assert str(second.moves[-1]) == "play 8D"


def test_many_games_to_a_file() -> None:
    one = record_from_text(_club())
    two = ba.from_json((DATA / "records" / "cutthroat-3.json").read_text(), ba.GameRecord)
    text = records_to_text([one, two, one])
    assert text.count("[Variant ") == 3
    assert records_from_text(text) == [one, two, one]
    assert records_from_text("") == [] == records_from_text("% nothing but a comment\n\n")
    with pytest.raises(RecordNotationError, match="expected one game, the text holds 3"):
        record_from_text(text)


def test_files_are_text_or_json_by_their_suffix(tmp_path: Path) -> None:
    record = record_from_text(_club())
    save_record(tmp_path / "game.bar", record)
    save_record(tmp_path / "game.json", record)
    assert (tmp_path / "game.bar").read_text() == _club()
    assert json.loads((tmp_path / "game.json").read_text())["format"] == "backalley/record"
    for name in ("game.bar", "game.json"):
        _same(load_record(tmp_path / name), record)
    (tmp_path / "game.txt").write_text(_club() + "\n" + _club())  # told by its first character
    assert load_records(tmp_path / "game.txt") == [record, record]
    with pytest.raises(ba.SerializationError, match=r"game\.txt: expected one game"):
        load_record(tmp_path / "game.txt")
    bad = _club().replace("North leads 3H", "North leads 4H")
    (tmp_path / "bad.bar").write_text(bad)
    with pytest.raises(RecordNotationError) as refused:
        load_record(tmp_path / "bad.bar")
    line, column = _at(bad, "4H  East 2H")
    assert (refused.value.line, refused.value.column, refused.value.file) == (
        line, column, str(tmp_path / "bad.bar")
    )  # fmt: skip
    assert str(refused.value).startswith(f"{tmp_path / 'bad.bar'}: line 18, column {column}: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bad.bar", "game.bar", "game.json", "game.txt"
    ]  # fmt: skip


# ------------------------------------------------------------------ refusals


def _at(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    """The line and column (from 1) of ``needle`` in ``text``, plus ``offset`` columns."""
    index = text.index(needle)
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1 + offset


REFUSALS = [
    # (what, old text, new text, where in the new text, what the message says)
    (
        "a card not held",
        "North leads 3H",
        "North leads 4H",
        ("4H  East", 0),
        "NOT_IN_HAND: North does not hold 4H",
    ),
    ("a seat out of turn", "East 2H", "West 2H", ("West 2H", 0), "it is East's turn, not West's"),
    (
        "a card of another",
        "South QH",
        "South 5H",
        ("South 5H", 6),
        "NOT_IN_HAND: South does not hold 5H",
    ),
    (
        "a wrong winner",
        "West 4H  South wins",
        "West 4H  West wins",
        ("West wins", 0),
        "South wins this trick, not West",
    ),
    (
        "a forged result",
        "tricks N-S 8 E-W 5",
        "tricks N-S 9 E-W 5",
        ("N-S 9", 4),
        "the replay gives '8' here, not '9'",
    ),
    (
        "a forged game result",
        '"N-S 32, E-W 21"',
        '"N-S 40, E-W 21"',
        ('"N-S 40', 0),
        "the replay gives the result 'N-S 32, E-W 21'",
    ),
    ("a wrong hand", "North  2C 3C", "North  2C 4C", ("4C 4D", 0), "North is not dealt 4C"),
    (
        "a wrong turn-up",
        "turn-up AS",
        "turn-up KS",
        ("KS  trump", 0),
        "the replay gives 'AS' here, not 'KS'",
    ),
    (
        "a trick over two lines",
        "  trick 2   South leads 7C  West 4C  North 2C  East JC  East wins",
        "  trick 2   South leads 7C  West 4C\n  trick 3   North 2C  East JC  East wins",
        ("North 2C  East JC", 6),
        "this card is not this trick's",
    ),
    (
        "two tricks on a line",
        "West 4H  South wins\n  trick 2   South leads 7C",
        "West 4H  South leads 7C",
        ("South leads 7C", 12),
        "this card leads the next trick",
    ),
    (
        "a lead that does not lead",
        "North leads 3H  East 2H",
        "North 3H  East leads 2H",
        ("leads 2H", 0),
        "the first card of a trick leads it",
    ),
    ("an unknown card", "East 2H", "East 2X", ("2X", 0), "'2X' is not a card"),
    (
        "a play among the calls",
        "East bid 3",
        "East play 2H",
        ("play 2H", 0),
        "a card is played on a trick's line",
    ),
    ("a call on a trick", "East 2H", "East bid 2", ("bid 2", 0), "a trick holds cards, not bid 2"),
    (
        "an unknown tag",
        '[event "Club night"]',
        '[Event "Club night"]',
        ("Event", 0),
        "unknown tag [Event]",
    ),
    (
        "a tag that is not JSON",
        '[Seed "7"]',
        "[Seed 7x]",
        ("7x", 1),
        "the value of [Seed] is not JSON",
    ),
    (
        "a tag without a value",
        '[Seed "7"]',
        "[Seed]",
        ("[Seed]", 0),
        'expected a tag: [Name "value"]',
    ),
    (
        "a second tag",
        '[Seed "7"]',
        '[Seed "7"]\n[Seed "8"]',
        ('[Seed "8"]', 1),
        "a second [Seed] tag",
    ),
    (
        "a seed that is not a number",
        '[Seed "7"]',
        '[Seed "seven"]',
        ('"seven"', 0),
        "a seed is a whole number",
    ),
    (
        "an unknown variant",
        '"gamerules"',
        '"gamerule"',
        ('"gamerule"', 0),
        "unknown variant 'gamerule'",
    ),
    ("a missing player", '[West "Di"]\n', "", ('[North "Ann"]', 1), '[West "..."] is missing'),
    ("a line that is no line", "  calls  ", "  bids  ", ("bids", 0), "expected 'deal'"),
    (
        "a deal without its number",
        "deal 1  dealer",
        "deal one  dealer",
        ("one", 0),
        "expected the number of the deal",
    ),
    (
        "a wrong deal number",
        "deal 2  dealer",
        "deal 3  dealer",
        ("3  dealer South", 0),
        "the replay gives '2' here, not '3'",
    ),
    (
        "a missing result tag",
        '[Result "N-S 32, E-W 21"]\n',
        "",
        ("result  tricks", 0),
        "need the game's [Result] tag",
    ),
    (
        "a result of a deal not over",
        "5S 9S\n",
        "5S 9S\n  result  tricks N-S 0 E-W 0\n",
        ("result  tricks N-S 0", 0),
        "this deal is not scored",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "where", "says"),
    [pytest.param(*r[1:], id=r[0]) for r in REFUSALS],
)
def test_a_refused_text_names_the_line_and_column(
    old: str, new: str, where: tuple[str, int], says: str
) -> None:
    club = _club()
    assert club.count(old) >= 1, old
    text = club.replace(old, new, 1)
    with pytest.raises(RecordNotationError) as refused:
        record_from_text(text)
    error = refused.value
    assert says in error.message
    assert (error.line, error.column) == _at(text, *where)
    assert str(error) == f"line {error.line}, column {error.column}: {error.message}"
    assert isinstance(error, ba.SerializationError) and isinstance(error, ba.NotationError)


def test_malformed_texts_name_the_line_and_column() -> None:
    cases = {
        "bid 3\n": (1, 1, "a game starts with its tags"),
        '\n\n  [Variant "gamerules"]\n[Dealer "North"]\n': (3, 3, "a seed"),
        '[Seed "1"]\n[Dealer "North"]\n': (1, 1, "a game names its rules"),
        '[Variant "gamerules"]\n[Seed "1"]\n': (1, 1, "a game names its first dealer"),
        '[Variant "gamerules"]\n[Seed "1"]\n[Dealer "Nowhere"]\n': (3, 9, "there is no seat"),
        '[Variant "gamerules"]\n[Seed "1"]\n[Dealer "N"]\n  North 2C\n': (4, 3, "a deal starts"),
        '[Variant "gamerules"]\n[Seed "1"]\n[Dealer "N"]\n[Deck "2C 2C"]\n': (4, 7, "decks[0]"),
        '[Variant "gamerules"]\n[Seed "1"]\n[Dealer "N"]\n[Deck "2C ZZ"]\n': (4, 11, "not a card"),
        '[Rules {"name": "x", "deck": 3}]\n[Seed "1"]\n[Dealer "N"]\n': (1, 8, "not a rule set"),
        '[Variant "gamerules"]\n[Meta ["k"]]\n[Seed "1"]\n[Dealer "N"]\n': (2, 7, "[Meta] holds"),
        '[Variant "gamerules"]\n[Seed "1"]\n[Dealer "N"]\ndeal 1\n  calls  East\n': (
            5,
            10,
            "and then what",
        ),
        '[Variant "gamerules"]\n[Seed "1"]\n[Dealer "N"]\ndeal 1\n  calls  bid 3\n': (
            5,
            10,
            "expected a seat",
        ),
        '[Variant "gamerules"]\n[Seed "1"]\n[Dealer "N"]\ndeal 1 dealer\n': (4, 8, "has no value"),
        '[Variant "gamerules"]\n[Seed "1"]\n[Dealer "N"]\ndeal 1\ndeal 2\n': (
            5,
            1,
            "no more: deal 1 is not over",
        ),
    }
    for text, (line, column, says) in cases.items():
        with pytest.raises(RecordNotationError) as refused:
            record_from_text(text)
        assert (refused.value.line, refused.value.column) == (line, column), text
        assert says in refused.value.message, text


def test_a_record_that_does_not_replay_is_not_written() -> None:
    record = record_from_text(_club())
    moves = list(record.moves)
    moves[4], moves[5] = moves[5], moves[4]
    with pytest.raises(ba.ReplayError):
        record_to_text(ba.GameRecord(rules=record.rules, first_dealer=1, seed=7, moves=moves))


def test_the_error_pickles_with_its_line_and_column() -> None:
    import pickle

    error = RecordNotationError("bad", 3, 9)
    again = pickle.loads(pickle.dumps(error))
    assert (again.message, again.line, again.column, str(again)) == (
        "bad", 3, 9, "line 3, column 9: bad"
    )  # fmt: skip


# ---------------------------------------------------------- the one-line deal


def test_a_deal_is_one_line() -> None:
    state = ba.new_game("gamerules", seed=7)
    line = deal_to_line(deal_of(state), state.rules)
    assert line == (
        "dealer East, turn-up AS; "
        "North 2C 3C 4D KD 3H 8H TH 2S 6S 8S JS LJ BJ; "
        "East 6C JC AC 5D TD AD 2H 5H JH KH AH 3S QS; "
        "South 7C 9C TC QC 2D 7D 8D JD QH 5S 7S 9S TS; "
        "West 4C 5C 8C KC 3D 9D QD 4H 6H 7H 9H 4S KS"
    )
    deal = deal_from_line(line, "gamerules")
    assert deal == DealLayout(1, state.hands, ba.parse_card("AS"))
    # the seats in any order, a seat with no cards
    assert deal_from_line("dealer West; South; West QS; East; North 2C", "gamerules") == DealLayout(
        3, [["2C"], [], [], ["QS"]]
    )
    three = ba.new_game("cutthroat-3", seed=2)
    assert deal_to_line(deal_of(three), three.rules).startswith("dealer Seat")


@settings(max_examples=40, deadline=None)
@given(positions())
def test_the_deal_of_any_position_goes_to_a_line_and_back(state: ba.GameState) -> None:
    deal = deal_of(state)
    line = deal_to_line(deal, state.rules)
    assert "\n" not in line
    assert deal_from_line(line, state.rules) == deal


@pytest.mark.parametrize(
    ("line", "column", "says"),
    [
        ("North 2C", 1, "a deal starts 'dealer SEAT'"),
        ("dealer Up; North; East; South; West", 8, "expected a seat"),
        ("dealer North, turnup 2C; North; East; South; West", 15, "turn-up CARD"),
        (
            "dealer North; North 2C; East 2C; South; West",
            30,
            "2C is given twice (first at column 21)",
        ),
        ("dealer North; North 2C; East ZZ; South; West", 30, "'ZZ' is not a card"),
        ("dealer North; North 2C; East; South", 36, "no hand for West"),
        ("dealer North; North; North; East; South; West", 22, "a second hand for North"),
        ("dealer North; North LJ; East; South; West", 21, "not in this game's deck"),
    ],
)
def test_a_deal_line_that_cannot_be_read_names_its_column(
    line: str, column: int, says: str
) -> None:
    rules = ba.variants.get("spades-no-jokers") if "LJ" in line else ba.variants.GAMERULES
    with pytest.raises(RecordNotationError) as refused:
        deal_from_line(line, rules)
    assert (refused.value.line, refused.value.column) == (1, column)
    assert says in refused.value.message


# ------------------------------------------------------------------ the page


def test_the_notation_page_shows_the_golden_text_and_real_refusals() -> None:
    from ..docpages import blocks_of

    blocks = blocks_of(ROOT / "docs" / "notation.rst")
    texts = [b.text for b in blocks if b.lang == "text"]
    assert texts[0].rstrip("\n") == _club().rstrip("\n")
    line = texts[1].strip()
    assert "\n" not in line
    assert deal_to_line(deal_from_line(line, "gamerules"), "gamerules") == line
    shown = [b.text.strip() for b in blocks if b.lang in ("", "default")]
    for old, new, message in [
        ("North leads 3H", "North leads 4H", shown[0]),
        ("West 4H  South wins", "West 4H  West wins", shown[1]),
    ]:
        with pytest.raises(RecordNotationError) as refused:
            record_from_text(_club().replace(old, new, 1))
        assert str(refused.value) == message


def test_a_deal_thrown_in_is_told_and_its_redeal_shares_its_number() -> None:
    from ..randomgames import play

    start, state, moves = play(ba.variants.GAMERULES, 3, 10, 10**6)  # a deal is thrown in
    record = ba.GameRecord.from_game(start, moves, final=state)
    text = _round_trip(record)
    at = text.index("  % thrown in: dealt again\n")
    thrown, redeal = text[:at].rsplit("\ndeal ", 1)[1], text[at:].split("\ndeal ", 1)[1]
    assert thrown.split()[0] == redeal.split()[0]  # the same number
    calls = thrown.split("  calls  ")[1].split()
    assert set(calls) == {"North", "East", "South", "West", "pass"} and len(calls) == 8
    assert "trick" not in thrown and "result" not in thrown


def test_a_deal_of_the_wrong_number_of_seats_is_not_written() -> None:
    with pytest.raises(ba.SetupError, match="4 hands"):
        deal_to_line(DealLayout(0, [["2C"], ["3C"], ["4C"]]), "gamerules")
