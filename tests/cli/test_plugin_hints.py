"""A plug-in's names where the plug-in is not loaded, and its variants'
descriptions: a record, a document, a house-rules file or a command line that
names a rule type, a variant or a bot nobody registered is refused with the
hint that names ``--import``; a variant registered with a description shows
it in ``backalley variants``."""

from __future__ import annotations

import io
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import backalley as ba
from backalley import bots, plugins, variants
from backalley.cli import main
from backalley.rules import registry

HINT = "(a {} of your own is known once its module is imported: backalley --import MODULE)"

MODULE = '''
from typing import ClassVar

import attrs

import backalley as ba
from backalley.rules import LeadPolicy, register


@register
@attrs.frozen
class HintLead(LeadPolicy):
    """The default lead, under a club's own tag."""

    tag: ClassVar[str] = "hintclub/lead"


ba.variants.register(
    ba.variants.GAMERULES.replace(lead=HintLead(), name="hint-club-table"),
    "hint-club",
    description="Our club's table:   the gamerules game\\n with a lead of our own.",
)
ba.variants.register(ba.variants.GAMERULES.replace(name="hint-club-bare"))
'''


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A scratch working directory holding the module ``hint_club``; what it
    registers is forgotten after the test."""
    saved_bots = dict(bots._BOTS)
    saved_variants = dict(variants._REGISTRY), dict(variants._ALIASES)
    saved_parts = {part: dict(table) for part, table in registry._REGISTRY.items()}
    saved_types = dict(registry._OPTION_TYPES)
    modules = set(sys.modules)
    (tmp_path / "hint_club.py").write_text(textwrap.dedent(MODULE), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(plugins, "_LOADED", set())
    yield tmp_path
    for name in set(sys.modules) - modules:
        if str(tmp_path) in str(getattr(sys.modules[name], "__file__", "")):
            del sys.modules[name]
    bots._BOTS.clear()
    bots._BOTS.update(saved_bots)
    for table, saved in zip((variants._REGISTRY, variants._ALIASES), saved_variants):
        table.clear()
        table.update(saved)  # type: ignore[arg-type]
    for part, table in registry._REGISTRY.items():
        table.clear()
        table.update(saved_parts[part])
    registry._OPTION_TYPES.clear()
    registry._OPTION_TYPES.update(saved_types)


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


def _forget_the_module() -> None:
    """Unregister what ``hint_club`` registered, as in a new process without it."""
    registry._REGISTRY["lead"].pop("hintclub/lead")
    for name in ("hint-club-table", "hint-club-bare"):
        variants._REGISTRY.pop(name)
    variants._ALIASES.pop("hint-club")


def test_checking_a_record_of_a_plug_in_rule_without_its_module_hints_at_import(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = run(
        "--import", "hint_club", "play", "--variant", "hint-club-table", "--seed", "3",
        "--players", "random", "--quiet", "--record", "club.json",
    )  # fmt: skip
    assert status == 0
    assert run("--import", "hint_club", "check", "club.json")[0] == 0
    _forget_the_module()
    for command in ("check", "show"):
        assert run(command, "club.json") == (2, "")
        err = capsys.readouterr().err
        assert err == (
            "backalley: club.json: not a game record: $.rules.lead.type: unknown lead type "
            f"'hintclub/lead'; known: lead {HINT.format('rule')}\n"
        )


def test_a_document_naming_an_unknown_type_or_base_says_how_to_make_it_known() -> None:
    text = ba.to_json(ba.variants.GAMERULES).replace('"type": "lead"', '"type": "club/lead"')
    with pytest.raises(ba.SerializationError) as found:
        ba.from_json(text, ba.RuleSet)
    assert found.value.path == "$.lead.type"
    assert str(found.value).endswith(f"known: lead {HINT.format('rule')}")
    document = '{"format": "backalley/rules", "version": 2, "base": "club-table"}'
    with pytest.raises(ba.SerializationError) as found:
        ba.from_json(document, ba.RuleSet)
    assert found.value.path == "$.base"
    assert "unknown variant 'club-table'" in str(found.value)
    assert str(found.value).endswith(HINT.format("variant"))
    with pytest.raises(ba.houserules.HouseRulesError) as refused:
        ba.houserules.loads('base = "club-table"\n')
    assert refused.value.problems[0].endswith(HINT.format("variant"))


def test_an_unknown_variant_or_bot_on_the_command_line_hints_at_import(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run("play", "--variant", "club-table", "--quiet") == (2, "")
    err = capsys.readouterr().err
    assert err.startswith("backalley: unknown variant 'club-table'; known variants: gamerules")
    assert err.endswith(HINT.format("variant") + "\n") and err.count("\n") == 1
    assert run("play", "--players", "club-bot", "--quiet") == (2, "")
    err = capsys.readouterr().err
    assert err.startswith("backalley: --players: unknown bot 'club-bot'; known bots: random")
    assert err.endswith(HINT.format("bot") + "\n") and err.count("\n") == 1
    assert run("play", "--players", ",random,random,random", "--quiet") == (2, "")
    assert "of your own" not in capsys.readouterr().err, "an empty name is not a missing plug-in"


def test_a_variant_is_registered_with_a_description_shown_by_the_variants_command(
    scratch: Path,
) -> None:
    status, text = run("--import", "hint_club", "variants")
    assert status == 0
    lines = {line.split()[0]: line for line in text.splitlines()}
    assert lines["hint-club-table"].split(None, 1)[1] == (
        "Our club's table: the gamerules game with a lead of our own."
    )
    assert lines["hint-club-bare"] == "hint-club-bare", "registered without one: the name alone"
    assert variants.description("HINT_CLUB") == variants.description("hint-club-table")
    assert variants.description("hint-club-bare") == ""
    for name in variants.names():
        assert variants.get(name).name == name
    with pytest.raises(ba.UnknownVariantError):
        variants.description("no-such-table")


def test_every_built_in_variant_has_its_description() -> None:
    for name in variants.names():
        assert len(variants.description(name).split()) >= 5, name
    for name, note in variants.PRESET_NOTES.items():
        assert variants.description(name) == " ".join(note.split())


@pytest.mark.parametrize(
    ("description", "problem"),
    [
        (7, "a variant's description is text, not int"),
        ("x" * 2001, "a variant's description is at most 2000 characters, not 2001"),
    ],
    ids=["not-text", "too-long"],
)
def test_a_description_that_is_not_short_text_is_refused(
    scratch: Path, description: object, problem: str
) -> None:
    rules = ba.variants.GAMERULES.replace(name="hint-refused")
    with pytest.raises(ba.RuleSetError) as refused:
        variants.register(rules, description=description)  # type: ignore[arg-type]
    assert list(refused.value.problems) == [problem]
    assert "hint-refused" not in variants.names()
