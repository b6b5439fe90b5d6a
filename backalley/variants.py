"""Named rule sets: the seed variants (the gamerules and the Vietnam-era games) and presets of
house rules seen in play (see :ref:`rules-house-rules`).

``get(name)`` finds a rule set by name or alias (case-insensitive; ``_`` and
spaces read as ``-``); ``names()`` lists the registered names;
``description(name)`` says what a variant is (given when it was registered).
"""

from __future__ import annotations

from backalley.cards import Rank, Suit
from backalley.errors import RuleSetError, UnknownVariantError
from backalley.rules import (
    AllPass,
    Auction,
    AuctionScoring,
    BlooperForced,
    BoardMultiplier,
    ContractScoring,
    CounterStyle,
    Cutthroat,
    DealerRotation,
    Deck,
    DeclarerNamesTrump,
    ExactBidScoring,
    FirstLead,
    FixedTrump,
    FollowPolicy,
    JokerTurnUp,
    LeadPolicy,
    MustHeadTrick,
    MustTrumpWhenVoid,
    NextDealer,
    OnceAroundBidding,
    Rainbow,
    RotatingTrump,
    RuleSet,
    Schedule,
    Speakers,
    TrumpBrokenBy,
    TrumpLead,
    TurnUpTrump,
)

__all__ = [
    "BAB_ONLINE",
    "CUTTHROAT_3",
    "CUTTHROAT_5",
    "EXACT_BID",
    "GAMERULES",
    "GAMERULES_26",
    "HOOK",
    "MUST_HEAD",
    "PRESET_NOTES",
    "ROTATING_TRUMP",
    "SCORE_KEEPER_5",
    "SPADES_NO_JOKERS",
    "STRICT_TRUMP",
    "TEN_PER_TRICK",
    "VIETNAM_LADDER",
    "VIETNAM",
    "VIETNAM_42",
    "VIETNAM_CUTTHROAT",
    "VIETNAM_LITERAL",
    "VIETNAM_NO_JOKERS",
    "VIETNAM_SPADES",
    "description",
    "get",
    "names",
    "register",
]

GAMERULES: RuleSet = RuleSet(name="gamerules")
"""The gamerules game (see :ref:`rules-gamerules`): every part at its default."""

VIETNAM: RuleSet = RuleSet(
    schedule=Schedule.fixed(13, 2),
    dealer=DealerRotation(next_dealer=NextDealer.LOSING_TEAM),
    trump=DeclarerNamesTrump(),
    bidding=Auction(),
    lead=LeadPolicy(first_lead=FirstLead.DECLARER, trump_lead=TrumpLead.ANY_TIME),
    scoring=AuctionScoring(),
    name="vietnam",
)
"""The Vietnam-era game (see :ref:`rules-vietnam`): a match of two 13-card games, an
ascending auction with counters, the declarer names trump and leads."""

VIETNAM_NO_JOKERS: RuleSet = VIETNAM.replace(deck=Deck(jokers=0), name="vietnam-no-jokers")
"""``VIETNAM`` with a plain 52-card deck (so no blooper rules: they keep their
Vietnam settings and apply again if the jokers are put back)."""

VIETNAM_42: RuleSet = VIETNAM.replace(
    deck=Deck(ranks=[r for r in Rank if Rank.FIVE <= r <= Rank.ACE]),
    schedule=Schedule.fixed(10, 2),
    name="vietnam-42",
)
"""``VIETNAM`` on the 42-card deck (2s, 3s, 4s removed, jokers kept): 10 cards each."""

VIETNAM_SPADES: RuleSet = VIETNAM.replace(trump=FixedTrump(Suit.SPADES), name="vietnam-spades")
"""``VIETNAM`` with spades always trump: the declarer names nothing."""

VIETNAM_CUTTHROAT: RuleSet = VIETNAM.replace(seating=Cutthroat(4), name="vietnam-cutthroat")
"""``VIETNAM`` without partnerships: each player scores alone."""

# --------------------------------------------------------------- presets

