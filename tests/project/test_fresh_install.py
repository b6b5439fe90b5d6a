"""A newcomer's machine: what the README gives works on a fresh install.

- The README's test command is the line ``.ci/run`` runs, in a virtual
  environment it makes anew, after installing the Debian packages the README
  names; the lock pins every package of every extra.
- Every extra works installed alone: each test makes a fresh virtual
  environment, installs the project's wheel with one extra at the versions
  the lock pins, and uses it the way its docs say: ``.[server]`` serves a
  table that Chromium plays a card at, ``.[cli]`` plays a game, ``.[openspiel]``
  loads the game and steps it, ``.[pettingzoo]`` steps the environment.

The fresh environments need the package index (as a newcomer's ``pip`` does).
"""

from __future__ import annotations

import ast
import contextlib
import re
import subprocess
import sys
import time
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # the library's own dependency before 3.11
    import tomli as tomllib

from .. import ROOT
from ..browser import ARGS, CHROMIUM
from ..server_services import Served

README = ROOT / "README.md"
CI_RUN = ROOT / ".ci" / "run"
LOCK = ROOT / "requirements" / "constraints.txt"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
INSTALL_SECONDS = 600


def _readme_test_command() -> str:
    """The README's command that installs and passes the tests: the one shell
    block after the sentence that introduces it."""
    text = README.read_text(encoding="utf-8")
    found = re.search(
        r"Install the test tools and pass the whole test suite.*?```sh\n(.+?)\n```", text, re.S
    )
    assert found, "the README has no test command block"
    (line,) = found.group(1).strip().splitlines()
    return line


def test_ci_runs_the_readme_test_command_in_a_fresh_environment() -> None:
    command = _readme_test_command()
    script = CI_RUN.read_text(encoding="utf-8")
    lines = [line.strip() for line in script.splitlines()]
    assert command in lines, f"{CI_RUN} does not run the README's line {command!r}"
    before = script[: script.index(command)]
    # a new virtual environment in a new temporary folder, and it is the one used
    assert "mktemp -d" in before and "-m venv" in before and "/bin/activate" in before
    # the system packages .ci/run installs are the ones the README names
    installed = set(re.findall(r"need\+=\((\w+)\)", before))
    assert installed == {"chromium", "postgresql", "nodejs", "npm"}
    readme = README.read_text(encoding="utf-8")
    assert f"apt-get install {' '.join(sorted(installed))}" in readme


