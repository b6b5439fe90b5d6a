"""What the plan takes on a part's word, and the form it requires of a refusal.

A part may declare something of its answers (what an answer reads, a bound):
:func:`trusted_declaration` says when the plan believes such a claim - only
from the class that decides, never inherited by a subclass that changes a
rule.  :func:`checked_refusal` checks that a part's refusal is the
``(Reason, sentence)`` pair the engine shows a player.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from backalley.errors import Reason, RuleSetError
from backalley.rules.protocols import Refusal

__all__ = ["checked_refusal", "trusted_declaration"]

_DESCRIPTIVE = frozenset(
    {"describe", "describe_in", "summary", "options", "needs", "provides", "problems"}
)
"""Methods that describe a part rather than decide: a subclass giving its own
text still keeps its parent's declarations (such as ``answer_key``)."""


def _defines_decisions(cls: type) -> bool:
    """Whether ``cls`` itself defines a method that could change a decision."""
    return any(
        callable(value) and not name.startswith("__") and name not in _DESCRIPTIVE
        for name, value in vars(cls).items()
    )


def trusted_declaration(part: object, name: str) -> Callable[..., Any] | None:
    """The part's method ``name`` - something it declares of its answers, such
    as ``answer_key`` or a bound - when it may be trusted: defined by the
    part's class, or by an ancestor below which no class defines a method of
    its own (a subclass that changes a rule never inherits its parent's claim)."""
    cls = type(part)
    for klass in cls.__mro__:
        if name in vars(klass):
            break
        if _defines_decisions(klass):
            return None
    else:
        return None
    return getattr(part, name, None)


def checked_refusal(why: object, method: str) -> Refusal:
    """A part's refusal, which must be a ``(Reason, sentence)`` pair
    (a :class:`~backalley.RuleSetError` naming ``method`` otherwise)."""
    if (
        type(why) is not tuple
        or len(why) != 2
        or not isinstance(why[0], Reason)
        or not isinstance(why[1], str)
    ):
        raise RuleSetError(
            [
                f"{method} must answer a (Reason, sentence) pair, not {why!r} (a reason of "
                "a rule of your own is registered with backalley.rules.register_reason)"
            ]
        )
    return why
