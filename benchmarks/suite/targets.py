"""The performance targets the suite judges (this round's: the batch engine
on gamerules and vietnam, the one-game engine on gamerules), the moonshot it
reports beside them, and those of earlier rounds it still reports, as
information.
"""

from __future__ import annotations

from typing import Any

# This round's targets (judged on gamerules; the batch's also on vietnam)
TARGET_BATCH_OSP = 5.0  # gamerules batch decisions/s / OpenSpiel decisions/s  >= 5
TARGET_BATCH_VIETNAM = 3.0  # vietnam batch decisions/s / OpenSpiel decisions/s  >= 3
MOONSHOT_BATCH_OSP = 10.0  # gamerules batch decisions/s / OpenSpiel  >= 10 (information)
TARGET_OSP = 0.33  # checked decisions/s / OpenSpiel decisions/s   >= 0.33 (no regression)
TARGET_PLAYOUT = 0.37  # playout decisions/s / OpenSpiel decisions/s  >= 0.37 (no regression)
TARGET_REPLAY = 1.5  # JSON round trip at deal 13 / replay of its moves  <= 1.5
JSON_DEAL = 13  # the deal of the state whose round trip the target times
# Earlier targets, reported as information (not judged)
PREVIOUS_OSP = 0.6  # checked decisions/s / OpenSpiel decisions/s  >= 0.6 (the last round's)
PREVIOUS_PLAYOUT = 0.75  # playout decisions/s / OpenSpiel decisions/s  >= 0.75 (the last round's)
EARLIER_OSP = 1.0  # checked decisions/s / OpenSpiel decisions/s   >= 1.0
EARLIER_BARE = 3.5  # bare games/s / library games/s              <= 3.5
EARLIER_PLAYOUT = 2.0  # playout decisions/s / OpenSpiel decisions/s  >= 2.0
EARLIER_VIEW = 1.5  # view(seat) / OpenSpiel information_state_string  <= 1.5
EARLIER_JSON_OSP = 10.0  # mid-game JSON round trip / OpenSpiel serde <= 10
EARLIER_JSON_GROWTH = 1.5  # JSON round trip at deal 25 / at deal 1   <= 1.5
BARE_VARIANT = "gamerules"  # the variant whose game is the bare loop's size
VIETNAM_VARIANT = "vietnam"  # the other variant of the batch targets


def _target(text: str, value: float | None, limit: float, ge: bool) -> list[dict[str, Any]]:
    """One target as reported (none when its figure was not measured)."""
    if value is None:
        return []
    ok = value >= limit if ge else value <= limit
    return [{"target": f"{text} {'>=' if ge else '<='} {limit:g}", "value": value, "ok": ok}]


def targets(out: dict[str, Any]) -> list[dict[str, Any]]:
    """This round's targets, judged on the gamerules variant and, for the
    batch engine, on vietnam (each when measured)."""
    v = out["variants"].get(BARE_VARIANT)
    vietnam = out["variants"].get(VIETNAM_VARIANT)
    ser = out.get("serialization") or {}
    res: list[dict[str, Any]] = []
    if v is not None:
        res += _target(
            "gamerules batch decisions/s / OpenSpiel decisions/s",
            v["ratios"].get("batch_decisions_vs_openspiel"),
            TARGET_BATCH_OSP,
            ge=True,
        )
    if vietnam is not None:
        res += _target(
            "vietnam batch decisions/s / OpenSpiel decisions/s",
            vietnam["ratios"].get("batch_decisions_vs_openspiel"),
            TARGET_BATCH_VIETNAM,
            ge=True,
        )
    if v is not None:
        r = v["ratios"]
        res += _target(
            "no regression: gamerules checked decisions/s / OpenSpiel decisions/s",
            r.get("decisions_vs_openspiel"),
            TARGET_OSP,
            ge=True,
        )
        res += _target(
            "no regression: gamerules playout decisions/s / OpenSpiel decisions/s",
            r.get("playout_decisions_vs_openspiel"),
            TARGET_PLAYOUT,
            ge=True,
        )
    res += _target(
        f"gamerules JSON round trip at deal {JSON_DEAL} / replay of its moves (apply_unchecked)",
        ser.get("json_vs_replay"),
        TARGET_REPLAY,
        ge=False,
    )
    return res


def moonshots(out: dict[str, Any]) -> list[dict[str, Any]]:
    """The moonshot reported beside this round's targets, as information (not judged)."""
    v = out["variants"].get(BARE_VARIANT)
    if v is None:
        return []
    return _target(
        "gamerules batch decisions/s / OpenSpiel decisions/s",
        v["ratios"].get("batch_decisions_vs_openspiel"),
        MOONSHOT_BATCH_OSP,
        ge=True,
    )


def earlier_targets(out: dict[str, Any]) -> list[dict[str, Any]]:
    """The targets of earlier rounds, still reported as information (not judged)."""
    v = out["variants"].get(BARE_VARIANT)
    ser = out.get("serialization") or {}
    res: list[dict[str, Any]] = []
    if v is not None:
        r = v["ratios"]
        res += _target(
            "checked decisions/s / OpenSpiel",
            r.get("decisions_vs_openspiel"),
            PREVIOUS_OSP,
            True,
        )
        res += _target(
            "playout decisions/s / OpenSpiel",
            r.get("playout_decisions_vs_openspiel"),
            PREVIOUS_PLAYOUT,
            True,
        )
        res += _target(
            "checked decisions/s / OpenSpiel", r.get("decisions_vs_openspiel"), EARLIER_OSP, True
        )
        res += _target(
            "bare games/s / checked games/s", r.get("bare_vs_games"), EARLIER_BARE, False
        )
        res += _target(
            "playout decisions/s / OpenSpiel",
            r.get("playout_decisions_vs_openspiel"),
            EARLIER_PLAYOUT,
            True,
        )
        res += _target(
            "view(seat) / OpenSpiel information_state_string",
            r.get("view_vs_openspiel"),
            EARLIER_VIEW,
            False,
        )
        res += _target(
            "mid-game JSON round trip / OpenSpiel serialize+deserialize",
            r.get("json_vs_openspiel"),
            EARLIER_JSON_OSP,
            False,
        )
    res += _target(
        "JSON round trip at deal 25 / at deal 1", ser.get("json_growth"), EARLIER_JSON_GROWTH, False
    )
    if "pickle_s" in ser:
        res += _target("pickle dumps + loads at deal 6, us", ser["pickle_s"] * 1e6, 30, False)
    if "vectors_s_per_game" in ser:
        res += _target(
            "conformance vectors, s CPU for 100 games", ser["vectors_s_per_game"] * 100, 10, False
        )
    if "import_s" in ser:
        res += _target("import backalley from bytecode, ms wall", ser["import_s"] * 1e3, 80, False)
    return res
