"""House-rule files: TOML and JSON descriptions of a rule set,
``base`` + part overrides, refusals with the path of the offending key, and
the ``backalley rules`` command.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import backalley as ba
from backalley import houserules
from backalley.cli import main
from backalley.io.serialize import rules_to_data
from backalley.rules import (
    AllPass,
    Auction,
    AuctionScoring,
    ContractScoring,
    DefendersScore,
    FixedTrump,
    JokerTurnUp,
    OnceAroundBidding,
    Rainbow,
    Schedule,
    TrumpLead,
    TurnUpTrump,
)

from .. import ROOT
from ..helpers import fuzz_examples

V = ba.variants
EXAMPLE = ROOT / "examples" / "house_rules.toml"

OUR_TABLE = V.GAMERULES.replace(
    trump=FixedTrump(ba.Suit.SPADES),
    bidding=OnceAroundBidding(hook=True, all_pass=AllPass.REDEAL_SAME_DEALER),
    scoring=ContractScoring(per_bid_trick=10, set_per_bid_trick=10, rainbow=Rainbow(4, 10)),
    name="our-table",
)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def loads(text: str) -> ba.RuleSet:
    return houserules.loads(text)


def refused(text: str, fmt: str = "toml") -> ba.SerializationError:
    with pytest.raises(ba.SerializationError) as info:
        houserules.loads(text, format=fmt)
    err = info.value
    assert isinstance(err, ValueError) and isinstance(err, ba.BackAlleyError)
    assert str(err).startswith(err.path.removeprefix("$").removeprefix("."))  # the dotted key
    return err


def play_to_end(rules: ba.RuleSet, seed: int) -> ba.GameState:
    rng = random.Random(seed)
    state = ba.new_game(rules, seed=seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
    return state


# ------------------------------------------------------ the example file


def test_example_house_rules_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """The example file: gamerules with spades trump, the hook, 10 per bid trick, a rainbow."""
    monkeypatch.chdir(ROOT)
    rules = ba.houserules.load("examples/house_rules.toml")
    assert rules == OUR_TABLE
    assert rules.name == "our-table"
    assert rules.bidding == attrs.evolve(
        V.GAMERULES.bidding, hook=True, all_pass=AllPass.REDEAL_SAME_DEALER
    )
    assert ba.houserules.load(EXAMPLE) == rules  # a Path works too
    assert houserules.load(str(EXAMPLE)) == rules


def test_example_house_rules_play_a_whole_game() -> None:
    """A loaded house-rules set plays a whole game under its own rules."""
    rules = ba.houserules.load(EXAMPLE)
    final = play_to_end(rules, 3)
    assert final.deals_played == 25 and final.is_over
    assert all(r.trump is ba.Suit.SPADES and r.turn_up is None for r in final.deal_results)
    assert final.scores == tuple(sum(r.points[t] for r in final.deal_results) for t in (0, 1))


# ------------------------------------------------------ TOML and JSON files


def test_toml_file(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "table.toml",
        """
name = "short-table"

[schedule]
hand_sizes = [5, 4, 3]

[trump]
type = "turn-up"
joker_turn_up = "turn-next-card"

