"""The follow part: what a player must play to a trick (see :ref:`rules-follow`)."""

from __future__ import annotations

from typing import ClassVar

import attrs

from backalley.cards import CARDS, Card, Suit
from backalley.cardset import CardSet
from backalley.errors import Reason
from backalley.masks import (
    ALL,
    HAND,
    PLAYED,
    SHOWN,
    TRICK,
    TRUE,
    CardExpr,
    Cards,
    Choose,
    Cond,
    Fact,
    Heads,
    Highest,
    Lowest,
    Position,
    PositionFact,
    RestrictionForm,
    Some,
    decide,
    holds,
    restrictions,
)
from backalley.rules.base import Option, Part, has_jokers, is_bool
from backalley.rules.context import DealContext
from backalley.rules.keys import PlayFact, PlayKey
from backalley.rules.lead import TrumpBrokenBy, TrumpBrokenFor, TrumpLead
from backalley.rules.protocols import Ranking, Restriction, RuleSetFacts
from backalley.rules.registry import register

__all__ = ["BlooperForced", "FollowPolicy", "LittleLead", "TrumpBrokenWhen", "TrumpPlay"]

BIG_BLOOPER = CARDS[53]
"""The Big Blooper (``BJ``); the Little Blooper is the other joker."""


class BlooperForced(Option):
    """Who must answer a blooper lead with their highest/lowest trump."""

    ALL_OTHERS = "all-others"
    """Every other player who holds a trump (gamerules)."""
    OPPONENTS = "opponents"
    """Only the leader's opponents; the leader's partner just follows (bab-online)."""


class LittleLead(Option):
    """Option ``little_lead``: which lead forces the lowest trumps (see
    :ref:`rules-bloopers`), under ``little_blooper_forcing``."""

    LITTLE_JOKER = "little-joker"
    """The Little Blooper (``LJ``)."""
    LOWEST_TRUMP = "lowest-trump"
    """The lowest trump still out: a trump below which every trump of the
    deck has been played to an earlier trick of the deal or shown out of play
    (turned up, discarded) - the 2 of trumps, or the lowest one left (a joker
    only when it is the lowest trump left)."""


class TrumpPlay(Option):
    """Option ``trump_play``: whether a player who cannot follow may play a trump
    before trump is broken (see :ref:`rules-follow`)."""

    FREE_WHEN_VOID = "free-when-void"
    """A player who cannot follow may play any card, a trump too."""
    NOT_UNTIL_BROKEN = "not-until-broken"
    """Before trump is broken, a player who cannot follow may not play a trump
    unless they hold nothing else."""


class TrumpBrokenWhen(Option):
    """Option ``trump_broken_when``: which trumps count as breaking trump for
    ``trump_play = not-until-broken`` (see :ref:`rules-follow`)."""

    COMPLETED_TRICKS = "completed-tricks"
    """Only trumps played to completed tricks (as the lead part breaks trump)."""
    ANY_TRUMP_SO_FAR = "any-trump-so-far"
    """Also a trump already played to the trick in progress: it frees every later
    player of that trick who cannot follow to trump as well."""


