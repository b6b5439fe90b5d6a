"""Loading and bad input.  Documents that do not fit their rules are refused
with a :class:`~backalley.SerializationError` and the path of the offending
field (a view's current deal is rebuilt through the rules; past deals are
public facts, checked for their form; a record's results against its moves
on replay); bad arguments anywhere raise the library's own errors, never a
bare one."""

from __future__ import annotations

import copy
import json
import pickle
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import backalley as ba
from backalley import houserules
from backalley.io.serialize import common
from backalley.io.serialize.record_file import check_record_file

from .. import ROOT


def _play(rules: ba.RuleSet, seed: int, deals: int, extra: int = 5) -> ba.GameState:
    """A game of ``rules`` played at random to ``deals`` scored deals, then ``extra`` moves."""
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    while state.deals_played < deals:
        state = state.apply(rng.choice(state.legal_moves()))
    for _ in range(extra):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    return state


def _doc(value: Any) -> dict[str, Any]:
    """A fresh copy of a document's plain data."""
    return copy.deepcopy(json.loads(ba.to_json(value)))


def _refused(document: Any, cls: type, path: str, match: str | None = None) -> None:
    with pytest.raises(ba.SerializationError, match=match) as info:
        ba.from_json(json.dumps(document), cls)
    assert info.value.path.startswith(path), f"{info.value.path} is not under {path}: {info.value}"


STATE = _play(ba.variants.GAMERULES, 11, 3)


# ------------------------------------------------- past deals: public facts


def test_forged_points_in_a_record_fail_its_replay_not_its_loading() -> None:
    """A record's results are checked against its moves when it is replayed."""
    start = ba.new_game(ba.variants.GAMERULES, seed=11)
    rng = random.Random(1)
    state, moves = start, []
    while state.deals_played < 2:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    d = _doc(ba.GameRecord.from_game(start, moves, final=state))
    d["results"][1]["points"][0] += 7
    record = ba.from_json(json.dumps(d), ba.GameRecord)
    with pytest.raises(ba.ReplayError) as info:
        list(ba.replay(record))
    assert info.value.reason is ba.Reason.RESULTS_DIFFER and "deal 2" in str(info.value)


def test_a_records_results_must_fit_the_schedule() -> None:
    start = ba.new_game(ba.variants.GAMERULES, seed=11)
    d = _doc(ba.GameRecord.from_game(start, STATE.moves, final=STATE))
    d["results"][1]["hand_size"] += 1
    _refused(d, ba.GameRecord, "$.results[1].hand_size", "schedule")
    d = _doc(ba.GameRecord.from_game(start, STATE.moves, final=STATE))
    d["results"][0]["number"] = 2
    _refused(d, ba.GameRecord, "$.results[0].number", "numbered")


def test_a_views_past_deals_are_checked_for_their_form_and_sum() -> None:
    d = _doc(STATE.view(0))
    d["deal_results"][0]["tricks"][0] += 1
    _refused(d, ba.PlayerView, "$.deal_results[0].tricks", "add up")
    d = _doc(STATE.view(0))
    d["deal_results"][1]["dealer"] = 7
    _refused(d, ba.PlayerView, "$.deal_results[1].dealer", "does not exist")
    d = _doc(STATE.view(0))
    d["scores"][1] += 1
    _refused(d, ba.PlayerView, "$.scores", "not the sum")
    d = _doc(_play(ba.variants.VIETNAM_42, 3, 1, extra=0).view(0))
    d["deal_results"][0]["turn_up"] = "2C"  # the 42-card deck has no 2s
    _refused(d, ba.PlayerView, "$.deal_results[0].turn_up", "deck")
    d = _doc(STATE.view(0))
    d["deal_results"][1] = d["deal_results"][0]
    _refused(d, ba.PlayerView, "$.deal_results[1].number", "numbered")


def test_version_true_null_or_text_refused() -> None:
    for version in (True, None, 2.0, "2"):
        d = _doc(STATE)
        d["version"] = version
        _refused(d, ba.GameState, "$.version", "not supported")
    d = _doc(STATE)
    d["format"] = None
    _refused(d, ba.GameState, "$.format")


def test_rule_parameters_changed_mid_game_give_the_new_rules_game() -> None:
    """A state document is replayed under its rules: other scoring parameters
    give the same moves other points (nothing is copied from the old game)."""
    d = _doc(STATE)
    for key in ("per_bid_trick", "per_overtrick", "set_per_bid_trick"):
        d["rules"]["scoring"][key] += 1
    loaded = ba.from_json(json.dumps(d), ba.GameState)
    assert loaded.moves == STATE.moves and loaded.rules != STATE.rules
    assert loaded.scores != STATE.scores