[lead]
trump_lead = "any-time"
""",
    )
    rules = houserules.load(path)
    assert rules.name == "short-table"
    assert rules == V.GAMERULES.replace(
        schedule=Schedule((5, 4, 3)),
        trump=TurnUpTrump(JokerTurnUp.TURN_NEXT_CARD),
        lead=attrs.evolve(V.GAMERULES.lead, trump_lead=TrumpLead.ANY_TIME),
    )
    final = play_to_end(rules, 1)
    assert [r.hand_size for r in final.deal_results] == [5, 4, 3]


def test_json_file(tmp_path: Path) -> None:
    data = {
        "format": "backalley/rules",
        "name": "json-table",
        "base": "vietnam",
        "schedule": {"hand_sizes": [10, 10, 10]},
        "scoring": {"defenders_score": "all-tricks"},
    }
    path = write(tmp_path, "table.json", json.dumps(data))
    rules = ba.houserules.load(path)
    assert rules.name == "json-table"
    assert rules == V.VIETNAM.replace(
        schedule=Schedule.fixed(10, 3),
        scoring=AuctionScoring(defenders_score=DefendersScore.ALL_TRICKS),
    )
    assert play_to_end(rules, 2).deals_played == 3


def test_rule_set_json_documents_load_as_house_rules(tmp_path: Path) -> None:
    """A rule set written by ba.to_json (with "format" and "version") is a house-rules file."""
    for name in ("bab-online", "vietnam-42", "cutthroat-5"):
        rules = V.get(name)
        path = write(tmp_path, f"{name}.json", ba.to_json(rules))
        back = ba.houserules.load(path)
        assert back == rules and back.name == name


def test_dumped_toml_files_load_back(tmp_path: Path) -> None:
    """houserules.dumps_toml writes every part and parameter; loading gives the rule set back."""
    for name in V.names():
        rules = V.get(name)
        text = houserules.dumps_toml(rules)
        for part in ba.rules.PART_NAMES:
            assert f"[{part}]" in text
        path = write(tmp_path, f"{name}.toml", text)
        back = ba.houserules.load(path)
        assert back == rules and back.name == rules.name


def test_empty_file_is_the_default_game() -> None:
    rules = loads("")
    assert rules == V.GAMERULES and rules.name is None
    assert houserules.loads('{"format": "backalley/rules"}', format="json") == V.GAMERULES


def test_unknown_format_refused() -> None:
    with pytest.raises(ValueError, match="format"):
        houserules.loads("", format="yaml")


# ------------------------------------------------------ base and overrides


def test_base_with_parameter_overrides() -> None:
    """No `type`: only the given parameters of the base's part change."""
    rules = loads('base = "bab-online"\n[bidding]\nhook = true\n[scoring]\nper_overtrick = 2\n')
    bab = V.BAB_ONLINE
    assert rules.bidding == attrs.evolve(bab.bidding, hook=True)
    assert rules.scoring == attrs.evolve(bab.scoring, per_overtrick=2)
    for part in ("deck", "seating", "schedule", "dealer", "trump", "lead", "follow", "end"):
        assert getattr(rules, part) == getattr(bab, part)
    assert rules.name is None  # not the base any more


def test_base_with_the_same_type_keeps_the_other_parameters() -> None:
    """houserules: "no type (or the same type): override parameters only"."""
    rules = loads(
        'base = "bab-online"\n[trump]\ntype = "turn-up"\n[bidding]\ntype = "once-around"\nhook = true\n'
    )
    assert rules.trump == V.BAB_ONLINE.trump
    assert rules.bidding == attrs.evolve(V.BAB_ONLINE.bidding, hook=True)


def test_base_with_a_new_type_starts_from_its_defaults() -> None:
    """A new `type` replaces the part, its parameters starting from their defaults."""
    rules = loads('base = "bab-online"\n[trump]\ntype = "fixed"\n')
    assert rules.trump == FixedTrump()  # spades by default
    rules = loads('base = "bab-online"\n[trump]\ntype = "fixed"\nsuit = "H"\n')
    assert rules.trump == FixedTrump(ba.Suit.HEARTS)
    rules = loads(
        'base = "bab-online"\n[bidding]\ntype = "auction"\ncounters = 1\n[scoring]\ntype = "auction"\n'
    )
    assert rules.bidding == Auction(counters=1)
    assert rules.scoring == AuctionScoring()  # the bab-online rainbow is not carried over
    assert rules.schedule == V.BAB_ONLINE.schedule
    # and back: vietnam with once-around bidding from its defaults
    rules = loads(
        'base = "vietnam"\n[trump]\ntype = "turn-up"\n[bidding]\ntype = "once-around"\n'
        '[scoring]\ntype = "contract"\n[lead]\nfirst_lead = "highest-bidder"\n'
    )
    assert rules.bidding == OnceAroundBidding() and rules.scoring == ContractScoring()
    assert rules.trump == TurnUpTrump()
    assert rules.lead.trump_lead is TrumpLead.ANY_TIME  # a lead parameter of the base kept


def test_base_by_alias_and_any_case() -> None:
    assert loads('base = "VIETNAM_42"') == V.VIETNAM_42
    assert loads('base = "bab"') == V.BAB_ONLINE
    assert loads('base = "default"') == V.GAMERULES


def test_parts_without_a_base_start_from_the_defaults() -> None:
    rules = loads("[bidding]\nhook = true\n")
    assert rules == V.HOOK


