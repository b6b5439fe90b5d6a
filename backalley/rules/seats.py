"""Seats and sides by name: the one place the library names them.

Four players in two partnerships of opposite seats sit North, East, South,
West (seats 0 to 3, clockwise) and play as North-South and East-West; any
other seating names its seats Seat 1 .. Seat n, and a side of one player is
named by its seat.  :func:`parse_seat` reads a seat as a person types it:
the library's number (``0`` .. ``n - 1``), or a name (``north``, ``n``,
``seat 1``), in any case.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from backalley.errors import SetupError

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

__all__ = ["COMPASS", "parse_seat", "seat_name", "seat_names", "side_name", "side_names"]

COMPASS = ("North", "East", "South", "West")
"""The seats of a four-player partnership game, clockwise from seat 0."""


def _compass(players: int, teams: tuple[tuple[int, ...], ...]) -> bool:
    return players == 4 and sorted(tuple(sorted(t)) for t in teams) == [(0, 2), (1, 3)]


def seat_names(rules: RuleSetFacts) -> tuple[str, ...]:
    """Every seat's name, clockwise from seat 0: North, East, South, West in a
    four-player partnership game, else Seat 1 .. Seat n."""
    players = rules.seating.players
    if _compass(players, tuple(map(tuple, rules.seating.teams))):
        return COMPASS
    return tuple(f"Seat {seat + 1}" for seat in range(players))


def seat_name(rules: RuleSetFacts, seat: int) -> str:
    """The name of ``seat`` (``seat_name(GAMERULES, 2) == "South"``).  Raises
    :class:`~backalley.SetupError` for a seat the rules do not have."""
    names = seat_names(rules)
    if type(seat) is not int or not 0 <= seat < len(names):
        raise SetupError(f"there is no seat {seat!r}; seats are 0 to {len(names) - 1}")
    return names[seat]


def side_names(rules: RuleSetFacts, *, dash: str = "-") -> tuple[str, ...]:
    """Every side's name, in the order of ``rules.teams``: ``N-S`` and ``E-W``
    (the seats' initials joined by ``dash``) for compass partnerships, a
    lone player's seat name, else the seats' names joined by ``+``."""
    names = seat_names(rules)
    out = []
    for team in rules.teams:
        if len(team) == 1:
            out.append(names[team[0]])
        elif names[team[0]] in COMPASS:
            out.append(dash.join(names[s][0] for s in team))
        else:
            out.append(" + ".join(names[s] for s in team))
    return tuple(out)


def side_name(rules: RuleSetFacts, side: int) -> str:
    """The name of side ``side`` (an index of ``rules.teams``)."""
    names = side_names(rules)
    if type(side) is not int or not 0 <= side < len(names):
        raise SetupError(f"there is no side {side!r}; sides are 0 to {len(names) - 1}")
    return names[side]


def parse_seat(rules: RuleSetFacts, text: str | int) -> int:
    """The seat ``text`` names: the library's number (``2`` or ``"2"``), a
    seat's name or its initial (``"south"``, ``"S"``), or ``"seat 3"`` in a
    game whose seats are numbered.  Raises :class:`~backalley.SetupError`
    saying which names the rules have."""
    names = seat_names(rules)
    n = len(names)
    if type(text) is int:
        if 0 <= text < n:
            return text
    elif isinstance(text, str):
        word = " ".join(text.strip().lower().split())
        if word.isdigit() and int(word) < n:
            return int(word)
        for seat, name in enumerate(names):
            if word in (name.lower(), name.lower().replace(" ", "")):
                return seat
            if name in COMPASS and word == name[0].lower():
                return seat
    shown = ", ".join(n.lower() for n in names)
    initials = " (or " + ", ".join(n[0].lower() for n in names) + ")" if names == COMPASS else ""
    raise SetupError(f"there is no seat {text!r}: give {shown}{initials}, or 0 to {n - 1}")
