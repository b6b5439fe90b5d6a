"""Players for simulations and the command line.

A bot sees only a :class:`~backalley.PlayerView` and returns one of its legal
moves.  Bots are registered by name: ``make_bot(name, seed)`` builds one, so
that the command line (``--players``) and other programs can pick bots by
text, and :func:`register_bot` adds your own.

Built in:

- ``random``: a uniformly random legal move (:class:`RandomBot`);
- ``heuristic``: bids from hand strength and plays by card-play rules
  (:class:`~backalley.bots.heuristic.HeuristicBot`);
- ``montecarlo``: samples the hidden hands and rolls each choice out
  (:class:`~backalley.bots.montecarlo.MonteCarloBot`);
- ``pimc``: samples the hidden hands, weighs them by the calls made, and
  solves each choice double-dummy (:class:`~backalley.bots.pimc.PimcBot`).

A bot may also be a program of its own, in any language, that speaks the bot
protocol: :class:`ExternalBot` runs it (``register_bot(name,
ExternalProgram(command))`` names it; ``--external NAME=COMMAND`` on the
command line).

Every bot is reproducible from its seed.
"""

from __future__ import annotations

from collections.abc import Callable

from backalley.bots._base import (
    THROW_IN_LIMIT,
    Bot,
    RandomBot,
    bot_notes,
    check_throw_ins,
    close_bots,
    tell_game_over,
)
from backalley.bots.external import ExternalBot, ExternalProgram
from backalley.bots.heuristic import HeuristicBot
from backalley.bots.montecarlo import MonteCarloBot
from backalley.bots.pimc import PimcBot
from backalley.errors import SetupError, did_you_mean

__all__ = [
    "THROW_IN_LIMIT",
    "Bot",
    "ExternalBot",
    "ExternalProgram",
    "HeuristicBot",
    "MonteCarloBot",
    "PimcBot",
    "RandomBot",
    "bot_factory",
    "bot_names",
    "bot_notes",
    "check_throw_ins",
    "close_bots",
    "make_bot",
    "register_bot",
    "tell_game_over",
]

BotFactory = Callable[[object], Bot]
"""Builds a bot from a seed (any hashable value, or ``None``)."""

_BOTS: dict[str, BotFactory] = {}


def _key(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise SetupError(f"a bot name must be non-empty text, not {name!r}")
    return name.strip().lower()


def register_bot(name: str, factory: BotFactory, *, replace: bool = False) -> None:
    """Register ``factory`` (called with a seed, returning a :class:`Bot`) under
    ``name``, so that ``make_bot(name)`` and ``--players name`` find it.

    Names are case-insensitive.  Registering a name that is taken raises
    :class:`~backalley.SetupError` unless ``replace`` is true.
    """
    key = _key(name)
    if not callable(factory):
        raise SetupError(f"the factory for bot {name!r} must be callable, not {factory!r}")
    if key in _BOTS and not replace:
        raise SetupError(f"a bot named {key!r} is registered already (pass replace=True)")
    _BOTS[key] = factory


def bot_names() -> tuple[str, ...]:
    """The registered bot names, in the order registered."""
    return tuple(_BOTS)


def bot_factory(name: str) -> BotFactory:
    """The factory registered under ``name`` (see :func:`register_bot`)."""
    key = _key(name)
    try:
        return _BOTS[key]
    except KeyError:
        raise SetupError(
            f"unknown bot {name!r}{did_you_mean(key, _BOTS)}; known bots: {', '.join(_BOTS)}"
        ) from None


def make_bot(name: str, seed: object = None) -> Bot:
    """A bot by name (see :func:`bot_names`), reproducible from ``seed``."""
    return bot_factory(name)(seed)


register_bot("random", RandomBot)
register_bot("heuristic", HeuristicBot)
register_bot("montecarlo", MonteCarloBot)
register_bot("pimc", PimcBot)
