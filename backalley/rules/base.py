"""What every rule part has in common: a stable tag and a readable summary."""

from __future__ import annotations

import enum
import re
import warnings
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, cast

import attrs

from backalley.errors import RuleSetError
from backalley.reprs import fields_repr
from backalley.rules.option_types import OptionTypeError, describe, inherited_kinds
from backalley.rules.seats import seat_names
from backalley.rules.validators import boolean

if TYPE_CHECKING:
    from backalley.rules.protocols import RuleSetFacts

__all__ = [
    "Option",
    "Part",
    "Term",
    "describe_value",
    "has_board_bids",
    "has_jokers",
    "is_bool",
    "plays_alone",
    "seat_names",
    "side_word",
]


class Option(enum.Enum):
    """Base of the named rule options (see :ref:`rules-options`); their values are
    their stable text."""

    def __str__(self) -> str:
        return str(self.value)

    @classmethod
    def _missing_(cls, value: object) -> Any:
        """Unknown option text raises :class:`~backalley.RuleSetError` listing the choices."""
        choices = ", ".join(repr(m.value) for m in cls)
        raise RuleSetError([f"{cls.__name__}: {value!r} is not one of {choices}"])


is_bool = boolean()
"""attrs validator: an on/off option must be ``True`` or ``False``
(:func:`backalley.rules.validators.boolean`, shared)."""


def describe_value(value: Any) -> str:
    """A rule parameter as text, for rule sheets and error messages.

    .. deprecated:: 0.2
       Ask the part: :meth:`Part.option_text` shows an option as the
       description of its type does.
    """
    warnings.warn(
        "describe_value() is deprecated; use part.option_text(name), which shows an "
        "option through the description of its type",
        DeprecationWarning,
        stacklevel=2,
    )
    return _value_text(value)


def _value_text(value: Any) -> str:
    """:func:`describe_value`'s answer, without the warning: the value shown
    by the description of its own type (a list item by item, a table by its
    registered options)."""
    if value is None:
        return "none"
    if isinstance(value, (tuple, list, frozenset)):
        items = sorted(value) if isinstance(value, frozenset) else value
        texts = (f"({_value_text(v)})" if attrs.has(type(v)) else _value_text(v) for v in items)
        return ", ".join(texts) if items else "none"
    try:
        return describe(type(value)).text(value)
    except (OptionTypeError, RuleSetError):  # a type no option has: as Python shows it
        return str(value)


class Part:
    """Mixin of every policy class.

    ``tag`` is the stable name under which a policy is saved (never the class
    name, so saved rule sets survive refactors); ``part`` is the rule-set slot
    it fills (see :ref:`rules-parts`).
    """

    __slots__ = ()
    tag: ClassVar[str]
    part: ClassVar[str]
    may_provide: ClassVar[frozenset[str]] = frozenset()
    """The capabilities some instance of the class can provide (see
    :meth:`provides`): declared on the class, so that a rule set refused for a
    missing capability can name the parts that would give it."""

    # the built-in parts are declared with ``repr=False`` and share this text
    # (the one attrs would generate), which is cheaper to create at import
    __repr__ = fields_repr

    def options(self) -> dict[str, Any]:
        """The policy's parameters, by name."""
        return {a.name: getattr(self, a.name) for a in attrs.fields(cast(Any, type(self)))}

    def needs(self) -> frozenset[str]:
        """Capabilities this part needs another part of the rule set to provide.

        The built-in capabilities: ``"declarer"`` (a bidding that can make a
        declarer), ``"declarer-every-deal"`` (a declarer in every played deal),
        ``"declarer-contract"`` (one declarer's contract), ``"summed-contracts"``
        (each side's bids summed into its contract).  A user's parts may use
        capabilities of their own.
        """
        return frozenset()

    def provides(self) -> frozenset[str]:
        """Capabilities this part provides (see :meth:`needs`); each one among
        the class's :attr:`may_provide`."""
        return frozenset()

    def problems(self, rules: RuleSetFacts) -> list[str]:
        """Why this part does not fit the rest of ``rules`` (a
        :class:`~backalley.RuleSet`); each problem starts with the parts involved."""
        return []

    def cautions(self, rules: RuleSetFacts) -> list[str]:
        """What about ``rules`` (a :class:`~backalley.RuleSet` whose parts fit)
        may surprise its players though the game can be played; each sentence
        starts with the parts involved and says what would change it.  The
        rule set issues each as a :class:`~backalley.RuleSetWarning` when it is
        built.  By default none."""
        return []

    def describe_in(self, rules: RuleSetFacts) -> str:
        """The rule as a paragraph of the rules sheet of ``rules`` (a
        :class:`~backalley.RuleSet`), saying only what can apply there (no
        joker rules without jokers, no board talk without board bids).  By
        default the part's own ``describe()``."""
        describe: Any = cast(Any, self).describe
        return str(describe())

    def terms_in(self, rules: RuleSetFacts) -> tuple[Term, ...]:
        """The words of the rules sheet of ``rules`` this part defines (its
        Terms block lists those the sheet uses, each once, in the order of the
        parts).  By default none."""
        return ()

    def option_text(self, name: str) -> str:
        """The option ``name`` as a rules sheet shows it (``on``, ``5``,
        ``redeal-next-dealer``, ``2, 3, 4``, ``none``): through the
        description of its type, made when the class was registered
        (:func:`backalley.rules.registry.option_kinds`; a subclass not
        registered itself shows them as the class it inherits them from)."""
        kinds = inherited_kinds(type(self))
        value = getattr(self, name)
        return str(value) if kinds is None else kinds[name].text(value)

    def summary(self) -> str:
        """One line: the tag and the parameters."""
        opts = self.options()
        if not opts:
            return self.tag
        inner = "; ".join(f"{k}={self.option_text(k)}" for k in opts)
        return f"{self.tag} ({inner})"


class Term(NamedTuple):
    """A word of the rules sheet defined in its Terms block, in a player's
    words: ``name``, its ``meaning``, and the ``forms`` in which the sheet may
    use it (besides ``name``: ``sides``, ``contracting``, ...)."""

    name: str
    meaning: str
    forms: tuple[str, ...] = ()

    def used_in(self, text: str) -> bool:
        """Whether ``text`` uses the word (any of its forms, as a whole word)."""
        words = "|".join(re.escape(w) for w in (self.name, *self.forms))
        return re.search(rf"(?<![\w-])(?:{words})(?![\w-])", text, re.IGNORECASE) is not None


# ------------------------------------------------- facts for describe_in(rules)


def has_jokers(rules: RuleSetFacts) -> bool:
    """Whether the deck of ``rules`` holds the jokers (else no joker rule can apply)."""
    return bool(rules.deck.has_jokers)


def has_board_bids(rules: RuleSetFacts) -> bool:
    """Whether anyone can bid board under ``rules`` (capability ``"board-bids"``)."""
    return bool("board-bids" in rules.bidding.provides())


def plays_alone(rules: RuleSetFacts) -> bool:
    """Whether every player is a side of their own (no partnerships)."""
    return bool(len(rules.seating.teams) == rules.seating.players)


def side_word(rules: RuleSetFacts) -> str:
    """``"side"``, or ``"player"`` when every player plays alone."""
    return "player" if plays_alone(rules) else "side"