BAB_ONLINE: RuleSet = RuleSet(
    schedule=Schedule((12, 10, 8, 6, 4, 2, 1, 3, 5, 7, 9, 11, 13)),
    trump=TurnUpTrump(joker_turn_up=JokerTurnUp.NO_TRUMP_OTHER_JOKER_STAYS),
    bidding=OnceAroundBidding(
        pass_allowed=False,
        min_bid=0,
        max_bid_below_hand=0,
        board_multipliers=(2, 4, 8, 16),
        board_multiplier=BoardMultiplier.OWN_HIGHEST_CLAIM,
        all_pass=AllPass.REDEAL_SAME_DEALER,
    ),
    lead=LeadPolicy(trump_lead=TrumpLead.AFTER_BROKEN),
    follow=FollowPolicy(blooper_forced=BlooperForced.OPPONENTS, little_blooper_forcing=False),
    scoring=ContractScoring(
        per_bid_trick=10,
        set_per_bid_trick=10,
        rainbow=Rainbow(hand_size=4, points=10),
    ),
    name="bab-online",
)
"""The rules of the open-source Back Alley Bridge server (see :ref:`rules-house-rules`)."""

GAMERULES_26: RuleSet = GAMERULES.replace(
    schedule=Schedule.down_and_up(13, 1, repeat_bottom=True), name="gamerules-26"
)
"""Gamerules over 26 deals: 13..1, then 1..13 (the 1-card deal twice)."""

HOOK: RuleSet = GAMERULES.replace(bidding=OnceAroundBidding(hook=True), name="hook")
"""Gamerules with the hook: the last bidder may not make the bids total the hand size."""

STRICT_TRUMP: RuleSet = GAMERULES.replace(
    lead=LeadPolicy(trump_lead=TrumpLead.AFTER_BROKEN, trump_broken_by=TrumpBrokenBy.DISCARD),
    name="strict-trump",
)
"""Gamerules where only a trump played by a player who could not follow breaks
trump, and bidding board gives no right to lead trump."""

SPADES_NO_JOKERS: RuleSet = GAMERULES.replace(
    deck=Deck(jokers=0), trump=FixedTrump(Suit.SPADES), name="spades-no-jokers"
)
"""Gamerules with a plain 52-card deck and spades always trump."""

TEN_PER_TRICK: RuleSet = GAMERULES.replace(
    scoring=ContractScoring(per_bid_trick=10, set_per_bid_trick=10),
    name="ten-per-trick",
)
"""Gamerules scored 10 per bid trick (+1 per overtrick), -10 per bid trick when set."""

CUTTHROAT_3: RuleSet = GAMERULES.replace(seating=Cutthroat(3), name="cutthroat-3")
"""Gamerules for three players, each alone (13..1..13 from the 54-card deck)."""

CUTTHROAT_5: RuleSet = GAMERULES.replace(
    seating=Cutthroat(5), schedule=Schedule.down_and_up(10, 1), name="cutthroat-5"
)
"""Gamerules for five players, each alone, over 10..1..10 (19 deals)."""

SCORE_KEEPER_5: RuleSet = GAMERULES.replace(
    deck=Deck(jokers=0),
    seating=Cutthroat(5),
    schedule=Schedule.down_and_up(10, 1),
    bidding=OnceAroundBidding(
        pass_allowed=False,
        min_bid=0,
        max_bid_below_hand=0,
        board_multipliers=(6, 12, 24, 48, 96),
        board_multiplier=BoardMultiplier.OWN_HIGHEST_CLAIM,
    ),
    scoring=ContractScoring(
        per_bid_trick=3,
        set_per_bid_trick=3,
        per_board_trick=3,
        set_per_board_trick=3,
        rainbow=Rainbow(hand_size=4, points=8),
    ),
    name="score-keeper-5",
)
"""The five-player score-keeper game (see :ref:`rules-house-rules`): each player alone, no
jokers, 10..1..10, bids 0 to the hand size or a board at x6 up to x96, 3 points per bid
trick, +8 for a rainbow."""

EXACT_BID: RuleSet = GAMERULES.replace(
    seating=Cutthroat(4),
    bidding=OnceAroundBidding(
        pass_allowed=False,
        min_bid=0,
        max_bid_below_hand=0,
        board=False,
        all_pass=AllPass.PLAY_FOR_OVERTRICKS,
    ),
    scoring=ExactBidScoring(),
    name="exact-bid",
)
"""Four players, each alone, scored on exact bids (see :ref:`rules-exact-bid-scoring`):
bids 0 to the hand size, no board; taking exactly one's bid earns 10 on top of 1 per trick."""

