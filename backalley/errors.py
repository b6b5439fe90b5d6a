"""The library's exceptions.

Every refusal the library makes is one of these, each a :class:`ValueError`
(or, for an unknown variant name, also a :class:`KeyError`), so that callers
can catch bad input precisely and never see a bare ``KeyError`` or
``AttributeError`` from the inside.
"""

from __future__ import annotations

import difflib
import enum
from collections.abc import Iterable, Sequence

__all__ = [
    "BackAlleyError",
    "IllegalMoveError",
    "NotationError",
    "Reason",
    "RuleSetError",
    "RuleSetWarning",
    "SerializationError",
    "SetupError",
    "UnknownVariantError",
    "did_you_mean",
]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'hook'?)`` when ``word`` is close to one of
    ``choices`` (a misspelt name, key or bot), else nothing: for messages
    that name what was not found."""
    found = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.75)
    return f" (did you mean {found[0]!r}?)" if found else ""


class BackAlleyError(Exception):
    """Base class of every exception this library raises on purpose."""


class SetupError(BackAlleyError, ValueError):
    """Bad arguments to start a game (a deck order that is not the deck, a seat that does not exist)."""


class NotationError(BackAlleyError, ValueError):
    """A card, suit or move text that cannot be read."""


class Reason(enum.Enum):
    """Why a move was refused: one member per rule that can refuse a move
    (and, for a replayed game record, results its moves do not produce)."""

    NOT_A_MOVE = "not a move"
    GAME_OVER = "the game is over"
    NOT_YOUR_TURN = "not this seat's turn"
    ALREADY_BID = "this seat has already spoken this deal"
    WRONG_PHASE = "the move does not belong to this phase"
    # bidding (rules reference: bidding, board, the Vietnam auction, counters)
    PASS_NOT_ALLOWED = "these rules have no pass"
    BID_TOO_LOW = "the bid is below the lowest bid"
    BID_TOO_HIGH = "the bid is above the highest bid"
    BID_NOT_HIGHER = "the bid does not beat the current bid"
    BID_MAKES_TOTAL = "the hook: the last bid may not make the total equal the hand size"
    BOARD_NOT_ALLOWED = "these rules have no board bid"
    BOARD_BY_PARTNER = "a partner of a board claimer may not claim board again"
    BOARD_LIMIT = "no higher board level exists"
    COUNTER_NOT_ALLOWED = "there is no contract of the other side to counter"
    COUNTER_LIMIT = "the contract is already quadrupled"
    # naming trump: only the declarer of an auction names it (rules reference: trump)
    NOT_DECLARER = "only the declarer names trump"
    NO_TRUMP_NOT_ALLOWED = "the declarer must name a suit"
    # play (rules reference: leading trump, following, blooper leads)
    NOT_IN_DECK = "the card is not in this deck"
    NOT_IN_HAND = "the card is not in the player's hand"
    TRUMP_NOT_BROKEN = "trump may not be led yet"
    MUST_FOLLOW_SUIT = "the player must follow the suit led"
    MUST_PLAY_HIGHEST_TRUMP = "the Big Blooper was led: the highest trump must be played"
    MUST_PLAY_LOWEST_TRUMP = (
        "the Little Blooper (or, by some rules, the lowest trump still out) was led: "
        "the lowest trump must be played"
    )
    MUST_TRUMP = "the player cannot follow and must play a trump"
    MAY_NOT_TRUMP = "trump is not broken: a player who cannot follow may not play a trump yet"
    MUST_HEAD_TRICK = "the player must play a card that wins the trick so far"
    HOUSE_RULE = "a house rule of the rule set refuses the move"
    # game records
    RESULTS_DIFFER = "the recorded moves do not produce the recorded results"


class IllegalMoveError(BackAlleyError, ValueError):
    """A move the rules refuse.  ``reason`` names the rule; ``str()`` explains it.

    ``move`` is the move refused (or whatever object was given as one) and
    ``seat`` the seat that tried it: the seat to act, or the seat a
    ``check(move, seat=...)`` named (``None`` when no seat is to act, or where
    the error was built without them).
    """

    def __init__(
        self, reason: Reason, message: str, *, move: object = None, seat: int | None = None
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.move = move
        self.seat = seat

    def __reduce__(
        self,
    ) -> tuple[type[IllegalMoveError], tuple[Reason, str], dict[str, object]]:
        """Pickle the reason and message as arguments, the move and seat as state."""
        return (type(self), (self.reason, self.message), {"move": self.move, "seat": self.seat})


class RuleSetError(BackAlleyError, ValueError):
    """Rule parts that do not fit together (or a part with a bad parameter).

    ``problems`` lists every problem found, each naming the parts involved.
    """

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        if len(self.problems) == 1:
            text = self.problems[0]
        else:
            text = f"{len(self.problems)} problems with the rule set:\n" + "\n".join(
                f"  - {p}" for p in self.problems
            )
        super().__init__(text)

    def __reduce__(self) -> tuple[type[RuleSetError], tuple[tuple[str, ...]]]:
        return (type(self), (self.problems,))


class RuleSetWarning(UserWarning):
    """A rule set whose parts fit and can be played, but in a way its players
    may not expect (each part's ``cautions``): issued when the rule set is
    built, with a sentence naming the parts and what would change it."""


class SerializationError(BackAlleyError, ValueError):
    """A JSON/TOML document or plain data that is malformed or inconsistent.

    ``path`` is the location of the offending field (``"$.hands[2][0]"``).
    """

    def __init__(self, message: str, path: str = "$") -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)

    def __reduce__(self) -> tuple[type[SerializationError], tuple[str, str]]:
        return (type(self), (self.message, self.path))


class UnknownVariantError(BackAlleyError, KeyError, ValueError):
    """A variant name that is not registered.  The message lists the known names."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        self.name = name
        self.known = tuple(known)
        super().__init__(
            f"unknown variant {name!r}{did_you_mean(name, self.known)}; "
            f"known variants: {', '.join(self.known)}"
        )

    def __str__(self) -> str:
        return str(self.args[0])

    def __reduce__(self) -> tuple[type[UnknownVariantError], tuple[str, tuple[str, ...]]]:
        return (type(self), (self.name, self.known))
