"""House rule "must head the trick when able" (a follow part): among the
cards the follow rules allow, a player must play one that beats the best card
of the trick so far, if they hold one.  The follow part's ``must_head``
option; this preset part, tagged ``must-head``, has it on."""

from __future__ import annotations

from typing import ClassVar

import attrs

from backalley.rules.base import is_bool
from backalley.rules.follow import FollowPolicy
from backalley.rules.registry import register

__all__ = ["MustHeadTrick"]


@register
@attrs.frozen(slots=True, repr=False)
class MustHeadTrick(FollowPolicy):
    """Players must follow the suit led if able, as in :class:`FollowPolicy`
    (with its blooper options); in addition, among the cards those rules
    allow, a player must play one that wins the trick so far whenever they
    hold one (so a player who cannot follow must trump - or over-trump - when
    that wins the trick).  Which card wins is the ranking part's decision.
    The follow part with ``must_head`` on (``must_trump`` composes with it)."""

    tag: ClassVar[str] = "must-head"

    must_head: bool = attrs.field(default=True, validator=is_bool)