VIETNAM_LADDER: RuleSet = VIETNAM.replace(
    schedule=Schedule.down_and_up(13, 1), dealer=DealerRotation(), name="vietnam-ladder"
)
"""The Vietnam auction and scoring over the gamerules 13..1..13 schedule."""

ROTATING_TRUMP: RuleSet = GAMERULES.replace(
    trump=RotatingTrump(), follow=MustTrumpWhenVoid(), name="rotating-trump"
)
"""Gamerules with trump rotating C, D, H, S, no trump by deal, and trumping compulsory when void."""

MUST_HEAD: RuleSet = GAMERULES.replace(follow=MustHeadTrick(), name="must-head")
"""Gamerules where a player must head the trick whenever able."""

VIETNAM_LITERAL: RuleSet = VIETNAM.replace(
    bidding=Auction(speakers=Speakers.ONE_PER_TEAM, counter_style=CounterStyle.MULTIPLE_BID),
    name="vietnam-literal",
)
"""The Vietnam game with the source's auction read word by word (see
:ref:`rules-literal-auction`): each side announces once, and a second announcement of at least two,
three or four times the first doubles, triples or quadruples the contract."""

PRESET_NOTES: dict[str, str] = {
    "bab-online": (
        "The Back Alley Bridge server: 13 deals of 12, 10, ..., 1, ..., 13 cards; a turned "
        "joker leaves the other joker as the only trump; bids 0..hand size, no pass; boards "
        "B/2B/3B/4B at x2/x4/x8/x16 per side; both sides at zero: same dealer redeals; only "
        "opponents answer a BJ lead; 10 per bid trick; +10 rainbow on the 4-card deal."
    ),
    "gamerules-26": "26 deals: the 1-card deal is played twice (13..1, 1..13).",
    "hook": "The hook: the last bidder may not make the total of the bids equal the hand size.",
    "strict-trump": (
        "Only a trump played by a player who could not follow breaks trump; board bidders "
        "have no right to lead trump early."
    ),
    "spades-no-jokers": "52 cards without jokers; spades are always trump.",
    "ten-per-trick": "10 points per bid trick (+1 per overtrick); -10 per bid trick when set.",
    "cutthroat-3": "Three players, each alone, 13..1..13.",
    "cutthroat-5": "Five players, each alone, 10..1..10.",
    "score-keeper-5": (
        "The five-player score-sheet game: each player alone, 52 cards without jokers, "
        "10..1..10; bids 0..hand size, no pass, or a board, whose claims climb one level "
        "each at x6/x12/x24/x48/x96 (each board player at the level of their own claim); "
        "3 points per bid trick (and per board trick), -3 per bid trick when set; +8 for "
        "each rainbow on the 4-card deal."
    ),
    "exact-bid": (
        "Four players, each alone; bids 0..hand size, no pass, no board, and a deal where "
        "everyone bids 0 is played; exact-bid scoring: 1 point per trick taken, +10 for "
        "taking exactly one's bid."
    ),
    "vietnam-ladder": "The Vietnam auction over the 13..1..13 schedule, dealer passing clockwise.",
    "rotating-trump": (
        "Nothing is turned up: trump rotates clubs, diamonds, hearts, spades, no trump by "
        "deal; a player who cannot follow must trump if able."
    ),
    "must-head": "A player must head the trick (beat the best card so far) whenever able.",
    "vietnam-literal": (
        "The source's auction read word by word: each side makes one announcement (left of "
        "the dealer for their side, then the next player for the other side), higher than "
        "the one before; a second announcement of at least 2x, 3x or 4x the first doubles, "
        "triples or quadruples the contract (3 then 7 is a double), made or failed."
    ),
}
"""What each preset changes from the game it is based on."""


_REGISTRY: dict[str, tuple[RuleSet, str]] = {}
"""Each registered name's rule set and description."""
_ALIASES: dict[str, str] = {}

MAX_DESCRIPTION = 2000
"""The longest description a variant may be registered with, in characters."""


def _key(name: str) -> str:
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