# ------------------------------------------------------ the deal of a view

PLAYING = _play(ba.variants.GAMERULES, 5, 1, extra=14)


def test_a_gamerules_view_without_its_turn_up_refused() -> None:
    d = _doc(PLAYING.view(0))
    assert d["turn_up"] is not None
    d["turn_up"] = None
    _refused(d, ba.PlayerView, "$.turn_up", "turn up")


def test_arbitrary_discards_in_a_view_refused() -> None:
    view = PLAYING.view(0)
    d = _doc(view)
    known = set(d["hand"]) | {d["turn_up"]} | {c for t in d["tricks"] for c in t["cards"]}
    known |= set(d["trick"])
    d["discards"] = [next(str(c) for c in ba.CARDS[:52] if str(c) not in known)]
    _refused(d, ba.PlayerView, "$.discards", "trump part")


def test_a_view_whose_seat_failed_to_follow_its_own_suit_refused() -> None:
    for seed in range(40):
        state = _play(ba.variants.GAMERULES, seed, 0, extra=30)
        for seat in range(4):
            d = _doc(state.view(seat))
            for t, trick in enumerate(d["tricks"]):
                pos = (seat - trick["leader"]) % 4
                if pos == 0:
                    continue
                led = ba.parse_card(trick["cards"][0]).suit
                played = ba.parse_card(trick["cards"][pos])
                if led is None or played.suit != led:
                    continue
                other = next(
                    (c for c in d["hand"] if ba.parse_card(c).suit not in (led, None)), None
                )
                if other is None:
                    continue
                # the seat played the led suit: show it playing another suit instead
                d["hand"] = sorted(
                    [c for c in d["hand"] if c != other] + [str(played)],
                    key=lambda c: ba.parse_card(c).index,
                )
                trick["cards"][pos] = other
                _refused(d, ba.PlayerView, f"$.tricks[{t}].cards[{pos}]", "your own play")
                return
    pytest.fail("no view to tamper with")  # pragma: no cover


# ------------------------------------------------------------- rule sets


def test_a_registered_variant_written_in_full_loads_as_that_variant() -> None:
    """Its games then share the variant's plan; any other rule set loads as
    an equal new value (nothing is remembered from one document to the next)."""
    for name in ("gamerules", "vietnam", "cutthroat-5"):
        rules = ba.variants.get(name)
        assert ba.from_json(ba.to_json(rules), ba.RuleSet) is rules
        state = ba.new_game(rules, seed=1)
        assert ba.from_json(ba.to_json(state), ba.GameState).rules is rules
    own = ba.RuleSet(name="a rule set of our own")
    loaded = ba.from_json(ba.to_json(own), ba.RuleSet)
    assert loaded == own and loaded is not own
    renamed = _doc(ba.variants.GAMERULES)
    renamed["scoring"]["per_bid_trick"] += 1  # the variant's name, other rules: not the variant
    other = ba.from_json(json.dumps(renamed), ba.RuleSet)
    assert other != ba.variants.GAMERULES and other.name == "gamerules"


def test_long_lists_inside_a_document_are_refused_at_their_length() -> None:
    d = _doc(STATE.view(2))
    d["deal_results"][0]["bids"] = ["pass"] * 100_000
    _refused(d, ba.PlayerView, "$.deal_results[0].bids", "at most")
    d = _doc(STATE.view(2))
    d["calls"] = ["pass"] * 100_000
    _refused(d, ba.PlayerView, "$.calls", "at most")
    d = _doc(STATE.view(2))
    d["tricks"] = [0] * 100_000
    _refused(d, ba.PlayerView, "$.tricks", "at most")


# ------------------------------------------------------ house rules and files


@pytest.mark.parametrize(
    "text",
    [None, 5, ["name"], "a = " + "[" * 5000 + "]" * 5000, "[" * 100_000],
    ids=["none", "number", "list", "nested-toml", "nested-json"],
)
def test_house_rules_of_any_input_raise_the_library_errors(text: Any) -> None:
    with pytest.raises(ba.SerializationError):
        houserules.loads(text)
    with pytest.raises(ba.SerializationError):
        houserules.loads(text, format="json")


def test_house_rules_from_bytes() -> None:
    assert houserules.loads(b'name = "ours"\n').name == "ours"
    text = json.dumps({"format": "backalley/rules", "name": "ours"})
    assert houserules.loads(text.encode("utf-16"), format="json").name == "ours"
    with pytest.raises(ba.SerializationError, match="UTF-8"):
        houserules.loads('name = "caf\u00e9"\n'.encode("latin-1"))


def test_house_rules_nested_too_deeply() -> None:
    with pytest.raises(ba.SerializationError, match=r"nested too deeply|not valid"):
        houserules.loads("[" * 100_000 + "]" * 100_000, format="json")