def _requirement_name(requirement: str) -> str:
    return re.split(r"[\[<>=!~; ]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def test_the_lock_pins_every_package_of_every_extra() -> None:
    pinned = dict(
        line.split("==", 1)
        for line in LOCK.read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.startswith(("#", " "))
    )
    extras = PYPROJECT["project"]["optional-dependencies"]
    for extra, requirements in extras.items():
        for requirement in requirements:
            name = _requirement_name(requirement)
            if name == "backalley":  # `dev` names the project's own extras
                continue
            assert name in pinned, f"the lock pins no {name} (extra {extra}): run `nox -s lock`"
    for requirement in PYPROJECT["project"]["dependencies"]:
        if "python_version < '3.11'" not in requirement:
            assert _requirement_name(requirement) in pinned
    # the lock session writes every extra but `dev` (read from the noxfile's text:
    # nox itself is not installed where the tests run)
    noxfile = _noxfile_constants()
    assert set(noxfile["LOCKED_EXTRAS"]) == set(extras) - {"dev"}
    assert noxfile["nox.options.sessions"] == ["lint", "typecheck", "docs", "package", "tests"]


def _noxfile_constants() -> dict[str, object]:
    """The literal values the noxfile assigns at its top level, by name."""
    found: dict[str, object] = {}
    for node in ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            with contextlib.suppress(ValueError):
                found[ast.unparse(node.targets[0])] = ast.literal_eval(node.value)
    return found


# ------------------------------------------------------------ every extra alone


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built once (by hatchling, from the test extra)."""
    pytest.importorskip("hatchling", reason="the wheel builds with hatchling (the test extra)")
    folder = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(folder), str(ROOT)],
        capture_output=True, text=True, timeout=INSTALL_SECONDS, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (found,) = folder.glob("backalley-*.whl")
    return found


def _alone(wheel: Path, folder: Path, extra: str) -> Path:
    """A fresh virtual environment with the wheel and only ``extra`` (none: "");
    its python."""
    venv.create(folder, with_pip=True)
    python = folder / "bin" / "python"
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--constraint", str(LOCK),
         f"{wheel}[{extra}]" if extra else str(wheel)],
        capture_output=True, text=True, timeout=INSTALL_SECONDS, check=False,
    )  # fmt: skip
    assert installed.returncode == 0, f"pip install '.[{extra}]' failed:\n{installed.stderr}"
    return python


def _run(python: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(python), *argv], capture_output=True, text=True, timeout=300, cwd=cwd, check=False
    )


@pytest.mark.slow
def test_the_readme_main_job_runs_from_a_plain_install(wheel: Path, tmp_path: Path) -> None:
    """``pip install . && backalley play --seed 1``: the command is installed
    and tells the game (no extra; rich absent, so plain text)."""
    python = _alone(wheel, tmp_path / "venv", "")
    command = python.parent / "backalley"
    played = subprocess.run(
        [str(command), "play", "--seed", "1"], capture_output=True, text=True, timeout=300,
        cwd=tmp_path, check=False,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    readme = README.read_text(encoding="utf-8")
    first = played.stdout.splitlines()[:2]
    assert first[0] == "Back Alley, gamerules: seed 1." and first[0] in readme
    assert first[1] in readme  # the partnerships line, as the README shows it
    assert "Deal 25 of 25" in played.stdout and "Final score" in played.stdout
    no_rich = _run(python, "-c", "import rich", cwd=tmp_path)
    assert no_rich.returncode != 0  # the plain install brings only attrs and cattrs


@pytest.mark.slow
def test_the_cli_extra_alone_plays_a_game(wheel: Path, tmp_path: Path) -> None:
    python = _alone(wheel, tmp_path / "venv", "cli")
    played = _run(python, "-m", "backalley", "play", "--seed", "1", "--quiet", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("gamerules: seed 1, first dealer ")
    assert "\nDeal 25: " in played.stdout and "Final score: " in played.stdout
    shown = _run(python, "-c", "import rich, backalley; print(backalley.__file__)", cwd=tmp_path)
    assert shown.returncode == 0 and str(tmp_path / "venv") in shown.stdout  # not the source


@pytest.mark.slow
def test_the_openspiel_extra_alone_loads_and_steps_the_game(wheel: Path, tmp_path: Path) -> None:
    python = _alone(wheel, tmp_path / "venv", "openspiel")
    program = (
        "import pyspiel\n"
        "from backalley.adapters.openspiel import load_game\n"
        "game = load_game('gamerules')\n"
        "state = game.new_initial_state()\n"
        "while state.is_chance_node():\n"
        "    state.apply_action(state.chance_outcomes()[0][0])\n"
        "before = state.current_player()\n"
        "state.apply_action(state.legal_actions()[0])\n"
        "print(game.get_type().short_name, before, state.move_number() > 0)\n"
    )
    stepped = _run(python, "-c", program, cwd=tmp_path)
    assert stepped.returncode == 0, stepped.stderr
    name, seat, moved = stepped.stdout.split()
    assert name == "python_backalley" and seat in "0123" and moved == "True"


@pytest.mark.slow
def test_the_batch_extra_alone_plays_games_in_batch(wheel: Path, tmp_path: Path) -> None:
    python = _alone(wheel, tmp_path / "venv", "batch")
    program = (
        "from backalley import batch\n"
        "result = batch.random_games('vietnam', 8, seed=2)\n"
        "print(result.scores.shape, result.decisions == sum(len(r.moves) for r in result.records))\n"
    )
    played = _run(python, "-c", program, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert played.stdout.split() == ["(8,", "2)", "True"]
    no_gym = _run(python, "-c", "import gymnasium", cwd=tmp_path)
    assert no_gym.returncode != 0  # the batch extra brings NumPy alone


@pytest.mark.slow
def test_the_gym_extra_alone_steps_the_batch_environment(wheel: Path, tmp_path: Path) -> None:
    python = _alone(wheel, tmp_path / "venv", "gym")
    program = (
        "from backalley.batch.gym import BatchEnv\n"
        "env = BatchEnv('gamerules', num_envs=3, seed=1)\n"
        "obs, info = env.reset()\n"
        "obs, reward, terminated, truncated, info = env.step(info['action_mask'].argmax(axis=1))\n"
        "print(obs.shape[0], reward.shape, terminated.any())\n"
    )
    stepped = _run(python, "-c", program, cwd=tmp_path)
    assert stepped.returncode == 0, stepped.stderr
    assert stepped.stdout.split() == ["3", "(3,)", "False"]


@pytest.mark.slow
def test_the_pettingzoo_extra_alone_steps_the_environment(wheel: Path, tmp_path: Path) -> None:
    python = _alone(wheel, tmp_path / "venv", "pettingzoo")
    program = (
        "from backalley.adapters.backalley_v0 import env\n"
        "game = env('gamerules')\n"
        "game.reset(seed=3)\n"
        "agent = game.agent_selection\n"
        "*_, info = game.last()\n"
        "action = game.action_space(agent).sample(info['action_mask'])\n"
        "game.step(action)\n"
        "print(agent, game.agent_selection)\n"
    )
    stepped = _run(python, "-c", program, cwd=tmp_path)
    assert stepped.returncode == 0, stepped.stderr
    first, second = stepped.stdout.split()
    assert first.startswith("player_") and second.startswith("player_") and first != second


@pytest.fixture
def served_alone(wheel: Path, tmp_path: Path) -> Iterator[Served]:
    python = _alone(wheel, tmp_path / "venv", "server")
    served = Served(tmp_path / "data", python=python).start()
    try:
        yield served
    finally:
        served.stop()


@pytest.mark.browser
def test_the_server_extra_alone_serves_a_table_chromium_plays_a_card_at(
    served_alone: Served,
) -> None:
    """``pip install '.[server]' && backalley serve``: the page opens its
    WebSocket (the extra brings a WebSocket library) and a card is played."""
    if not CHROMIUM.exists():
        pytest.skip(f"Chromium is not at {CHROMIUM} (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright (the test extra)")
    errors: list[str] = []
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 940})
            page.set_default_timeout(15_000)
            page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
            page.on(
                "response",
                lambda r: errors.append(f"{r.status} for {r.url}") if r.status >= 400 else None,
            )
            page.goto(served_alone.url + "/")
            page.wait_for_selector('#variant option[value="gamerules"]', state="attached")
            page.select_option("#variant", "gamerules")
            for seat in (1, 2, 3):
                page.select_option(f"#seat-{seat}", "heuristic")
            page.fill("#hand-sizes", "2")
            page.click("#create")
            page.wait_for_url("**/#table/*/seat/0")
            deadline = time.monotonic() + 60
            held = 0
            while not held:  # the calls, until the person's card is asked for
                assert time.monotonic() < deadline, "no card was asked for in 60 s"
                page.wait_for_selector(
                    '#calls button[data-move]:not([disabled]), #board .hand-card[data-playable="true"]'
                )
                calls = page.locator("#calls button[data-move]:not([disabled])")
                if calls.count():
                    moves = [calls.nth(i).get_attribute("data-move") for i in range(calls.count())]
                    page.click(
                        f'#calls button[data-move="{"bid 1" if "bid 1" in moves else moves[0]}"]'
                    )
                    time.sleep(0.2)
                else:
                    held = page.locator("#board .hand-card").count()
            page.locator('#board .hand-card[data-playable="true"]').first.click()
            page.wait_for_function(
                "n => document.querySelectorAll('#board .hand-card').length === n - 1", arg=held
            )
        finally:
            browser.close()
    assert "WebSocket" not in served_alone.stderr(), served_alone.stderr()
    assert not errors, errors
