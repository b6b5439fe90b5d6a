"""Plug-ins: the command line's ``--import MODULE`` and the installed
packages of the entry-point group ``backalley.plugins`` make a user's bots,
rules and variants usable by every command; one that cannot be loaded is
named on one line and the command exits 2.

The in-process tests import small modules written into a scratch directory
and forget what they registered afterwards; one test installs the package of
``tests/data/plugin-package`` into a scratch virtual environment and runs
the command there.
"""

from __future__ import annotations

import io
import json
import site
import subprocess
import sys
import sysconfig
import textwrap
import venv
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import backalley as ba
from backalley import bots, plugins, variants
from backalley.cli import main
from backalley.rules import registry

from .. import ROOT

PACKAGE = ROOT / "tests" / "data" / "plugin-package"

MODULE = '''
from typing import ClassVar

import attrs

import backalley as ba
from backalley.bots import RandomBot, register_bot
from backalley.rules import JokersHigh, register


@register
@attrs.frozen
class QuietRanking(JokersHigh):
    """Jokers high, under a club's own tag."""

    tag: ClassVar[str] = "testclub/quiet"


register_bot("test-club-bot", RandomBot)
ba.variants.register(
    ba.variants.GAMERULES.replace(ranking=QuietRanking(), name="test-club-table")
)
'''


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A scratch working directory; the bots, variants, rule parts and
    modules a test registers or imports are forgotten after it."""
    saved_bots = dict(bots._BOTS)
    saved_variants = dict(variants._REGISTRY), dict(variants._ALIASES)
    saved_parts = {part: dict(table) for part, table in registry._REGISTRY.items()}
    saved_types = dict(registry._OPTION_TYPES)
    modules = set(sys.modules)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(plugins, "_LOADED", set())
    yield tmp_path
    for name in set(sys.modules) - modules:  # the scratch modules only
        if str(tmp_path) in str(getattr(sys.modules[name], "__file__", "")):
            del sys.modules[name]
    bots._BOTS.clear()
    bots._BOTS.update(saved_bots)
    for table, saved in zip((variants._REGISTRY, variants._ALIASES), saved_variants):
        table.clear()
        table.update(saved)
    for part, table in registry._REGISTRY.items():
        table.clear()
        table.update(saved_parts[part])
    registry._OPTION_TYPES.clear()
    registry._OPTION_TYPES.update(saved_types)


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


def write_module(directory: Path, name: str, text: str = MODULE) -> Path:
    path = directory / f"{name}.py"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# ------------------------------------------------------------------ --import


def test_a_bot_registered_in_a_module_is_unknown_until_the_module_is_imported(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_module(scratch, "club_one")
    assert run("play", "--players", "test-club-bot", "--seed", "1", "-q") == (2, "")
    assert "unknown bot 'test-club-bot'" in capsys.readouterr().err
    status, text = run("--import", "club_one", "play", "--players", "test-club-bot", "-q")
    assert status == 0 and text.startswith("gamerules: seed ")


def test_import_after_the_command_name_works_the_same(scratch: Path) -> None:
    write_module(scratch, "club_two")
    status, text = run(
        "play", "--import", "club_two", "--variant", "test-club-table", "--seed", "2", "-q"
    )
    assert status == 0 and "test-club-table" in text


def test_a_house_rules_file_names_a_rule_part_of_an_imported_module(scratch: Path) -> None:
    write_module(scratch, "club_three")
    rules = scratch / "our.toml"
    rules.write_text('base = "gamerules"\n[ranking]\ntype = "testclub/quiet"\n', encoding="utf-8")
    status, text = run("--import", "club_three", "rules", str(rules))
    assert status == 0 and text.startswith("Back Alley")
    assert "testclub/quiet" in text
    status, keys = run("--import", "club_three", "rules", "--keys")
    assert status == 0 and 'type = "testclub/quiet"' in keys


def test_without_the_import_the_file_is_refused_with_the_hint(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = scratch / "our.toml"
    rules.write_text('[ranking]\ntype = "testclub/quiet"\n', encoding="utf-8")
    assert run("rules", str(rules)) == (2, "")
    err = capsys.readouterr().err
    assert f'{rules}: ranking.type: there is no ranking type "testclub/quiet"' in err
    assert "backalley --import MODULE" in err


def test_a_python_file_can_be_imported_by_its_path(scratch: Path) -> None:
    (scratch / "lib").mkdir()
    path = write_module(scratch / "lib", "club_four")
    status, text = run("--import", str(path), "variants")
    assert status == 0 and "test-club-table" in text
    # imported again (a second command in the same process): the module already imported
    assert run("--import", str(path), "variants")[0] == 0


def test_several_imports_load_in_order(scratch: Path) -> None:
    write_module(scratch, "club_five")
    write_module(
        scratch,
        "club_six",
        "import backalley as ba\nfrom backalley.bots import RandomBot, register_bot\n"
        "ba.variants.get('test-club-table')\nregister_bot('second-bot', RandomBot)\n",
    )
    status, _ = run(
        "--import", "club_five", "--import", "club_six", "play", "--players", "second-bot", "-q"
    )
    assert status == 0


def test_a_module_that_does_not_exist_is_named_on_one_line(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("--import", "no_such_club", "variants") == (2, "")
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("backalley: --import no_such_club: there is no module 'no_such_club'")
    assert "Traceback" not in err


def test_a_module_that_fails_is_named_with_its_error_and_line(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_module(scratch, "broken_club", "x = 1\nraise ValueError('the club is closed')\n")
    assert run("play", "--import", "broken_club") == (2, "")
    err = capsys.readouterr().err
    assert err == (
        "backalley: --import broken_club: importing it failed: "
        "ValueError: the club is closed (broken_club.py, line 2)\n"
    )


def test_a_module_whose_registration_is_refused_is_named(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_module(
        scratch,
        "taken_club",
        "from backalley.bots import RandomBot, register_bot\nregister_bot('random', RandomBot)\n",
    )
    assert run("--import", "taken_club", "variants") == (2, "")
    err = capsys.readouterr().err
    assert "--import taken_club: importing it failed: SetupError: a bot named 'random'" in err
    assert "(taken_club.py, line 2)" in err


def test_a_file_that_is_not_there_is_refused(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run("--import", "./missing.py", "variants") == (2, "")
    assert "--import ./missing.py: there is no such file" in capsys.readouterr().err


# ------------------------------------------------------------ entry points


def fake_entry_points(monkeypatch: pytest.MonkeyPatch, *points: EntryPoint) -> None:
    """The installed plug-ins, as ``importlib.metadata`` would list them."""

    def listed(group: str) -> tuple[EntryPoint, ...]:
        assert group == plugins.ENTRY_POINT_GROUP
        return points

    monkeypatch.setattr(plugins, "entry_points", listed)


def test_an_entry_point_function_is_called_once_at_start_up(
    scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_module(
        scratch,
        "club_setup",
        "CALLS = []\n"
        "def setup():\n"
        "    from backalley.bots import RandomBot, register_bot\n"
        "    CALLS.append(1)\n"
        "    register_bot('entry-bot', RandomBot)\n",
    )
    monkeypatch.syspath_prepend(str(scratch))
    fake_entry_points(
        monkeypatch, EntryPoint("club", "club_setup:setup", plugins.ENTRY_POINT_GROUP)
    )
    for _ in range(2):  # two commands in one process: the function is called once
        status, _ = run("play", "--players", "entry-bot", "--seed", "3", "-q")
        assert status == 0
    assert sys.modules["club_setup"].CALLS == [1]


def test_an_entry_point_module_is_imported(scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_module(scratch, "club_entry")
    monkeypatch.syspath_prepend(str(scratch))
    fake_entry_points(monkeypatch, EntryPoint("club", "club_entry", plugins.ENTRY_POINT_GROUP))
    assert plugins.load_plugins() == ("club",)
    assert "test-club-table" in ba.variants.names()


def test_a_broken_entry_point_stops_the_command_unless_plugins_are_off(
    scratch: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_entry_points(
        monkeypatch, EntryPoint("gone", "gone_club.plugin:setup", plugins.ENTRY_POINT_GROUP)
    )
    assert run("variants") == (2, "")
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(
        "backalley: the plug-in 'gone' (gone_club.plugin:setup) failed to load: "
        "ModuleNotFoundError: No module named 'gone_club'"
    )
    assert "run with --no-plugins" in err
    status, text = run("--no-plugins", "variants")
    assert status == 0 and "gamerules" in text


def test_load_plugins_raises_the_librarys_error(
    scratch: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_entry_points(monkeypatch, EntryPoint("gone", "gone_club", plugins.ENTRY_POINT_GROUP))
    with pytest.raises(plugins.PluginError) as info:
        plugins.load_plugins()
    assert isinstance(info.value, ba.BackAlleyError) and isinstance(info.value, ImportError)
    assert "'gone'" in str(info.value)


# ------------------------------------------------------ an installed package


def _child_environment(env: Path) -> Path:
    """A new virtual environment at *env* that sees this interpreter's packages.

    ``system_site_packages=True`` would show the child the *base*
    interpreter's packages, which inside a virtual environment (where the
    README runs the tests) are not this environment's. So the child gets a
    ``.pth`` file that adds this interpreter's own site directories with
    ``site.addsitedir`` (which also reads their ``.pth`` files, so an
    editable install of backalley is seen too). Returns the child's python.
    """
    venv.create(env, system_site_packages=False, with_pip=False)
    python = env / "bin" / "python"
    child_site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    ours = dict.fromkeys(
        path for path in (sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages())
        if Path(path).is_dir()
    )  # fmt: skip
    lines = "".join(f"import site; site.addsitedir({path!r})\n" for path in ours)
    (Path(child_site) / "_parent_environment.pth").write_text(lines, encoding="utf-8")
    return python


def _hatchling_missing() -> bool:
    try:
        import hatchling  # noqa: F401
    except ImportError:
        return True
    return False


@pytest.mark.slow
@pytest.mark.skipif(
    _hatchling_missing(),
    reason="the plug-in package builds with hatchling (the test extra installs it)",
)
def test_an_installed_plugin_package_gives_every_command_its_bot_rules_and_variant(
    tmp_path: Path,
) -> None:
    """tests/data/plugin-package installed into a virtual environment that
    sees this one's packages: its entry point is loaded by every command."""
    env = tmp_path / "venv"
    python = _child_environment(env)
    install = subprocess.run(  # this pip, installing into the environment (pip >= 22.3)
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--no-build-isolation", "--no-index", "--quiet", str(PACKAGE)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr

    def backalley(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(python), "-m", "backalley", *argv],
            capture_output=True, text=True, check=False, cwd=tmp_path,
        )  # fmt: skip

    seen = subprocess.run(
        [str(python), "-c", "import backalley, backalley_myclub"], capture_output=True, text=True
    )
    assert seen.returncode == 0, seen.stderr  # this project's backalley, and the plug-in
    record = tmp_path / "game.json"
    played = backalley(
        "play", "--players", "my-bot", "--seed", "4", "--quiet", "--record", str(record)
    )
    assert played.returncode == 0, played.stderr
    assert json.loads(record.read_text(encoding="utf-8"))["players"] == ["my-bot"] * 4
    checked = backalley("check", str(record))
    assert checked.returncode == 0 and ": OK, " in checked.stdout, checked.stderr
    sheet = backalley("rules", str(PACKAGE / "my_rules.toml"))
    assert sheet.returncode == 0, sheet.stderr
    assert sheet.stdout.startswith("Back Alley: our-club")
    assert "myclub/jokers-below-ace" in sheet.stdout
    assert "2 scored deals of 5 cards each" in sheet.stdout
    table = backalley("play", "--variant", "myclub-table", "--players", "my-bot", "-q")
    assert table.returncode == 0, table.stderr
    assert "myclub-table" in backalley("variants").stdout
    assert backalley("--no-plugins", "play", "--players", "my-bot").returncode == 2
