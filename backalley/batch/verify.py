"""The compiled tables checked on a sample: a few batch games replayed by
the one-game engine.

A finite form is a claim a part makes (an expression, a state key, the facts
a decision reads); the parts' own methods are the reference.  Every rule set
the batch engine plays is first checked this way: :data:`SAMPLE_GAMES` games
(:data:`CHECKING_GAMES` in the checking mode, ``BACKALLEY_CHECK_KEYS=1``) are
played in batch with random legal moves and replayed move by move by the
one-game engine, which must find the same legal moves at every decision and
the same scores; a difference raises :class:`~backalley.RuleSetError` naming
the part whose answer differs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from backalley.errors import RuleSetError
from backalley.rules import declared
from backalley.rules.plan import CHECK_KEYS
from backalley.values import Phase

if TYPE_CHECKING:
    from backalley.batch.compiled_tables import Tables
    from backalley.batch.engine import BatchGames

__all__ = ["CHECKING_GAMES", "SAMPLE_GAMES", "compare", "record_legal", "sample_size", "verify"]

SAMPLE_GAMES = 2
"""The games every compiled rule set is checked on."""
CHECKING_GAMES = 12
"""The games it is checked on in the checking mode (``BACKALLEY_CHECK_KEYS=1``)."""

_PART_OF_PHASE = {
    Phase.BIDDING: ("bidding", "its calls"),
    Phase.NAMING_TRUMP: ("trump", "the declarer's trump choices"),
}


def sample_size() -> int:
    """How many games a compiled rule set is checked on."""
    return CHECKING_GAMES if CHECK_KEYS else SAMPLE_GAMES


def compare(games: BatchGames, legal: list[list[frozenset[int]]]) -> None:
    """Replay every game of the finished batch ``games`` with the one-game
    engine: ``legal[g][i]``, the batch's legal actions at game ``g``'s
    decision ``i``, must be the one-game engine's, and so the final scores."""
    rules = games.tables.rules
    id_of = games.actions.id_of
    for g, record in enumerate(games.records()):
        state = record.start()
        for i, move in enumerate(record.moves):
            expected = frozenset(id_of(m) for m in state.legal_moves())
            if expected != legal[g][i]:
                if state.phase in _PART_OF_PHASE:
                    part, what = _PART_OF_PHASE[state.phase]
                else:
                    part = "lead" if not state.trick else "follow"
                    what = "the cards that may be played"
                raise RuleSetError(
                    [
                        f"{part}: the batch engine's tables of "
                        f"{declared.part_class_name(rules, part)} disagree with its own "
                        f"answers on {what} at decision {i} of a sample game (the batch "
                        f"allows {_names(games, legal[g][i])}, the part "
                        f"{_names(games, expected)}): a finite form it declares is not "
                        "its rule"
                    ]
                )
            state = state.apply(move)
        if not state.is_over or tuple(state.scores) != tuple(games.scores[g].tolist()):
            raise RuleSetError(
                [
                    f"scoring: the batch engine's points of a sample game "
                    f"({games.scores[g].tolist()}) differ from the one-game engine's "
                    f"({list(state.scores)}): a declaration of "
                    f"{declared.part_class_name(rules, 'scoring')}, "
                    f"{declared.part_class_name(rules, 'dealer')} or "
                    f"{declared.part_class_name(rules, 'lead')} (score_key, context_reads) "
                    "is not its rule"
                ]
            )


def _names(games: BatchGames, actions: frozenset[int]) -> str:
    move_of = games.actions.move_of
    return ", ".join(str(move_of(a)) for a in sorted(actions)) or "nothing"


def record_legal(
    games: BatchGames,
    live: np.ndarray,
    legal: np.ndarray,
    into: list[list[frozenset[int]]],
) -> None:
    """Keep each live game's legal actions of this step in ``into``."""
    for i, g in enumerate(live.tolist()):
        into[g].append(frozenset(np.flatnonzero(legal[i]).tolist()))


def verify(tables: Tables, make: type[BatchGames]) -> None:
    """Check ``tables`` on a sample: :func:`sample_size` games of random
    legal moves played by ``make`` (the batch engine), replayed by the
    one-game engine (:func:`compare`)."""
    tables.verified = True  # the sample batch below must not check itself again
    try:
        n = sample_size()
        games = make(tables, n, seed=0x5EED)
        legal_seen: list[list[frozenset[int]]] = [[] for _ in range(n)]
        while True:
            live = np.flatnonzero(~games.over)
            if not len(live):
                break
            legal = games.legal()[live]
            record_legal(games, live, legal, legal_seen)
            games.step_unchecked(live, games.random_actions(live))
        compare(games, legal_seen)
    except BaseException:  # a failed check leaves the tables unchecked, then re-raises
        tables.verified = False
        raise
