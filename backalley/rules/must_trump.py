"""House rule "must trump when void" (a follow part): a player who cannot
follow the suit led must play a trump if they hold one.  The follow part's
``must_trump`` option; this preset part, tagged ``must-trump``, has it on."""

from __future__ import annotations

from typing import ClassVar

import attrs

from backalley.rules.base import is_bool
from backalley.rules.follow import FollowPolicy
from backalley.rules.registry import register

__all__ = ["MustTrumpWhenVoid"]


@register
@attrs.frozen(slots=True, repr=False)
class MustTrumpWhenVoid(FollowPolicy):
    """Players must follow the suit led if able, as in :class:`FollowPolicy`
    (with its blooper options); in addition, a player who cannot follow must
    play a trump (a joker counts as a trump) if they hold one.  The follow
    part with ``must_trump`` on (``must_head`` composes with it)."""

    tag: ClassVar[str] = "must-trump"

    must_trump: bool = attrs.field(default=True, validator=is_bool)
