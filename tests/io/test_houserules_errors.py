"""House-rule files that are not rule sets: every problem found in one
reading, each naming its dotted key, what is wrong and what would work; the
command line prints one line per problem and exits 2.  Also: schedules
given as forms (``type = "fixed"``), and the key reference generated from
the registry.
"""

from __future__ import annotations

import io
import pickle
import sys
from pathlib import Path

import attrs
import pytest

import backalley as ba
from backalley import houserules
from backalley.cli import main
from backalley.io.houserule_keys import reference, reference_text, table_types
from backalley.io.houserule_problems import Problem, read_part
from backalley.io.houserules import HouseRulesError
from backalley.rules import Schedule
from backalley.rules.registry import PART_NAMES, option_types, registered_parts

from .. import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

V = ba.variants


def problems(text: str, fmt: str = "toml") -> HouseRulesError:
    with pytest.raises(HouseRulesError) as info:
        houserules.loads(text, format=fmt)
    return info.value


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


MANY = """
base = "gamerules"
colour = "red"

[bidding]
min_bid = -1
hooks = true
board = "yes"

[seating]
type = "cutthroat"
players = 1

[scoring]
per_bid_trick = 5.5
rainbow = { hand_size = 0 }

[trump]
type = "fixd"
"""


# ------------------------------------------------------- every problem at once


def test_every_problem_of_a_file_is_named_in_one_reading() -> None:
    err = problems(MANY)
    assert err.problems == (
        "colour: unknown key 'colour' in a house-rules file; its keys are name, base, deck, "
        "seating, schedule, dealer, trump, bidding, lead, follow, ranking, scoring, end",
        "bidding.min_bid: -1 is below 0; give a whole number >= 0",
        "bidding.hooks: unknown key 'hooks' (did you mean 'hook'?) for the bidding type "
        "'once-around'; its keys are type, pass_allowed, min_bid, max_bid_below_hand, board, "
        "board_claims, board_multipliers, board_multiplier, all_pass, first_bidder, hook",
        'bidding.board: got "yes"; give true or false',
        "seating.players: 1 is below 2; give a whole number from 2 to 8",
        "scoring.per_bid_trick: got 5.5; give a whole number",
        "scoring.rainbow.hand_size: 0 is below 1; give a whole number >= 1",
        "trump.type: there is no trump type \"fixd\" (did you mean 'fixed'?); give one of "
        "'turn-up', 'fixed', 'turned-before-deal', 'declarer-names', 'none', 'rotating' "
        "(a rule of your own is known once its module is imported: backalley --import MODULE)",
    )
    assert err.paths == (
        "$.colour",
        "$.bidding.min_bid",
        "$.bidding.hooks",
        "$.bidding.board",
        "$.seating.players",
        "$.scoring.per_bid_trick",
        "$.scoring.rainbow.hand_size",
        "$.trump.type",
    )
    assert err.path == "$.colour" and err.file is None
    assert str(err) == "\n".join(err.problems)


def test_the_error_is_a_serialization_and_a_rule_set_error_and_pickles() -> None:
    err = problems(MANY)
    assert isinstance(err, ba.SerializationError) and isinstance(err, ba.RuleSetError)
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is HouseRulesError
    assert (back.problems, back.paths, back.file, str(back)) == (
        err.problems, err.paths, err.file, str(err)
    )  # fmt: skip