# ------------------------------------------------------ malformed files


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('colour = "red"', "$.colour"),
        ("[bidding]\nhooks = true", "$.bidding.hooks"),
        ('[bidding]\nhook = "yes"', "$.bidding.hook"),
        ("[bidding]\nhook = 1", "$.bidding.hook"),
        ("[scoring]\nper_bid_trick = 5.5", "$.scoring.per_bid_trick"),
        ('[scoring]\nper_bid_trick = "5"', "$.scoring.per_bid_trick"),
        ("[scoring]\nrainbow = { hand_size = 4, colour = 1 }", "$.scoring.rainbow.colour"),
        ('[scoring]\nrainbow = { hand_size = "4" }', "$.scoring.rainbow.hand_size"),
        ("[deck]\njokers = true", "$.deck.jokers"),
        ('[deck]\nranks = ["2", "Z"]', "$.deck.ranks[1]"),
        ("[deck]\nranks = 5", "$.deck.ranks"),
        ('[trump]\ntype = "magic"', "$.trump.type"),
        ("[trump]\ntype = 5", "$.trump.type"),
        ('[trump]\ntype = "fixed"\nsuit = "X"', "$.trump.suit"),
        ('[trump]\nsuit = "S"', "$.trump.suit"),  # turn-up (the base's type) has no suit
        ('[seating]\ntype = "cutthroat"\nplayers = "three"', "$.seating.players"),
        ('[schedule]\nhand_sizes = [13, "x"]', "$.schedule.hand_sizes[1]"),
        ('[schedule]\nhand_sizes = "13"', "$.schedule.hand_sizes"),
        ('[lead]\ntrump_lead = "sometimes"', "$.lead.trump_lead"),
        ('[dealer]\nnext_dealer = "random"', "$.dealer.next_dealer"),
        ('[bidding]\nboard_multipliers = [1, "x"]', "$.bidding.board_multipliers[1]"),
        ('base = "nonesuch"', "$.base"),
        ("base = 3", "$.base"),
        ("name = 5", "$.name"),
        ('trump = "S"', "$.trump"),
    ],
)
def test_malformed_toml_refused_with_the_path(text: str, path: str) -> None:
    """houserules: unknown keys, wrong types and unknown tags are refused with the offending key's path."""
    err = refused(text)
    assert err.path == path, str(err)


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("[deck]\njokers = 1", "$.deck.jokers"),
        ('[seating]\ntype = "cutthroat"\nplayers = 1', "$.seating.players"),
        ("[schedule]\nhand_sizes = []", "$.schedule.hand_sizes"),
        ("[schedule]\nhand_sizes = [0]", "$.schedule.hand_sizes"),
        ("[bidding]\nmin_bid = -1", "$.bidding.min_bid"),
    ],
)
def test_bad_part_parameters_refused_at_their_key(text: str, path: str) -> None:
    """A parameter of the right type that the part's validator refuses: the path names its key."""
    err = refused(text)
    assert err.path == path, str(err)


def test_invalid_toml_refused() -> None:
    err = refused("[bidding\nhook = true")
    assert err.path == "$"
    assert "TOML" in str(err)
    assert refused('name = "x"\nname = "y"').path == "$"  # a key twice


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("{", "$"),
        ("[1, 2]", "$"),
        ('"gamerules"', "$"),
        ("{}", "$.format"),
        ('{"format": "backalley/state"}', "$.format"),
        ('{"format": "backalley/rules", "bidding": {"hook": "yes"}}', "$.bidding.hook"),
        ('{"format": "backalley/rules", "bidding": []}', "$.bidding"),
        ('{"format": "backalley/rules", "deck": {"jokers": null}}', "$.deck.jokers"),
        ('{"format": "backalley/rules", "scoring": {"rainbow": 4}}', "$.scoring.rainbow"),
    ],
)
def test_malformed_json_refused_with_the_path(text: str, path: str) -> None:
    err = refused(text, "json")
    assert err.path == path, str(err)


