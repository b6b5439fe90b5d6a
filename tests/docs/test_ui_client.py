"""The example UI loop (examples/ui_client.py) runs and shows refusals with their reasons."""

from __future__ import annotations

import runpy
import sys

import pytest

import backalley as ba

from .. import ROOT

EXAMPLE = ROOT / "examples" / "ui_client.py"


@pytest.mark.parametrize("seed", [None, "3", "11"])
def test_the_ui_client_example_plays_a_deal_and_shows_refusals(
    seed: str | None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), *([seed] if seed else [])])
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(EXAMPLE), run_name="__main__")
    assert done.value.code == 0
    output = capsys.readouterr().out
    reasons = {r.name for r in ba.Reason}
    assert "NOT_YOUR_TURN" in output  # a seat out of turn, refused by the server
    refusals = [line for line in output.splitlines() if "refused" in line]
    assert refusals, output
    assert any(name in refusals[0] for name in reasons - {"NOT_YOUR_TURN"}), refusals[0]
    assert "the server says -> " in output
    assert "trick 13:" in output and output.rstrip().splitlines()[-1].startswith("Deal over")


@pytest.mark.parametrize("argv", [["abc"], ["1", "2"]])
def test_the_ui_client_example_refuses_a_bad_seed_without_a_traceback(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), *argv])
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(EXAMPLE), run_name="__main__")
    assert done.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "usage:" in captured.err and "Traceback" not in captured.err