@register
@attrs.frozen(slots=True, repr=False)
class FollowPolicy(Part):
    """Players must follow the suit led if able; jokers belong to the trump
    suit (see :ref:`rules-follow`).  With ``blooper_lead_forcing``, a led Big Blooper
    (``BJ``) forces every ``blooper_forced`` player holding a trump to play
    their highest trump, and - with ``little_blooper_forcing`` - the little
    lead (``little_lead``: the Little Blooper ``LJ``, or the lowest trump
    still out) forces their lowest trump.  Without jokers in the deck the
    Big Blooper never applies (nor the Little one).  ``trump_play``: whether
    a player who cannot follow may trump before trump is broken, and
    ``trump_broken_when``: whether a trump already played to the trick in
    progress counts as breaking it.  Two house rules compose with all of
    these: ``must_trump`` (a player who cannot follow must trump) and
    ``must_head`` (a player must head the trick when able)."""

    tag: ClassVar[str] = "follow"
    part: ClassVar[str] = "follow"

    blooper_lead_forcing: bool = attrs.field(default=True, validator=is_bool)
    blooper_forced: BlooperForced = attrs.field(
        default=BlooperForced.ALL_OTHERS, converter=BlooperForced
    )
    little_blooper_forcing: bool = attrs.field(default=True, validator=is_bool)
    little_lead: LittleLead = attrs.field(default=LittleLead.LITTLE_JOKER, converter=LittleLead)
    trump_play: TrumpPlay = attrs.field(default=TrumpPlay.FREE_WHEN_VOID, converter=TrumpPlay)
    trump_broken_when: TrumpBrokenWhen = attrs.field(
        default=TrumpBrokenWhen.COMPLETED_TRICKS, converter=TrumpBrokenWhen
    )
    must_trump: bool = attrs.field(default=False, validator=is_bool)
    """A player who cannot follow must play a trump if they hold one (where
    none of the rules above narrows their hand)."""
    must_head: bool = attrs.field(default=False, validator=is_bool)
    """Among the cards the rules above allow, a player must play one that wins
    the trick so far whenever they hold one."""

    def forcing(
        self, ranking: Ranking, trump: Suit | None, led: Card
    ) -> tuple[Cond, Reason] | None:
        """What the card ``led`` may force the ``blooper_forced`` players who
        hold a trump to play, and when: their highest trump after the Big
        Blooper (``MUST_PLAY_HIGHEST_TRUMP``), their lowest after the little
        lead (``MUST_PLAY_LOWEST_TRUMP``: the Little Blooper, or with
        ``little_lead = lowest-trump`` a trump that is the lowest trump still
        out, counted from the cards played before this trick and those the
        opening showed); ``None`` for a lead that forces nothing."""
        if not self.blooper_lead_forcing:
            return None
        if led is BIG_BLOOPER:
            return (TRUE, Reason.MUST_PLAY_HIGHEST_TRUMP)
        if not self.little_blooper_forcing:
            return None
        if self.little_lead is LittleLead.LITTLE_JOKER:
            return (TRUE, Reason.MUST_PLAY_LOWEST_TRUMP) if led.is_joker else None
        trumps = ranking.trumps(trump)
        if led not in trumps:
            return None
        # the trumps still out, the led one among them: is it their lowest?
        lowest_out = Lowest(Cards(trumps) - PLAYED - SHOWN)
        return (Some(Cards(CardSet.of((led,))) & lowest_out), Reason.MUST_PLAY_LOWEST_TRUMP)

    def forced_by(self, ctx: DealContext, led: Card) -> Reason | None:
        """What the card ``led`` forces now (:meth:`forcing`, decided on the
        deal's cards played and shown); ``None`` for any other lead."""
        found = self.forcing(ctx.ranking, ctx.trump, led)
        if found is None:
            return None
        when, reason = found
        return reason if decide(when, Position(ctx, 0, 0, (led,), 0, ctx.broken)) else None

    def restrictions_form(self, ranking: Ranking, trump: Suit | None, led: Card) -> RestrictionForm:
        """The follow rules of a trick led with ``led`` under ``trump``, as
        expressions of the mask algebra (:mod:`backalley.masks`), in order: a
        led blooper's forcing (:meth:`forcing`) of a ``blooper_forced`` player
        who holds the suit led; following the suit led if able (a led joker
        is a trump lead); with ``trump_play = not-until-broken``, no trump
        from a player who cannot follow before trump is broken (by the
        completed tricks, or - ``trump_broken_when = any-trump-so-far`` -
        also by a trump already played to this trick), unless they hold
        nothing but trumps; with ``must_trump``, a trump from a player who
        cannot follow where none of those narrows the hand; with
        ``must_head``, among the cards all of those allow, one that wins the
        trick so far if the hand holds one.  :meth:`restrictions` evaluates
        them."""
        suit = Cards(ranking.suit_cards(led, trump))
        follows = holds(suit)
        form: list[tuple[CardExpr, Reason]] = []
        forcing = self.forcing(ranking, trump, led)
        if forcing is not None:
            when, reason = forcing
            if self.blooper_forced is BlooperForced.OPPONENTS:
                when = when & Fact(PositionFact.OPPONENT)
            same = HAND & suit
            card = Highest(same) if reason is Reason.MUST_PLAY_HIGHEST_TRUMP else Lowest(same)
            form.append((Choose(follows & when, card, ALL), reason))
        form.append((Choose(follows, suit, ALL), Reason.MUST_FOLLOW_SUIT))
        if self.trump_play is TrumpPlay.NOT_UNTIL_BROKEN:
            every = Cards(ranking.trumps(trump))
            barred = ~follows & ~Fact(PositionFact.BROKEN) & holds(every) & holds(~every)
            if self.trump_broken_when is TrumpBrokenWhen.ANY_TRUMP_SO_FAR:
                barred = barred & ~Some(TRICK & every)
            form.append((Choose(barred, ~every, ALL), Reason.MAY_NOT_TRUMP))
        if self.must_trump:
            free: Cond = TRUE
            for cards, _reason in form:
                free = free & ~Some(ALL - cards)
            trumps = HAND & Cards(ranking.trumps(trump))
            form.append((Choose(free & Some(trumps), trumps, ALL), Reason.MUST_TRUMP))
        if self.must_head:
            allowed: CardExpr = HAND
            for cards, _reason in form:
                allowed = allowed & cards
            heading = Heads(allowed)
            must = Some(heading) & Some(allowed - heading)
            form.append((Choose(must, heading, ALL), Reason.MUST_HEAD_TRICK))
        return tuple(form)

    def restrictions(
        self, ctx: DealContext, seat: int, hand: CardSet, trick: tuple[Card, ...], leader: int
    ) -> tuple[Restriction, ...]:
        """The follow rules of :meth:`restrictions_form` at this position."""
        form = self.restrictions_form(ctx.ranking, ctx.trump, trick[0])
        return restrictions(form, Position(ctx, seat, int(hand), trick, leader, ctx.broken))

    def restrictions_key(self, ranking: Ranking, trump: Suit | None, led: Card) -> PlayKey | None:
        """What :meth:`restrictions` reads of a trick led with ``led`` (its
        key): whether the hand holds the suit led; with ``trump_play =
        not-until-broken``, whether it holds a trump and a card that is not
        one, whether trump is broken and (``any-trump-so-far``) whether the
        trick holds a trump; after a lead that may force the highest or lowest
        trump, the hand's cards of the suit led, whether the seat is the
        leader's opponent (``blooper_forced = opponents``) and, for the lowest
        trump still out, the cards played and shown.  None with ``must_trump``
        or ``must_head``: the part is asked at every play."""
        if self.must_head or self.must_trump:
            return None  # the trick's best card and the hand's trumps: asked every time
        suit = ranking.suit_cards(led, trump)
        every = ranking.trumps(trump)
        holds: tuple[CardSet, ...] = (suit,)
        trick_holds: tuple[CardSet, ...] = ()
        facts = set()
        if self.trump_play is TrumpPlay.NOT_UNTIL_BROKEN:
            holds = (suit, every, ~every)
            facts.add(PlayFact.BROKEN)
            if self.trump_broken_when is TrumpBrokenWhen.ANY_TRUMP_SO_FAR:
                trick_holds = (every,)
        exactly = CardSet()
        lowest_out = self.little_lead is LittleLead.LOWEST_TRUMP and led in every
        if self.blooper_lead_forcing and (led.is_joker or lowest_out):
            exactly = suit
            if self.blooper_forced is BlooperForced.OPPONENTS:
                facts.add(PlayFact.LEADER_SIDE)
            if lowest_out:
                facts |= {PlayFact.PLAYED, PlayFact.SHOWN}
        return PlayKey(holds=holds, holds_exactly=exactly, trick_holds=trick_holds, facts=facts)

    def explain(
        self,
        ctx: DealContext,
        reason: Reason,
        card: Card,
        allowed: CardSet,
        trick: tuple[Card, ...],
    ) -> str:
        if reason is Reason.MUST_PLAY_HIGHEST_TRUMP:
            best = ctx.ranking.highest(allowed, ctx.trump)
            return f"the Big Blooper was led, so you must play your highest trump, {best}"
        led = trick[0]
        if reason is Reason.MUST_PLAY_LOWEST_TRUMP:
            low = ctx.ranking.lowest(allowed, ctx.trump)
            what = "the Little Blooper"
            if self.little_lead is LittleLead.LOWEST_TRUMP:
                what = f"{led}, the lowest trump still out,"
            return f"{what} was led, so you must play your lowest trump, {low}"
        if reason is Reason.MUST_HEAD_TRICK:
            return (
                f"you can beat the best card of this trick, so you must: play a card that "
                f"wins it, not {card}"
            )
        if reason is Reason.MUST_TRUMP:
            return (
                f"you cannot follow the suit led, so you must play a trump if you hold one, "
                f"not {card}"
            )
        if reason is Reason.MAY_NOT_TRUMP:
            so_far = (
                " (nor has anyone trumped this trick)"
                if self.trump_broken_when is TrumpBrokenWhen.ANY_TRUMP_SO_FAR
                else ""
            )
            return (
                f"trump has not been broken{so_far}, so you may not play a trump ({card}) "
                "while you hold other cards"
            )
        if led in ctx.ranking.trumps(ctx.trump):
            return f"a trump was led and you hold a trump, so you must play a trump, not {card}"
        name = led.suit.plural  # type: ignore[union-attr]  # a plain card: jokers are trumps
        return f"you hold a {name[:-1]}, so you must follow {name}"

    def describe(self) -> str:
        return self._describe(jokers=True)

    def describe_in(self, rules: RuleSetFacts) -> str:
        """Without jokers in the deck, no joker or blooper rule is stated; with
        ``trump_play = not-until-broken`` under a lead part whose sheet does
        not say what breaks trump (any card may be led), this one says it."""
        breaking = ""
        lead = rules.lead
        if self.trump_play is TrumpPlay.NOT_UNTIL_BROKEN and (
            getattr(lead, "trump_lead", None) is TrumpLead.ANY_TIME
            or getattr(lead, "trump_broken_for", None) is TrumpBrokenFor.THE_LEADER
        ):
            breaking = (
                " (trump is broken once a player who could not follow has played a trump to "
                "an earlier trick)"
                if getattr(lead, "trump_broken_by", None) is TrumpBrokenBy.DISCARD
                else " (trump is broken once a trump has been played to an earlier trick)"
            )
        return self._describe(jokers=has_jokers(rules), breaking=breaking)

    def _describe(self, jokers: bool, breaking: str = "") -> str:
        text = self._following(jokers, breaking)
        if self.must_trump:
            once = (
                "Once trump is broken, a" if self.trump_play is TrumpPlay.NOT_UNTIL_BROKEN else "A"
            )
            text += (
                f" {once} player who cannot follow the suit led must play a trump if they hold one."
            )
        if self.must_head:
            text += (
                " A player must head the trick when able: among the cards they may play, one "
                "that beats the best card played so far, if they hold one."
            )
        return text

    def _following(self, jokers: bool, breaking: str) -> str:
        if not jokers:
            text = "Players must follow the suit led if able."
        else:
            text = (
                "Players must follow the suit led if able; the jokers belong to the trump suit, "
                "so a led trump or joker must be followed with a trump."
            )
        if self.trump_play is TrumpPlay.NOT_UNTIL_BROKEN:
            text += (
                " A player who cannot follow may play any card, but not a trump before trump "
                f"is broken{breaking}, unless they hold nothing but trumps."
            )
            if self.trump_broken_when is TrumpBrokenWhen.ANY_TRUMP_SO_FAR:
                text += (
                    " A trump already played to the trick in progress counts too: it frees "
                    "every later player of that trick who cannot follow to trump."
                )
        else:
            text += " A player who cannot follow may play any card."
        if not self.blooper_lead_forcing:
            if jokers:
                text += " A led joker forces nothing beyond following trump."
            return text
        who = (
            "every other player"
            if self.blooper_forced is BlooperForced.ALL_OTHERS
            else "each opponent of the leader"
        )
        lowest = self.little_blooper_forcing and self.little_lead is LittleLead.LOWEST_TRUMP
        little = (
            "the lowest trump still out is led (every lower trump has been played to an "
            "earlier trick, turned up or discarded; a trump nobody has seen, even one left "
            "in the stock, is still out)"
        )
        if not jokers:
            if lowest:
                text += f" When {little}, {who} holding a trump must play their lowest trump."
            return text
        text += (
            f" When the Big Blooper (BJ) is led, {who} holding a trump must play their highest "
            "trump"
        )
        if lowest:
            text += f"; when {little}, their lowest trump"
        elif self.little_blooper_forcing:
            text += "; when the Little Blooper (LJ) is led, their lowest trump"
        else:
            text += "; a Little Blooper (LJ) lead forces nothing beyond following trump"
        return text + "."