def test_unreadable_rule_files_raise_the_library_errors(tmp_path: Path) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes('name = "caf\u00e9"\n'.encode("latin-1"))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 50_000 + "]" * 50_000)
    for path in (latin, deep, tmp_path / "missing.toml", tmp_path):
        with pytest.raises(ba.SerializationError):
            houserules.load(path)


def test_unreadable_record_files_raise_the_library_errors(tmp_path: Path) -> None:
    import io

    start = ba.new_game(seed=2)
    text = ba.to_json(ba.GameRecord.from_game(start, [start.legal_moves()[0]]))
    utf16 = tmp_path / "utf16.json"
    utf16.write_bytes(text.encode("utf-16"))
    assert check_record_file(utf16, io.StringIO()) == 0
    record = json.loads(text)
    record["metadata"] = {"where": "caf\u00e9"}
    latin = tmp_path / "latin.json"
    latin.write_bytes(json.dumps(record, ensure_ascii=False).encode("latin-1"))
    for path in (latin, tmp_path / "missing.json", tmp_path):
        with pytest.raises(ba.SerializationError):
            check_record_file(path, io.StringIO())


def test_a_rule_set_named_with_a_lone_surrogate_refused() -> None:
    with pytest.raises(ba.RuleSetError):
        ba.RuleSet(name="\ud800")
    with pytest.raises(ba.SerializationError):
        ba.from_json('{"name": "\\ud800"}', ba.RuleSet)
    with pytest.raises(ba.SerializationError):
        houserules.loads('name = "\\ud800"')


# ------------------------------------------------------------------ numbers


def test_huge_integers_bounded() -> None:
    huge = 10**5000
    with pytest.raises(ba.NotationError):
        ba.Bid(huge)
    with pytest.raises(ba.SetupError):
        ba.new_game(seed=huge)
    with pytest.raises(ba.SetupError):
        ba.new_game(seed=2**64)
    assert ba.new_game(seed=2**64 - 1).seed == 2**64 - 1
    digits = "9" * 4299
    for text in (
        f"[scoring]\nper_bid_trick = {digits}\n",
        f"[scoring]\nper_bid_trick = {2**53}\n",
        f"[deck]\nranks = [{digits}]\n",
    ):
        with pytest.raises(ba.SerializationError):
            houserules.loads(text)
    d = _doc(STATE)
    d["seed"] = 2**64
    _refused(d, ba.GameState, "$.seed")
    with pytest.raises(ba.SerializationError):
        ba.from_json('{"seed": ' + digits + "}", ba.GameState)


def test_huge_numbers_in_a_rule_set_built_in_python_are_not_written_bare() -> None:
    rules = ba.variants.GAMERULES.replace(scoring=ba.rules.ContractScoring(per_bid_trick=10**5000))
    with pytest.raises(ba.SerializationError):
        ba.to_json(rules)


# -------------------------------------------------------------------- sizes


def test_schedule_length_and_document_size_bounded() -> None:
    with pytest.raises(ba.RuleSetError, match="at most 1000 deals"):
        ba.rules.Schedule(hand_sizes=[1] * 1001)
    with pytest.raises(ba.SerializationError, match="1000"):
        houserules.loads(
            json.dumps({"format": "backalley/rules", "schedule": {"hand_sizes": [1] * 10**5}}),
            format="json",
        )
    with pytest.raises(ba.SerializationError, match="at most"):
        ba.from_json(" " * (common.MAX_DOCUMENT_SIZE + 1), ba.GameState)
    with pytest.raises(ba.SerializationError, match="at most"):
        houserules.loads(" " * (houserules.MAX_FILE_SIZE + 1))


# ------------------------------------------------------------------ threads

RACE = textwrap.dedent(
    """
    import threading, time, backalley as ba
    from backalley.io.serialize import convert
    register = convert._register
    def slow(*args):  # widen the window in which the registration is half done
        time.sleep(0.0005)
        return register(*args)
    convert._register = slow
    state = ba.new_game(seed=1)
    text = None
    errors = []
    barrier = threading.Barrier(8)
    def work(k):
        try:
            barrier.wait()
            time.sleep(0.002 * k)  # some threads find the registration under way
            if k % 2:
                ba.to_json(state)
            else:
                ba.from_json('{"type": "fixed", "suit": "S"}', ba.rules.FixedTrump)
                ba.from_json('"bid 3"', ba.Move)
        except Exception as exc:
            errors.append(repr(exc))
    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads: t.start()
    for t in threads: t.join()
    print(errors)
    """
)


