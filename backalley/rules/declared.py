"""What a rule set's parts declare of their answers, for tools that compile them.

The batch engine (:mod:`backalley.batch`) needs more than the parts'
answers: the finite forms they declare - the lead and follow rules as
expressions of the mask algebra, the bidding's states, which facts of a deal
a per-deal decision reads.  This module finds those declarations, trusted
only from the class that decides (:func:`~backalley.rules.claims.trusted_declaration`),
so that a tool asks here instead of probing the parts itself.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from backalley.rules.claims import trusted_declaration
from backalley.rules.context import BiddingContext
from backalley.rules.protocols import KeyedBiddingStates, ReadsContext
from backalley.rules.registry import PART_NAMES
from backalley.rules.ruleset import RuleSet

__all__ = ["declaration", "part_class_name", "part_of", "reads", "state_key"]


def part_of(rules: RuleSet, part: str) -> Any:
    """The part of ``rules`` named ``part`` (``"lead"``, ``"follow"``, ...)."""
    if part not in PART_NAMES:
        raise ValueError(f"{part!r} is not a part of a rule set ({', '.join(PART_NAMES)})")
    return getattr(rules, part)


def part_class_name(rules: RuleSet, part: str) -> str:
    """The class name of ``rules``' part ``part`` (for messages)."""
    return type(part_of(rules, part)).__name__


def declaration(rules: RuleSet, part: str, name: str) -> Callable[..., Any] | None:
    """``rules``' part ``part``'s declaration ``name`` (a method it gives
    besides its protocol's), when trusted; ``None`` otherwise."""
    return trusted_declaration(part_of(rules, part), name)


def state_key(rules: RuleSet) -> Callable[[BiddingContext], Hashable] | None:
    """The bidding part's ``state_key``
    (:class:`~backalley.rules.protocols.KeyedBiddingStates`), when trusted."""
    bidding = rules.bidding
    if not isinstance(bidding, KeyedBiddingStates):
        return None
    return trusted_declaration(bidding, "state_key")


def reads(rules: RuleSet, part: str, method: str) -> frozenset[str] | None:
    """The fields of a deal's context that ``part``'s ``method`` reads, as
    the part declares them (``context_reads``,
    :class:`~backalley.rules.protocols.ReadsContext`); ``None`` when it does
    not say, or the declaration is not trusted."""
    owner = part_of(rules, part)
    if not isinstance(owner, ReadsContext):
        return None
    declared = trusted_declaration(owner, "context_reads")
    if declared is None:
        return None
    found = declared(method)
    return None if found is None else frozenset(found)
