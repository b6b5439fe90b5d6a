"""The library's exceptions.

Every refusal the library makes is one of these, each a :class:`ValueError`
(or, for an unknown variant name, also a :class:`KeyError`), so that callers
can catch bad input precisely and never see a bare ``KeyError`` or
``AttributeError`` from the inside.
"""

from __future__ import annotations

import difflib
import types
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, cast, final

__all__ = [
    "BackAlleyError",
    "IllegalMoveError",
    "NotationError",
    "Reason",
    "RuleSetError",
    "RuleSetWarning",
    "SerializationError",
    "SetupError",
    "UnknownReasonError",
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


class _Sentence:
    """A built-in reason's sentence as written in the body of :class:`Reason`;
    the class makes it a member, named after the attribute, when it is made."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _built_in(sentence: str) -> Reason:
    """A built-in member of :class:`Reason`, declared in its class body."""
    return cast("Reason", _Sentence(sentence))


class _ReasonType(type):
    """The class of :class:`Reason`, with an enum's manners: its members in
    order (``for r in Reason``, ``len``, ``in``, ``Reason.__members__``), by
    name (``Reason["NOT_YOUR_TURN"]``) and by sentence (``Reason("not a
    move")``); the built-in reasons first, then the registered ones in the
    order they were registered.  A member is never rebound."""

    _members: dict[str, Reason]

    def __new__(mcs, name: str, bases: tuple[type, ...], namespace: dict[str, Any]) -> _ReasonType:
        cls = super().__new__(mcs, name, bases, namespace)
        members: dict[str, Reason] = {}
        for key, value in namespace.items():
            if isinstance(value, _Sentence):
                member = type.__call__(cls, key, value.text, True)
                type.__setattr__(cls, key, member)
                members[key] = member
        type.__setattr__(cls, "_members", members)
        return cls

    def __call__(cls, value: object) -> Reason:
        """The member whose sentence (``value``) is ``value``, as an enum
        answers; a member answers itself."""
        if isinstance(value, Reason):
            return value
        for member in cls._members.values():
            if member.value == value:
                return member
        raise UnknownReasonError(value, tuple(cls._members), by_sentence=True)

    def __getitem__(cls, name: str) -> Reason:
        """The member named ``name`` (a built-in name or a registered tag)."""
        member = cls._members.get(name) if isinstance(name, str) else None
        if member is None:
            raise UnknownReasonError(name, tuple(cls._members))
        return member

    def __iter__(cls) -> Iterator[Reason]:
        return iter(tuple(cls._members.values()))

    def __len__(cls) -> int:
        return len(cls._members)

    def __contains__(cls, member: object) -> bool:
        return isinstance(member, Reason) and cls._members.get(member.name) is member

    @property
    def __members__(cls) -> Mapping[str, Reason]:
        """The members by name (a read-only view), as an enum's."""
        return types.MappingProxyType(cls._members)

    def __setattr__(cls, name: str, value: object) -> None:
        if name in cls.__dict__.get("_members", ()):
            raise AttributeError(f"cannot reassign the reason {name}")
        super().__setattr__(name, value)

    def __delattr__(cls, name: str) -> None:
        if name in cls.__dict__.get("_members", ()):
            raise AttributeError(f"cannot delete the reason {name}")
        super().__delattr__(name)

    def _add(cls, name: str, value: str) -> Reason:
        """A new registered member (its tag checked by the caller:
        :func:`backalley.rules.register_reason`)."""
        member: Reason = type.__call__(cls, name, value, False)
        cls._members[name] = member
        return member


@final
class Reason(metaclass=_ReasonType):
    """Why a move was refused: one member per rule that can refuse a move
    (and, for a replayed game record, results its moves do not produce).

    The built-in reasons are the class's attributes (``Reason.NOT_YOUR_TURN``);
    a user's rule registers its own, by tag, as rule parts are registered
    (:func:`backalley.rules.register_reason`).  Every member has a ``name``,
    the code documents write (a built-in name, or the registered tag), and a
    ``value``, the sentence that says what the rule is.  Members are unique
    per name: compare them with ``is``.  The class iterates, and is indexed
    by name, as an enum is.
    """

    __slots__ = ("_built", "_name", "_value")

    NOT_A_MOVE: ClassVar[Reason] = _built_in("not a move")
    GAME_OVER: ClassVar[Reason] = _built_in("the game is over")
    NOT_YOUR_TURN: ClassVar[Reason] = _built_in("not this seat's turn")
    ALREADY_BID: ClassVar[Reason] = _built_in("this seat has already spoken this deal")
    WRONG_PHASE: ClassVar[Reason] = _built_in("the move does not belong to this phase")
    # bidding (rules reference: bidding, board, the Vietnam auction, counters)
    PASS_NOT_ALLOWED: ClassVar[Reason] = _built_in("these rules have no pass")
    BID_TOO_LOW: ClassVar[Reason] = _built_in("the bid is below the lowest bid")
    BID_TOO_HIGH: ClassVar[Reason] = _built_in("the bid is above the highest bid")
    BID_NOT_HIGHER: ClassVar[Reason] = _built_in("the bid does not beat the current bid")
    BID_MAKES_TOTAL: ClassVar[Reason] = _built_in(
        "the hook: the last bid may not make the total equal the hand size"
    )
    BOARD_NOT_ALLOWED: ClassVar[Reason] = _built_in("these rules have no board bid")
    BOARD_BY_PARTNER: ClassVar[Reason] = _built_in(
        "a partner of a board claimer may not claim board again"
    )
    BOARD_LIMIT: ClassVar[Reason] = _built_in("no higher board level exists")
    COUNTER_NOT_ALLOWED: ClassVar[Reason] = _built_in(
        "there is no contract of the other side to counter"
    )
    COUNTER_LIMIT: ClassVar[Reason] = _built_in("the contract is already quadrupled")
    # naming trump: only the declarer of an auction names it (rules reference: trump)
    NOT_DECLARER: ClassVar[Reason] = _built_in("only the declarer names trump")
    NO_TRUMP_NOT_ALLOWED: ClassVar[Reason] = _built_in("the declarer must name a suit")
    # play (rules reference: leading trump, following, blooper leads)
    NOT_IN_DECK: ClassVar[Reason] = _built_in("the card is not in this deck")
    NOT_IN_HAND: ClassVar[Reason] = _built_in("the card is not in the player's hand")
    TRUMP_NOT_BROKEN: ClassVar[Reason] = _built_in("trump may not be led yet")
    MUST_FOLLOW_SUIT: ClassVar[Reason] = _built_in("the player must follow the suit led")
    MUST_PLAY_HIGHEST_TRUMP: ClassVar[Reason] = _built_in(
        "the Big Blooper was led: the highest trump must be played"
    )
    MUST_PLAY_LOWEST_TRUMP: ClassVar[Reason] = _built_in(
        "the Little Blooper (or, by some rules, the lowest trump still out) was led: "
        "the lowest trump must be played"
    )
    MUST_TRUMP: ClassVar[Reason] = _built_in("the player cannot follow and must play a trump")
    MAY_NOT_TRUMP: ClassVar[Reason] = _built_in(
        "trump is not broken: a player who cannot follow may not play a trump yet"
    )
    MUST_HEAD_TRICK: ClassVar[Reason] = _built_in(
        "the player must play a card that wins the trick so far"
    )
    HOUSE_RULE: ClassVar[Reason] = _built_in("a house rule of the rule set refuses the move")
    # game records
    RESULTS_DIFFER: ClassVar[Reason] = _built_in(
        "the recorded moves do not produce the recorded results"
    )

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError("Reason cannot be subclassed: register a reason with register_reason")

    def __init__(self, name: str, value: str, built_in: bool) -> None:
        self._name = name
        self._value = value
        self._built = built_in

    @property
    def name(self) -> str:
        """The code documents write: a built-in name (``"MUST_FOLLOW_SUIT"``)
        or the tag a user's rule registered (``"ourclub/no-ace-discards"``)."""
        return self._name

    @property
    def value(self) -> str:
        """The sentence that says what the rule is."""
        return self._value

    @property
    def built_in(self) -> bool:
        """Whether the library defines this reason (not a user's rule)."""
        return self._built

    def __repr__(self) -> str:
        if self._built:
            return f"<Reason.{self._name}: {self._value!r}>"
        return f"<Reason {self._name!r}: {self._value!r}>"

    def __str__(self) -> str:
        return f"Reason.{self._name}" if self._built else f"Reason[{self._name!r}]"

    def __hash__(self) -> int:
        return hash(self._name)

    def __reduce__(self) -> tuple[Callable[[str, str], Reason], tuple[str, str]]:
        """Pickled by name and sentence: a registered reason unpickled where
        its rule has not been imported is registered there as it was."""
        return (_unpickle_reason, (self._name, self._value))

    def __copy__(self) -> Reason:
        return self

    def __deepcopy__(self, memo: object) -> Reason:
        return self

    @classmethod
    def lookup(cls, name: str) -> Reason:
        """The member named ``name`` (a built-in name or a registered tag);
        an unknown name raises :class:`UnknownReasonError`, which says the
        close ones (the same as ``Reason[name]``)."""
        return cls[name]


def _unpickle_reason(name: str, value: str) -> Reason:
    """The member an unpickled reason is: the one of that name, or (for a
    user's reason whose rule this process has not imported) it registered."""
    member = Reason.__members__.get(name)
    if member is not None:
        return member
    return Reason._add(name, value)


class UnknownReasonError(BackAlleyError, KeyError, ValueError):
    """A reason name (or sentence) that is neither built in nor registered.
    The message names the close ones."""

    def __init__(self, name: object, known: Sequence[str], *, by_sentence: bool = False) -> None:
        self.name = name
        self.known = tuple(known)
        self.by_sentence = by_sentence
        if by_sentence:
            text = f"{name!r} is not the sentence of a reason"
        else:
            hint = did_you_mean(name, self.known) if isinstance(name, str) else ""
            text = (
                f"unknown reason {name!r}{hint}: a reason is built in or registered by a "
                "user's rule (backalley.rules.register_reason)"
            )
        super().__init__(text)

    def __str__(self) -> str:
        return str(self.args[0])

    def __reduce__(self) -> tuple[Callable[..., UnknownReasonError], tuple[object, ...]]:
        return (_unknown_reason, (self.name, self.known, self.by_sentence))


def _unknown_reason(name: object, known: Sequence[str], by_sentence: bool) -> UnknownReasonError:
    return UnknownReasonError(name, known, by_sentence=by_sentence)


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
