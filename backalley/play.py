"""The rules of play within a trick (RULES.md 1.6): leading trump, blooper
leads, following, and who wins the trick.

Cards are engine indices here (see :mod:`backalley.cards`) and hands are bit
sets.  ``trump`` is the effective trump: a suit index 0..3, or 4 in a deal
without a trump suit, where any joker still in play forms a trump suit of its
own.  Jokers (indices 52, 53) sit above every suited card, so in a trump mask
the highest bit is the highest trump and the lowest bit the lowest.

:func:`restrictions` is the one place where these rules live: the legal plays
are the hand narrowed by each restriction, and a refused card is explained by
the first restriction that excludes it.
"""

from __future__ import annotations

from collections.abc import Sequence

from backalley.cards import BJ_INDEX, CARDS, JOKERS_MASK, SUITS
from backalley.errors import Reason
from backalley.rules.lead import LeadPolicy, TrumpLead
from backalley.rules.ruleset import RuleSet

__all__ = ["SUIT_BITS", "TRUMP_MASKS", "restrictions", "suit_mask", "trick_winner"]

SUIT_BITS: tuple[int, ...] = (0x1FFF, 0x1FFF << 13, 0x1FFF << 26, 0x1FFF << 39, 0)
TRUMP_MASKS: tuple[int, ...] = tuple(SUIT_BITS[t] | JOKERS_MASK for t in range(5))
"""The cards that are trumps, for each effective trump 0..4."""

Restriction = tuple[int, Reason]


def suit_of(card: int, trump: int) -> int:
    """The suit a card belongs to: its own, or the trump for a joker."""
    return card // 13 if card < 52 else trump


def suit_mask(suit: int, trump: int) -> int:
    """The cards that belong to ``suit`` (a trump suit includes the jokers)."""
    return TRUMP_MASKS[trump] if suit == trump else SUIT_BITS[suit]


def restrictions(
    rules: RuleSet,
    hand: int,
    trick: Sequence[int],
    trump: int,
    broken: bool,
    seat: int,
    leader: int,
    board_bidders: frozenset[int],
) -> tuple[Restriction, ...]:
    """The rules that narrow the cards ``seat`` may play from ``hand``, in order.

    ``trump`` is the effective trump (4: none), ``leader`` leads the trick,
    ``board_bidders`` are the seats that bid board this deal.  Each entry is
    the set of cards the rule allows (a subset of ``hand``) and the
    :class:`~backalley.Reason` it gives for refusing the others.
    """
    trumps = hand & TRUMP_MASKS[trump]
    if not trick:
        # RULES.md 1.6 "Leading trump": not until broken, unless exempt or only trumps held.
        if (
            trumps
            and trumps != hand
            and not rules.lead.may_lead_trump(broken, seat in board_bidders)
        ):
            return ((hand & ~trumps, Reason.TRUMP_NOT_BROKEN),)
        return ()
    led = trick[0]
    if led < 52:
        # RULES.md 1.6 "Following": follow the suit led if able (jokers are trumps).
        led_suit = led // 13
        same = hand & (TRUMP_MASKS[trump] if led_suit == trump else SUIT_BITS[led_suit])
        return ((same, Reason.MUST_FOLLOW_SUIT),) if same else ()
    # A joker led: a trump lead.  RULES.md 1.6 "Blooper leads" first.
    if not trumps:
        return ()
    team = rules.seat_teams
    if rules.follow.forces(led == BJ_INDEX, team[seat] != team[leader]):
        if led == BJ_INDEX:
            forced = (1 << (trumps.bit_length() - 1), Reason.MUST_PLAY_HIGHEST_TRUMP)
        else:
            forced = (trumps & -trumps, Reason.MUST_PLAY_LOWEST_TRUMP)
        return (forced, (trumps, Reason.MUST_FOLLOW_SUIT))
    return ((trumps, Reason.MUST_FOLLOW_SUIT),)


def trick_winner(trick: Sequence[int], trump: int) -> int:
    """The position (0 = the leader) of the card that wins the trick: the
    highest trump played, else the highest card of the suit led (RULES.md 1.6)."""
    tmask = TRUMP_MASKS[trump]
    best_pos, best_key = 0, -1
    led_suit = suit_of(trick[0], trump)
    for pos, card in enumerate(trick):
        if (1 << card) & tmask:
            key = 100 + card
        elif card // 13 == led_suit:
            key = card
        else:
            continue
        if key > best_key:
            best_pos, best_key = pos, key
    return best_pos


def breaks_trump(lead: LeadPolicy, trick: Sequence[int], trump: int) -> bool:
    """Whether a completed trick breaks trump (RULES.md 1.6, option ``trump_broken_by``)."""
    tmask = TRUMP_MASKS[trump]
    if not any((1 << card) & tmask for card in trick):
        return False
    return lead.breaks_trump(led_is_trump=bool((1 << trick[0]) & tmask))


def _suit_words(suit: int, trump: int) -> tuple[str, str]:
    """(singular, plural) of a suit as a player says it."""
    if suit == trump or suit == 4:
        return ("trump", "trump")
    name = SUITS[suit].plural
    return (name[:-1], name)


def explain(
    reason: Reason, card: int, allowed: int, trick: Sequence[int], trump: int, lead: LeadPolicy
) -> str:
    """A sentence that tells the player why ``card`` is refused."""
    text = str(CARDS[card])
    if reason is Reason.TRUMP_NOT_BROKEN:
        msg = f"trump has not been broken, so you may not lead a trump ({text}) while you hold other suits"
        if lead.trump_lead is TrumpLead.AFTER_BROKEN_OR_BOARD:
            msg += " (unless you bid board)"
        return msg
    if reason is Reason.MUST_PLAY_HIGHEST_TRUMP:
        best = CARDS[allowed.bit_length() - 1]
        return f"the Big Blooper was led, so you must play your highest trump, {best}"
    if reason is Reason.MUST_PLAY_LOWEST_TRUMP:
        low = CARDS[(allowed & -allowed).bit_length() - 1]
        return f"the Little Blooper was led, so you must play your lowest trump, {low}"
    if reason is Reason.MUST_FOLLOW_SUIT:
        one, many = _suit_words(suit_of(trick[0], trump), trump)
        if one == "trump":
            return f"a trump was led and you hold a trump, so you must play a trump, not {text}"
        return f"you hold a {one}, so you must follow {many}"
    return str(reason.value)  # pragma: no cover - every play reason is handled above