def test_a_file_names_itself_on_every_line(tmp_path: Path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(MANY, encoding="utf-8")
    with pytest.raises(HouseRulesError) as info:
        houserules.load(path)
    lines = str(info.value).splitlines()
    assert len(lines) == 8
    assert all(line.startswith(f"{path}: ") for line in lines)
    assert lines[1] == f"{path}: bidding.min_bid: -1 is below 0; give a whole number >= 0"
    assert info.value.file == str(path)


def test_the_command_line_prints_one_line_per_problem_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(MANY, encoding="utf-8")
    assert run("rules", str(path)) == (2, "")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 8
    assert (
        lines[1] == f"backalley: {path}: bidding.min_bid: -1 is below 0; give a whole number >= 0"
    )
    assert all(line.startswith(f"backalley: {path}: ") for line in lines)
    assert "$" not in "".join(lines)  # no JSON path, nor the file twice
    assert run("play", "--variant", str(path))[0] == 2


def test_every_problem_of_the_parts_fit_is_named_together() -> None:
    err = problems('base = "vietnam"\n[bidding]\ntype = "once-around"\n[deck]\njokers = 0\n')
    assert len(err.problems) >= 2
    assert all(p.split(":")[0].count(" and ") >= 1 for p in err.problems)  # the parts named
    assert set(err.paths) == {"$"}


def test_an_unknown_key_of_the_file_and_the_fit_problems_come_together() -> None:
    text = 'colour = 1\nbase = "vietnam"\n[bidding]\ntype = "once-around"\n'
    err = problems(text)
    assert err.problems[0].startswith("colour: unknown key 'colour'")
    assert len(err.problems) >= 3 and err.paths[1:] == ("$",) * (len(err.problems) - 1)
    assert all("bidding" in p for p in err.problems[1:])


def test_a_key_problem_is_named_before_the_fit_is_judged() -> None:
    """While a part cannot be read, the fit of the parts is not judged (its
    problems would be about a part the file does not describe)."""
    err = problems('[bidding]\nboard = false\nhook = "yes"\n')
    assert err.problems == ('bidding.hook: got "yes"; give true or false',)


def test_a_number_above_its_range_says_so() -> None:
    err = problems('[seating]\ntype = "cutthroat"\nplayers = 9\n')
    assert err.problems == ("seating.players: 9 is above 8; give a whole number from 2 to 8",)


def test_an_unknown_base_is_named_and_the_untyped_parts_wait_for_it() -> None:
    err = problems('base = "nonesuch"\n[bidding]\nhook = true\n[scoring]\nper_bid_trick = "x"\n')
    assert len(err.problems) == 1
    assert err.problems[0].startswith("base: there is no variant 'nonesuch'; give one of ")
    assert "gamerules" in err.problems[0]


def test_a_document_that_is_not_a_table_is_one_problem() -> None:
    err = problems("[1, 2]", "json")
    assert err.problems == (
        "got [1, 2]; a house-rules file is a table of keys (name, base, parts)",
    )
    err = problems("[bidding\nhook = true")
    assert err.problems[0].startswith("not valid TOML: ")


# ------------------------------------------------------ the 1-card deal


def test_a_one_card_deal_that_never_contracts_names_the_ways_out() -> None:
    err = problems('base = "gamerules"\n[bidding]\nboard = false\n')
    (problem,) = err.problems
    assert problem.startswith(
        "bidding and schedule: with 1 card(s) no call contracts for a trick, so every such "
        "deal is thrown in again forever"
    )
    for cure in (
        "board = true",
        "max_bid_below_hand = 0",
        'all_pass = "play-for-overtricks"',
        "or drop the 1-card deal from the schedule",
    ):
        assert cure in problem
    for cure in ("board = true", "max_bid_below_hand = 0"):  # each cure works
        text = f'base = "gamerules"\n[bidding]\nboard = false\n{cure}\n'.replace(
            "board = false\nboard = true", "board = true"
        )
        assert houserules.loads(text).schedule == V.GAMERULES.schedule
    loaded = houserules.loads(
        'base = "gamerules"\n[bidding]\nboard = false\n[schedule]\ntype = "down-and-up"\nbottom = 2\n'
    )
    assert min(loaded.schedule.hand_sizes) == 2


def test_a_one_card_deal_without_any_call_names_the_ways_out() -> None:
    err = problems('base = "gamerules"\n[bidding]\nboard = false\npass_allowed = false\n')
    (problem,) = err.problems
    assert "a seat can be left with no legal call" in problem
    assert "pass_allowed = true" in problem and "drop the 1-card deal" in problem


# ------------------------------------------------------ schedule forms


def test_a_fixed_schedule_is_what_schedule_fixed_builds() -> None:
    rules = houserules.loads(
        'base = "vietnam"\n[schedule]\ntype = "fixed"\nhand_size = 10\ndeals = 3\n'
    )
    assert rules.schedule == Schedule.fixed(10, 3)
    assert rules == V.VIETNAM.replace(schedule=Schedule.fixed(10, 3))
    json_rules = houserules.loads(
        '{"format": "backalley/rules", "schedule": {"type": "fixed", "hand_size": 5, "deals": 2}}',
        format="json",
    )
    assert json_rules.schedule == Schedule.fixed(5, 2)


def test_the_other_schedule_forms_build_what_their_methods_build() -> None:
    rules = houserules.loads('[schedule]\ntype = "down-and-up"\ntop = 7\nrepeat_bottom = true\n')
    assert rules.schedule == Schedule.down_and_up(7, repeat_bottom=True)
    rules = houserules.loads('[schedule]\ntype = "up-and-down"\ntop = 5\nbottom = 2\n')
    assert rules.schedule == Schedule.up_and_down(5, 2)


def test_a_form_is_written_back_as_the_part_it_builds() -> None:
    rules = houserules.loads('[schedule]\ntype = "fixed"\nhand_size = 6\ndeals = 4\n')
    text = houserules.dumps_toml(rules)
    assert 'type = "schedule"' in text and "hand_sizes = [6, 6, 6, 6]" in text
    assert houserules.loads(text) == rules


def test_a_bad_form_names_each_of_its_keys() -> None:
    err = problems('[schedule]\ntype = "fixed"\nhand_sizes = [3]\ndeals = "two"\n')
    assert err.problems == (
        "schedule.hand_sizes: unknown key 'hand_sizes' (did you mean 'hand_size'?) for the "
        "schedule type 'fixed'; its keys are type, hand_size, deals",
        'schedule.deals: got "two"; give a whole number',
        "schedule.hand_size: missing; the schedule type 'fixed' needs hand_size = a whole number",
    )
    err = problems('[schedule]\ntype = "fixed"\nhand_size = 0\ndeals = 2\n')
    assert err.paths == ("$.schedule",)
    assert "hand_sizes must be one or more whole numbers >= 1" in err.problems[0]


def test_a_form_that_does_not_fit_the_deck_is_a_fit_problem() -> None:
    err = problems('[schedule]\ntype = "fixed"\nhand_size = 14\ndeals = 2\n')
    assert err.problems[0].startswith("deck and schedule and trump: a deal of 14 cards")


# ------------------------------------------------------ the key reference


def test_every_registered_part_and_option_is_in_the_key_reference() -> None:
    kinds = {(k.part, k.name): k for k in reference()}
    for part, classes in registered_parts().items():
        for tag, cls in classes.items():
            kind = kinds[(part, tag)]
            assert kind.builds == cls.__qualname__ and not kind.is_form
            assert [k.name for k in kind.keys] == list(option_types(cls))
            for key in kind.keys:
                assert key.words and key.default_text
    assert [k.part for k in reference()] == sorted(
        (k.part for k in reference()), key=PART_NAMES.index
    )


def test_the_key_reference_text_lists_every_type_and_key() -> None:
    text = reference_text()
    for part in PART_NAMES:
        assert f"[{part}]" in text
        for kind in table_types(part).values():
            assert f'type = "{kind.name}"' in text
            block = text.split(f'type = "{kind.name}"', 1)[1]
            for key in kind.keys:
                assert f"    {key.name} = {key.words}" in block
    assert "    min_bid = a whole number (default 1)" in text
    assert '    next_dealer = one of "clockwise", "losing-team" (default "clockwise")' in text
    assert "    hand_size = a whole number (required)" in text  # the fixed schedule
    assert ":ref:" not in text and "``" not in text


def test_each_default_in_the_reference_reads_as_written() -> None:
    """A part's table written from the reference's defaults is the part's default."""
    for kind in reference():
        if kind.is_form or any(k.required for k in kind.keys):
            continue
        lines = [f'type = "{kind.name}"']
        lines += [f"{k.name} = {k.default_text}" for k in kind.keys if k.default_text != "none"]
        found: list[Problem] = []
        part = read_part(kind.part, tomllib.loads("\n".join(lines)), "$.x", None, found)
        assert found == [] and part == kind.build(), kind.name


def test_the_reference_shows_values_as_a_file_writes_them() -> None:
    schedule = table_types("schedule")
    assert [k.name for k in schedule.values()] == [
        "schedule",
        "fixed",
        "down-and-up",
        "up-and-down",
    ]
    fixed = schedule["fixed"]
    assert fixed.is_form and fixed.builds == "Schedule.fixed" and fixed.tag == "schedule"
    scoring = table_types("scoring")["contract"]
    rainbow = scoring.key("rainbow")
    assert rainbow is not None and rainbow.default_text == "none"
    assert rainbow.words.startswith("a table {hand_size = a whole number, points = a whole number}")
    deck = table_types("deck")["deck"].key("ranks")
    assert deck is not None and deck.default_text.startswith('["2", "3"')


def test_the_command_line_prints_the_key_reference(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("rules", "--keys") == (0, reference_text())
    assert run("rules", "--keys", "gamerules")[0] == 2
    assert "give no rule set with it" in capsys.readouterr().err


def test_the_docs_page_lists_the_keys_through_its_directive() -> None:
    """The house-rules page holds the generated reference (the directive is
    made from the same reference)."""
    root = ROOT
    page = (root / "docs" / "houserules.rst").read_text(encoding="utf-8")
    assert ".. house-rule-keys::" in page
    extension = (root / "docs" / "_ext" / "backalley_docs.py").read_text(encoding="utf-8")
    assert 'add_directive("house-rule-keys", HouseRuleKeysDirective)' in extension
    assert "reference()" in extension


def test_a_valid_file_still_loads_to_the_same_rules() -> None:
    text = "[bidding]\nhook = true\n"
    assert houserules.loads(text) == V.HOOK
    assert houserules.loads(houserules.dumps_toml(V.BAB_ONLINE)) is V.BAB_ONLINE
    assert attrs.evolve(V.GAMERULES.bidding, hook=True) == houserules.loads(text).bidding