def register(rules: RuleSet, *aliases: str, description: str = "") -> RuleSet:
    """Register a named rule set (its ``name``) under that name and ``aliases``.

    ``description``: what the variant is, or what it changes from the game it
    is based on, in a sentence or two of plain text (``backalley variants``
    shows it beside the name; :func:`description` returns it)."""
    if not rules.name:
        raise RuleSetError(["only a named rule set can be registered (give it a name)"])
    if not isinstance(description, str):
        raise RuleSetError([f"a variant's description is text, not {type(description).__name__}"])
    if len(description) > MAX_DESCRIPTION:
        raise RuleSetError(
            [
                f"a variant's description is at most {MAX_DESCRIPTION} characters, "
                f"not {len(description)}"
            ]
        )
    name = _key(rules.name)
    _REGISTRY[name] = (rules, " ".join(description.split()))
    for alias in aliases:
        _ALIASES[_key(alias)] = name
    return rules


def names() -> tuple[str, ...]:
    """The registered variant names, seed variants first."""
    return tuple(_REGISTRY)


def get(name: str) -> RuleSet:
    """The rule set registered as ``name`` (or an alias), case-insensitive.

    Raises :class:`~backalley.UnknownVariantError` (a ``KeyError`` and a
    ``ValueError``) listing the known names.
    """
    if isinstance(name, RuleSet):
        return name
    return _registered(name)[0]


def description(name: str) -> str:
    """What the variant registered as ``name`` (or an alias) is, as given to
    :func:`register` (empty when none was given); an unknown name raises
    :class:`~backalley.UnknownVariantError`, as :func:`get` does."""
    return _registered(name)[1]


def _registered(name: object) -> tuple[RuleSet, str]:
    if not isinstance(name, str):
        raise UnknownVariantError(repr(name), names())
    key = _key(name)
    key = _ALIASES.get(key, key)
    try:
        return _REGISTRY[key]
    except KeyError:
        raise UnknownVariantError(name, names()) from None


register(
    GAMERULES,
    "default",
    "back-alley",
    "backalley",
    description="The default game: 13..1..13 cards, turn-up trump, bids once around, boards.",
)
register(
    VIETNAM,
    "vietnam-era",
    description="The Vietnam-era game: two 13-card games, an ascending auction with counters; "
    "the declarer names trump and leads.",
)
register(
    VIETNAM_NO_JOKERS,
    "vietnam-52",
    "vietnam-nojokers",
    description="Vietnam with a plain 52-card deck (so no blooper rules).",
)
register(
    VIETNAM_42,
    "vietnam-fortytwo",
    description="Vietnam on the 42-card deck (2s, 3s, 4s removed, jokers kept): 10 cards each.",
)
register(
    VIETNAM_SPADES,
    "vietnam-spades-trump",
    description="Vietnam with spades always trump: the declarer names nothing.",
)
register(
    VIETNAM_CUTTHROAT,
    "vietnam-singles",
    description="Vietnam without partnerships: each player scores alone.",
)
register(BAB_ONLINE, "bab", "back-alley-bridge", description=PRESET_NOTES["bab-online"])
register(GAMERULES_26, "twenty-six", description=PRESET_NOTES["gamerules-26"])
register(HOOK, "gamerules-hook", description=PRESET_NOTES["hook"])
register(STRICT_TRUMP, "discard-breaks-trump", description=PRESET_NOTES["strict-trump"])
register(SPADES_NO_JOKERS, "spades", description=PRESET_NOTES["spades-no-jokers"])
register(TEN_PER_TRICK, "ten", description=PRESET_NOTES["ten-per-trick"])
register(CUTTHROAT_3, "three-players", description=PRESET_NOTES["cutthroat-3"])
register(CUTTHROAT_5, "five-players", description=PRESET_NOTES["cutthroat-5"])
register(
    SCORE_KEEPER_5,
    "score-keeper",
    "five-player-score-sheet",
    description=PRESET_NOTES["score-keeper-5"],
)
register(EXACT_BID, "exact", "exact-bid-4", description=PRESET_NOTES["exact-bid"])
register(VIETNAM_LADDER, "vietnam-13-1-13", description=PRESET_NOTES["vietnam-ladder"])
register(ROTATING_TRUMP, "rotating", description=PRESET_NOTES["rotating-trump"])
register(MUST_HEAD, "head", description=PRESET_NOTES["must-head"])
register(VIETNAM_LITERAL, "vietnam-word-by-word", description=PRESET_NOTES["vietnam-literal"])
