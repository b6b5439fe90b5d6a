"""Loading and bad input (issue 13, items 5-14): each item has a test named
after it.  Documents that the rules could not have produced are refused with
a :class:`~backalley.SerializationError` and the path of the offending field;
bad arguments anywhere raise the library's own errors, never a bare one."""

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
from backalley.serialize import common, results_doc, rules_doc
from backalley.serialize.record_file import check_record_file

from .helpers import result_objects, swapped_tricks_points


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
    """The document, its deal results as objects (the long form, also read)."""
    data = json.loads(ba.to_json(value))
    return result_objects(data) if "deal_results" in data else copy.deepcopy(data)


def _refused(document: Any, cls: type, path: str, match: str | None = None) -> None:
    with pytest.raises(ba.SerializationError, match=match) as info:
        ba.from_json(json.dumps(document), cls)
    assert info.value.path.startswith(path), f"{info.value.path} is not under {path}: {info.value}"


STATE = _play(ba.variants.GAMERULES, 11, 3)


# ------------------------------------------------------------------ item 5


def test_item_5_forged_points_refused() -> None:
    d = _doc(STATE)
    d["deal_results"][1]["points"][0] += 7
    d["scores"][0] += 7  # the sums agree: only the scoring part can tell
    _refused(d, ba.GameState, "$.deal_results[1].points", "scoring part")


def test_item_5_points_the_rules_give_for_other_tricks_are_checked_against_the_moves() -> None:
    state = _play(ba.variants.GAMERULES, 4, 25)
    d = _doc(state)
    swapped = swapped_tricks_points(state.rules, state.deal_results[-1])
    assert swapped is not None
    last = d["deal_results"][-1]
    d["scores"] = [s - a + b for s, a, b in zip(d["scores"], last["points"], swapped[1])]
    last["tricks"], last["points"] = swapped
    _refused(d, ba.GameState, "$.deal_results", "do not match")


def test_item_5_contracts_that_do_not_follow_from_the_bids_refused() -> None:
    d = _doc(STATE)
    contract = next(c for c in d["deal_results"][0]["contracts"] if c is not None)
    contract["tricks"] += 1
    _refused(d, ba.GameState, "$.deal_results[0].contracts", "calls")
    d = _doc(STATE)
    bids = d["deal_results"][0]["bids"]
    bids[0], bids[1] = bids[1], bids[0]
    if bids[0] != bids[1]:
        _refused(d, ba.GameState, "$.deal_results[0]")


def test_item_5_trump_that_does_not_follow_from_the_turn_up_refused() -> None:
    d = _doc(STATE)
    result = d["deal_results"][0]
    result["trump"] = next(s for s in "CDHS" if s != result["trump"])
    _refused(d, ba.GameState, "$.deal_results[0].trump", "turn-up")
    d = _doc(STATE)
    d["deal_results"][0]["turn_up"] = None
    _refused(d, ba.GameState, "$.deal_results[0].turn_up", "turn up")


def test_item_5_deal_number_below_the_deals_played_refused() -> None:
    d = _doc(STATE)
    d["deal_number"] = STATE.deals_played  # the deal in progress is dealt too
    _refused(d, ba.GameState, "$.deal_number", "dealt")


def test_item_5_dealers_that_the_dealer_part_does_not_name_refused() -> None:
    d = _doc(STATE)
    assert d["deal_number"] == STATE.deals_played + 1  # nothing thrown in
    d["first_dealer"] = (d["first_dealer"] + 1) % 4  # the first deal's dealer is a redeal away
    _refused(d, ba.GameState, "$.deal_number", "thrown-in")
    d = _doc(STATE)
    d["deal"]["dealer"] = (d["deal"]["dealer"] + 3) % 4
    with pytest.raises(ba.SerializationError):
        ba.from_json(json.dumps(d), ba.GameState)


def test_item_5_hand_sizes_from_the_schedule() -> None:
    d = _doc(STATE)
    d["deal_results"][1]["hand_size"] += 1
    _refused(d, ba.GameState, "$.deal_results[1]", "schedule")


def test_item_5_version_true_or_null_refused() -> None:
    for version in (True, None, 1.0, "1"):
        d = _doc(STATE)
        d["version"] = version
        _refused(d, ba.GameState, "$.version", "not supported")
    d = _doc(STATE)
    d["format"] = None
    _refused(d, ba.GameState, "$.format")


def test_item_5_rule_parameters_changed_mid_game_refused() -> None:
    d = _doc(STATE)
    for key in ("per_bid_trick", "per_overtrick", "set_per_bid_trick"):
        d["rules"]["scoring"][key] += 1  # the results were scored under the old values
    _refused(d, ba.GameState, "$.deal_results[", "scoring part")