def test_malformed_files_refused(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.toml", '[bidding]\nhook = "yes"\n')
    with pytest.raises(ba.SerializationError) as info:
        ba.houserules.load(bad)
    assert info.value.path == "$.bidding.hook"
    bad_json = write(
        tmp_path, "bad.json", '{"format": "backalley/rules", "trump": {"type": "magic"}}'
    )
    with pytest.raises(ba.SerializationError) as info:
        ba.houserules.load(bad_json)
    assert info.value.path == "$.trump.type"
    with pytest.raises(ba.SerializationError) as info:
        ba.houserules.load(tmp_path / "missing.toml")
    assert "missing.toml" in str(info.value)


def test_incompatible_parts_in_a_file_are_rule_set_errors() -> None:
    """Parts that do not fit raise RuleSetError naming both parts."""
    with pytest.raises(ba.RuleSetError) as info:
        loads('[trump]\ntype = "declarer-names"\n')
    assert any("trump" in p and "bidding" in p for p in info.value.problems)
    with pytest.raises(ba.RuleSetError) as info:
        loads('base = "vietnam-42"\n[schedule]\nhand_sizes = [13, 13]\n')
    assert any("deck" in p and "schedule" in p for p in info.value.problems)
    with pytest.raises(ba.RuleSetError) as info:
        loads('base = "vietnam"\n[bidding]\ntype = "once-around"\n[deck]\njokers = 0\n')
    assert len(info.value.problems) >= 2


# ------------------------------------------------------------------ the CLI


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def test_cli_rules_prints_the_sheet_of_a_file(tmp_path: Path) -> None:
    """`backalley rules FILE` prints the rules sheet of a house-rules file."""
    code, text = run("rules", str(EXAMPLE))
    assert code == 0
    assert text == OUR_TABLE.describe()
    assert text.startswith("Back Alley: our-table")
    assert "Spades are always trump" in text
    assert "The hook" in text
    assert "Rainbow" in text
    path = write(
        tmp_path,
        "mine.json",
        json.dumps({"format": "backalley/rules", "base": "vietnam", "name": "mine"}),
    )
    code, text = run("rules", str(path))
    assert code == 0 and text.startswith("Back Alley: mine") and "ascending auction" in text


def test_cli_rules_prints_the_sheet_of_a_variant() -> None:
    code, text = run("rules", "bab-online")
    assert code == 0 and text == V.BAB_ONLINE.describe()
    code, text = run("rules")
    assert code == 0 and text == V.GAMERULES.describe()


def test_cli_rules_diff_lists_the_differing_parts() -> None:
    """`backalley rules --diff gamerules bab-online` lists only the parts that differ."""
    code, text = run("rules", "--diff", "gamerules", "bab-online")
    assert code == 0
    lines = text.splitlines()
    assert lines[0] == "gamerules -> bab-online:"
    parts = [line.strip().split(":")[0] for line in lines[1:]]
    assert parts == ["schedule", "trump", "bidding", "lead", "follow", "scoring"]
    body = "\n".join(lines[1:])
    for change in (
        "pass_allowed on -> off",
        "min_bid 1 -> 0",
        "board_multipliers 1, 2, 3, 4 -> 2, 4, 8, 16",
        "joker_turn_up no-trump-swap-other-joker -> no-trump-other-joker-stays",
        "trump_lead after-broken-or-board -> after-broken",
        "blooper_forced all-others -> opponents",
        "per_bid_trick 5 -> 10",
    ):
        assert change in body, change
    # unchanged options are not listed
    assert "hook" not in body and "first_bidder" not in body
    assert ba.rules.diff_rules(V.GAMERULES, V.BAB_ONLINE) == [line.strip() for line in lines[1:]]


def test_cli_rules_diff_with_a_file_and_a_new_type() -> None:
    code, text = run("rules", "--diff", "gamerules", str(EXAMPLE))
    assert code == 0
    assert text.splitlines()[0] == "gamerules -> our-table:"
    parts = [line.strip().split(":")[0] for line in text.splitlines()[1:]]
    assert parts == ["trump", "bidding", "scoring"]
    assert "turn-up" in text and "fixed" in text  # a changed type shows both summaries
    code, text = run("rules", "--diff", "gamerules", "default")
    assert code == 0 and "the same rules" in text


def test_cli_rules_refuses_a_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path, "bad.toml", "[scoring]\nper_bid_trick = 5.5\n")
    code, text = run("rules", str(bad))
    assert code == 2 and text == ""
    err = capsys.readouterr().err
    assert f"{bad}: scoring.per_bid_trick: " in err
    code, _ = run("rules", "no-such-variant")
    assert code == 2
    assert "unknown variant" in capsys.readouterr().err