def test_lazy_registration_does_not_race() -> None:
    out = subprocess.run(
        [sys.executable, "-c", RACE],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


# ----------------------------------------------------------------- notation


def test_notation_round_trips_and_is_ascii() -> None:
    for tricks in (0, 13, 999):
        assert ba.parse_move(str(ba.Bid(tricks))) == ba.Bid(tricks)
    with pytest.raises(ba.NotationError):
        ba.Bid(1000)
    for text in ("Q\u017f", "play \u212aS", "bid \u0663", "\uff31S"):
        with pytest.raises(ba.NotationError):
            ba.parse_move(text)
    assert ba.parse_move("play Q\u2660") == ba.parse_move("play QS")


# ------------------------------------------------------------ bare errors


def test_bare_exceptions_become_the_library_errors() -> None:
    state = ba.new_game(seed=3)
    with pytest.raises(ba.NotationError):
        ba.Rank.parse(5)  # type: ignore[arg-type]
    with pytest.raises(ba.SetupError):
        state.hand(9)
    with pytest.raises(ba.SetupError):
        list(ba.replay("x"))  # type: ignore[arg-type]
    with pytest.raises(ba.SetupError):
        ba.GameRecord.from_game("x", [])  # type: ignore[arg-type]
    with pytest.raises(ba.SetupError):
        ba.GameRecord(ba.variants.GAMERULES, 0, seed=1, metadata={"a": 1})  # type: ignore[dict-item]
    with pytest.raises(ba.RuleSetError):
        ba.RuleSet(name=5)  # type: ignore[arg-type]
    for ranks in ("AK", [14.0], [True]):
        with pytest.raises(ba.RuleSetError):
            ba.rules.Deck(ranks=ranks)  # type: ignore[arg-type]
    with pytest.raises(ba.RuleSetError):
        ba.Contract(tricks="x")  # type: ignore[arg-type]
    with pytest.raises(ba.SetupError):
        state.check(state.legal_moves()[0], seat=0.0)  # type: ignore[arg-type]


def test_values_hold_no_mutable_lists() -> None:
    record = ba.GameRecord(
        ba.variants.GAMERULES,
        0,
        seed=1,
        moves=[ba.parse_move("pass")],  # type: ignore[arg-type]
        players=["a", "b", "c", "d"],  # type: ignore[arg-type]
        metadata=None,  # type: ignore[arg-type]
    )
    assert isinstance(record.moves, tuple) and isinstance(record.players, tuple)
    assert dict(record.metadata) == {}
    trick = ba.Trick(0, [ba.parse_card("QS")], 0)  # type: ignore[arg-type]
    assert isinstance(trick.cards, tuple)


def test_a_pickled_replay_error_keeps_its_index() -> None:
    start = ba.new_game(seed=3)
    record = ba.GameRecord.from_game(start, [ba.parse_move("play QS")])
    with pytest.raises(ba.ReplayError) as info:
        list(ba.replay(record))
    again = pickle.loads(pickle.dumps(info.value))
    assert isinstance(again, ba.ReplayError)
    assert (again.index, again.move, again.reason) == (
        0,
        ba.parse_move("play QS"),
        info.value.reason,
    )
    assert again.state == start and str(again) == str(info.value)


def test_dumps_toml_writes_names_its_loads_reads() -> None:
    for name in ("a\x7fb", 'q"\\', "tab\there", "\u00e9\U0001f600"):
        rules = ba.RuleSet(name=name)
        assert houserules.loads(houserules.dumps_toml(rules)).name == name


def test_rejected_documents_raise_serialization_errors_with_a_path() -> None:
    d = _doc(ba.variants.GAMERULES)
    d["trump"] = {"type": "declarer-names"}  # does not fit once-around bidding
    with pytest.raises(ba.SerializationError) as info:
        ba.from_json(json.dumps(d), ba.RuleSet)
    assert isinstance(info.value, ba.RuleSetError) and info.value.path == "$"
    d = _doc(STATE)
    d["rules"]["trump"] = {"type": "declarer-names"}
    with pytest.raises(ba.SerializationError) as info:
        ba.from_json(json.dumps(d), ba.GameState)
    assert info.value.path == "$.rules"


# -------------------------------------------------------------------- seeds


def test_secure_seeds_are_the_obvious_path() -> None:
    seeds = {ba.secure_seed() for _ in range(8)}
    assert len(seeds) == 8 and all(0 <= s < 2**63 for s in seeds)
    assert max(seeds) > 2**40  # 63 random bits: far out of reach of a brute force
    assert ba.new_game().seed != ba.new_game().seed
    docs = ROOT / "docs"
    for page in ("integration.rst", "quickstart.rst"):
        text = (docs / page).read_text(encoding="utf-8")
        assert "secure_seed" in text and "brute" in text, page