def test_item_5_views_and_records_check_their_results_too() -> None:
    d = _doc(STATE.view(0))
    d["deal_results"][0]["points"][0] += 7
    d["scores"][0] += 7
    _refused(d, ba.PlayerView, "$.deal_results[0].points")
    start = ba.new_game(ba.variants.GAMERULES, seed=11)
    rng = random.Random(1)
    state, moves = start, []
    while state.deals_played < 2:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    d = _doc(ba.GameRecord.from_game(start, moves, final=state))
    d["results"][1]["contracts"][0] = {"tricks": 0, "board": True}
    _refused(d, ba.GameRecord, "$.results[1].contracts")


def test_item_5_a_rainbow_bonus_is_bounded_by_the_bonus_the_scoring_gives() -> None:
    rules = ba.variants.get("vietnam-42")
    state = _play(rules, 3, 1, extra=0)
    d = _doc(state)
    # with a rainbow bonus the points depend on the hands, which results do not
    # hold: any bonus the scoring gives to some seats loads, anything else does not
    d["deal_results"][0]["points"][0] += 1
    d["scores"][0] += 1
    with pytest.raises(ba.SerializationError, match="scoring part"):
        ba.from_json(json.dumps(d), ba.GameState)


# ------------------------------------------------------------------ item 6

PLAYING = _play(ba.variants.GAMERULES, 5, 1, extra=14)


def test_item_6_a_gamerules_view_without_its_turn_up_refused() -> None:
    d = _doc(PLAYING.view(0))
    assert d["turn_up"] is not None
    d["turn_up"] = None
    _refused(d, ba.PlayerView, "$.turn_up", "turn up")


def test_item_6_arbitrary_discards_refused() -> None:
    view = PLAYING.view(0)
    d = _doc(view)
    known = set(d["hand"]) | {d["turn_up"]} | {c for t in d["tricks"] for c in t["cards"]}
    known |= set(d["trick"])
    d["discards"] = [next(str(c) for c in ba.CARDS[:52] if str(c) not in known)]
    _refused(d, ba.PlayerView, "$.discards", "trump part")


def test_item_6_the_seat_failing_to_follow_its_own_suit_refused() -> None:
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
                d["hand"] = [c for c in d["hand"] if c != other] + [str(played)]
                trick["cards"][pos] = other
                _refused(d, ba.PlayerView, f"$.tricks[{t}].cards[{pos}]", "your own play")
                return
    pytest.fail("no view to tamper with")  # pragma: no cover


# ------------------------------------------------------------------ item 7


def test_item_7_rejected_documents_leave_no_cache_entries() -> None:
    rules = ba.RuleSet(name="a rule set seen only in rejected documents")
    state = _play(rules, 8, 2)
    d = _doc(state)
    d["deal"]["hands"][0][0] = d["deal"]["hands"][1][0]  # a card twice: refused
    before = (dict(rules_doc._RULES_CACHE), dict(results_doc._RESULTS_CACHE))
    for _ in range(3):
        with pytest.raises(ba.SerializationError):
            ba.from_json(json.dumps(d), ba.GameState)
    assert before == (rules_doc._RULES_CACHE, results_doc._RESULTS_CACHE)
    # the same parts in a document that loads are cached (and then shared)
    ba.from_json(ba.to_json(state), ba.GameState)
    assert len(results_doc._RESULTS_CACHE) >= min(2, results_doc._RESULTS_LIMIT)


def test_item_7_large_inputs_are_never_cache_keys() -> None:
    d = _doc(STATE)
    d["deal_results"][0]["bids"] = ["pass"] * 100_000
    with pytest.raises(ba.SerializationError):
        ba.from_json(json.dumps(d), ba.GameState)
    assert all(len(k) <= common.CACHE_KEY_LIMIT for k in results_doc._RESULTS_CACHE)
    assert all(len(k) <= common.CACHE_KEY_LIMIT for k in rules_doc._RULES_CACHE)
    assert len(results_doc._RESULTS_CACHE) <= results_doc._RESULTS_LIMIT


# ------------------------------------------------------------------ item 8


@pytest.mark.parametrize(
    "text",
    [None, 5, ["name"], "a = " + "[" * 5000 + "]" * 5000, "[" * 100_000],
    ids=["none", "number", "list", "nested-toml", "nested-json"],
)
def test_item_8_house_rules_of_any_input_raise_the_library_errors(text: Any) -> None:
    with pytest.raises(ba.SerializationError):
        houserules.loads(text)
    with pytest.raises(ba.SerializationError):
        houserules.loads(text, format="json")


def test_item_8_house_rules_from_bytes() -> None:
    assert houserules.loads(b'name = "ours"\n').name == "ours"
    text = json.dumps({"name": "ours"})
    assert houserules.loads(text.encode("utf-16"), format="json").name == "ours"
    with pytest.raises(ba.SerializationError, match="UTF-8"):
        houserules.loads('name = "caf\u00e9"\n'.encode("latin-1"))