# ------------------------------------------------------- names in TOML text


@pytest.mark.parametrize("name", ["Café Ünter", 'a "quoted" \\ name', "tab\there", "日本の卓"])
def test_dumped_toml_keeps_the_name(name: str) -> None:
    rules = V.GAMERULES.replace(name=name)
    back = houserules.loads(houserules.dumps_toml(rules))
    assert back == rules and back.name == name


@pytest.mark.parametrize("name", ["our table \U0001f0a1", "\U0001f600"])
def test_dumped_toml_keeps_a_name_beyond_the_bmp(name: str) -> None:
    rules = V.GAMERULES.replace(name=name)
    back = houserules.loads(houserules.dumps_toml(rules))
    assert back == rules and back.name == name


# The TOML writer (toml_value, dumps_toml), which is the library's own (its runtime
# dependencies are attrs and cattrs alone, so no tomli-w): a real TOML reader reads
# back what it writes.

_PLAIN_LEAF = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),  # TOML's whole numbers are 64-bit
    st.text(),  # every character (hypothesis leaves out lone surrogates, as TOML does)
)
_PLAIN = st.recursive(
    _PLAIN_LEAF,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8), inner | st.none(), max_size=4)
    ),
    max_leaves=12,
)


def _without_none_fields(value: object) -> object:
    """A plain value as TOML holds it: a table's fields that are None left out."""
    if isinstance(value, list):
        return [_without_none_fields(v) for v in value]
    if isinstance(value, dict):
        return {k: _without_none_fields(v) for k, v in value.items() if v is not None}
    return value


@settings(max_examples=fuzz_examples(300), deadline=None, database=None)
@given(value=_PLAIN, key=st.text(min_size=1, max_size=8))
def test_tomllib_reads_back_every_value_the_toml_writer_writes(value: object, key: str) -> None:
    from backalley.io.houserule_keys import toml_key, toml_value

    text = f"{toml_key(key)} = {toml_value(value)}\n"
    assert houserules.tomllib.loads(text) == {key: _without_none_fields(value)}, text


def test_the_toml_writer_refuses_none_in_a_list() -> None:
    from backalley.io.houserule_keys import toml_value

    with pytest.raises(ba.SerializationError, match="TOML has no null"):
        toml_value([1, None])


@pytest.mark.parametrize("name", ba.variants.names())
def test_tomllib_reads_a_dumped_rule_set_as_its_document(name: str) -> None:
    """Every part a table, every option that is not None a key of it, as the
    JSON document has them."""
    rules = ba.variants.get(name)
    data = json.loads(json.dumps(rules_to_data(rules)))
    assert houserules.tomllib.loads(houserules.dumps_toml(rules)) == _without_none_fields(data)


_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 60),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(["S", "H", "draw", "any-time", "turn-up", "fixed", "auction", "A", "T"]),
)
_VALUE = st.recursive(
    _LEAF,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)


@settings(max_examples=fuzz_examples(150), deadline=None, database=None)
@given(data=st.data())
def test_mutated_house_rules_load_or_raise_the_librarys_errors(data: st.DataObject) -> None:
    """Any mutation of a valid rule-set document either loads (and then dumps
    to TOML and loads back equal) or raises a BackAlleyError - never another
    exception (a list where a ``type`` tag belongs once raised TypeError)."""
    name = data.draw(st.sampled_from(ba.variants.names()))
    doc = json.loads(json.dumps(rules_to_data(ba.variants.get(name))))
    for _ in range(data.draw(st.integers(1, 3))):
        part = data.draw(st.sampled_from(sorted(doc)))
        if isinstance(doc[part], dict) and doc[part] and data.draw(st.booleans()):
            key = data.draw(st.sampled_from(sorted(doc[part])))
            doc[part][key] = data.draw(_VALUE)
        else:
            doc[part] = data.draw(_VALUE)
    try:
        rules = houserules.loads(json.dumps({"format": "backalley/rules", **doc}), format="json")
    except ba.BackAlleyError:
        return
    assert houserules.loads(houserules.dumps_toml(rules)) == rules