def test_item_8_house_rules_nested_too_deeply() -> None:
    with pytest.raises(ba.SerializationError, match=r"nested too deeply|not valid"):
        houserules.loads("[" * 100_000 + "]" * 100_000, format="json")


def test_item_8_unreadable_rule_files_raise_the_library_errors(tmp_path: Path) -> None:
    latin = tmp_path / "latin.toml"
    latin.write_bytes('name = "caf\u00e9"\n'.encode("latin-1"))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 50_000 + "]" * 50_000)
    for path in (latin, deep, tmp_path / "missing.toml", tmp_path):
        with pytest.raises(ba.SerializationError):
            houserules.load(path)


def test_item_8_unreadable_record_files_raise_the_library_errors(tmp_path: Path) -> None:
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


def test_item_8_a_rule_set_named_with_a_lone_surrogate_refused() -> None:
    with pytest.raises(ba.RuleSetError):
        ba.RuleSet(name="\ud800")
    with pytest.raises(ba.SerializationError):
        ba.from_json('{"name": "\\ud800"}', ba.RuleSet)
    with pytest.raises(ba.SerializationError):
        houserules.loads('name = "\\ud800"')


# ------------------------------------------------------------------ item 9


def test_item_9_huge_integers_bounded() -> None:
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


def test_item_9_huge_numbers_in_a_rule_set_built_in_python_are_not_written_bare() -> None:
    rules = ba.variants.GAMERULES.replace(scoring=ba.rules.ContractScoring(per_bid_trick=10**5000))
    with pytest.raises(ba.SerializationError):
        ba.to_json(rules)


# ------------------------------------------------------------------ item 10


def test_item_10_schedule_length_and_document_size_bounded() -> None:
    with pytest.raises(ba.RuleSetError, match="at most 1000 deals"):
        ba.rules.Schedule(hand_sizes=[1] * 1001)
    with pytest.raises(ba.SerializationError, match="1000"):
        houserules.loads(json.dumps({"schedule": {"hand_sizes": [1] * 10**5}}), format="json")
    with pytest.raises(ba.SerializationError, match="at most"):
        ba.from_json(" " * (common.MAX_DOCUMENT_SIZE + 1), ba.GameState)
    with pytest.raises(ba.SerializationError, match="at most"):
        houserules.loads(" " * (houserules.MAX_FILE_SIZE + 1))


# ------------------------------------------------------------------ item 11

RACE = textwrap.dedent(
    """
    import threading, time, backalley as ba
    from backalley.serialize import convert
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


def test_item_11_lazy_registration_does_not_race() -> None:
    out = subprocess.run(
        [sys.executable, "-c", RACE],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parent.parent,
    )
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


# ------------------------------------------------------------------ item 12


def test_item_12_notation_round_trips_and_is_ascii() -> None:
    for tricks in (0, 13, 999):
        assert ba.parse_move(str(ba.Bid(tricks))) == ba.Bid(tricks)
    with pytest.raises(ba.NotationError):
        ba.Bid(1000)
    for text in ("Q\u017f", "play \u212aS", "bid \u0663", "\uff31S"):
        with pytest.raises(ba.NotationError):
            ba.parse_move(text)
    assert ba.parse_move("play Q\u2660") == ba.parse_move("play QS")


# ------------------------------------------------------------------ item 13


def test_item_13_bare_exceptions_become_the_library_errors() -> None:
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
    with pytest.raises(ba.IllegalMoveError):
        state.check(state.legal_moves()[0], seat=0.0)  # type: ignore[arg-type]


def test_item_13_values_hold_no_mutable_lists() -> None:
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


def test_item_13_a_pickled_replay_error_keeps_its_index() -> None:
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


def test_item_13_dumps_toml_writes_names_its_loads_reads() -> None:
    for name in ("a\x7fb", 'q"\\', "tab\there", "\u00e9\U0001f600"):
        rules = ba.RuleSet(name=name)
        assert houserules.loads(houserules.dumps_toml(rules)).name == name


def test_item_13_rejected_documents_raise_serialization_errors_with_a_path() -> None:
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


# ------------------------------------------------------------------ item 14


def test_item_14_secure_seeds_are_the_obvious_path() -> None:
    seeds = {ba.secure_seed() for _ in range(8)}
    assert len(seeds) == 8 and all(0 <= s < 2**63 for s in seeds)
    assert max(seeds) > 2**40  # 63 random bits: far out of reach of a brute force
    assert ba.new_game().seed != ba.new_game().seed
    docs = Path(__file__).parent.parent / "docs"
    for page in ("integration.rst", "quickstart.rst"):
        text = (docs / page).read_text(encoding="utf-8")
        assert "secure_seed" in text and "brute" in text, page
