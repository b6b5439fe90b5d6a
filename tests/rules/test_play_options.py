"""Readings of the play rules offered as named options (default first, so no
variant changes): which lead forces the lowest trumps (``little_lead``),
whether a trump may be led to the first trick (``first_trick_trump_lead``),
whether a player who cannot follow may trump before trump is broken
(``trump_play``) and which of several board claimers leads
(``board_tie_lead``).

Positions are built exactly from deck orders (``tests/helpers.py``); each
test's docstring states the rule it checks.  Both values of each option are
played where they differ, with the refusal a player sees; then the rules
sheet, the documents, the generated rule sets, what a view infers and the
solver.
"""

from __future__ import annotations

import random
import typing

import pytest

import backalley as ba
from backalley import houserules
from backalley.rules import (
    BlooperForced,
    BoardTieLead,
    FirstTrickTrumpLead,
    FixedTrump,
    FollowPolicy,
    LeadPolicy,
    LittleLead,
    MustHeadTrick,
    MustTrumpWhenVoid,
    TrumpLead,
    TrumpPlay,
)
from backalley.solver import solve

from ..engine.test_views import assert_possible_cards
from ..helpers import apply_all, position, refused, short
from ..solver.test_solver import _plain_solve, check_against_minimax, playing

GR = ba.variants.GAMERULES
R = ba.Reason
PASS3 = ["pass", "pass", "pass"]  # seats 2, 3 and 0 after seat 1 (dealer 0)

LOWEST = FollowPolicy(little_lead=LittleLead.LOWEST_TRUMP)
NEVER = LeadPolicy(first_trick_trump_lead=FirstTrickTrumpLead.NEVER)
NOT_UNTIL_BROKEN = FollowPolicy(trump_play=TrumpPlay.NOT_UNTIL_BROKEN)
FIRST_BOARD = LeadPolicy(board_tie_lead=BoardTieLead.FIRST_BOARD)


def rules_with(size: int, base: ba.RuleSet = GR, **parts: object) -> ba.RuleSet:
    """``base`` with ``parts`` replaced and one deal of ``size`` cards."""
    return short(base.replace(**parts), size)


def legal(state: ba.GameState) -> set[str]:
    return {str(m.card) for m in state.legal_moves()}  # type: ignore[union-attr]


def sheet_of(rules: ba.RuleSet) -> str:
    """The rules sheet, spaces and line breaks normalized."""
    return " ".join(rules.describe().split())


def paragraph(rules: ba.RuleSet, heading: str) -> str:
    """The paragraph of the rules sheet under ``heading`` ("Leading", "Following")."""
    return next(line for line in rules.describe().splitlines() if line.startswith(heading + ":"))


def sentence(state: ba.GameState, card: str) -> str:
    with pytest.raises(ba.IllegalMoveError) as info:
        state.check(ba.parse_move(card))
    return str(info.value)


# ===================================================== little_lead: the little lead


def test_leading_the_two_of_trumps_forces_the_lowest_trump() -> None:
    """little_lead = lowest-trump: leading the lowest trump still out (here
    the 2 of trumps) forces every other player holding a trump to play their
    lowest trump; by default (little-joker) it is an ordinary trump lead."""
    hands = ["7S 3C", "2S 4C", "5S KS", "8S 6D"]  # spades trump (9S turned up)
    for follow, after_lead in ((LOWEST, {"5S"}), (FollowPolicy(), {"5S", "KS"})):
        state = position(hands, "9S", rules=rules_with(2, follow=follow))
        state = apply_all(state, ["board", *PASS3, "2S"])  # seat 1 bids board, leads 2S
        assert legal(state) == after_lead
    state = _two_led()
    assert refused(state, "KS") is R.MUST_PLAY_LOWEST_TRUMP
    assert sentence(state, "KS") == (
        "2S, the lowest trump still out, was led, so you must play your lowest trump, 5S"
    )
    # the view of the seat to act answers alike
    view = state.view(2)
    assert {str(m.card) for m in view.legal_moves()} == {"5S"}  # type: ignore[union-attr]


def _two_led() -> ba.GameState:
    state = position(["7S 3C", "2S 4C", "5S KS", "8S 6D"], "9S", rules=rules_with(2, follow=LOWEST))
    return apply_all(state, ["board", *PASS3, "2S"])


def test_the_lowest_trump_still_out_counts_the_trumps_played_before() -> None:
    """little_lead = lowest-trump: once the 2 of trumps has been played to an
    earlier trick, the 3 is the lowest trump still out, and leading it forces
    the lowest trumps."""
    hands = ["6C 9D QS", "KC 7S JS", "2S 3S 4D", "5C 8S TS"]
    moves = ["bid 1", *PASS3, "KC", "2S", "5C", "6C"]  # seat 2 ruffs trick 1 with 2S
    for follow, answer in ((LOWEST, {"8S"}), (FollowPolicy(), {"8S", "TS"})):
        state = apply_all(position(hands, "9S", rules=rules_with(3, follow=follow)), moves)
        assert state.to_act == 2 and state.trump_broken
        state = apply_all(state, ["3S"])
        assert legal(state) == answer
    assert refused(_three_led(), "TS") is R.MUST_PLAY_LOWEST_TRUMP


def _three_led() -> ba.GameState:
    hands = ["6C 9D QS", "KC 7S JS", "2S 3S 4D", "5C 8S TS"]
    moves = ["bid 1", *PASS3, "KC", "2S", "5C", "6C", "3S"]
    return apply_all(position(hands, "9S", rules=rules_with(3, follow=LOWEST)), moves)


@pytest.mark.parametrize(
    "hands",
    [
        ["7S 3C", "3S 4C", "5S KS", "2S 6D"],  # the 2 in another hand
        ["7S 3C", "3S 4C", "5S KS", "8S 6D"],  # the 2 left in the undealt stock
    ],
)
def test_a_lower_trump_nobody_has_seen_keeps_a_lead_from_forcing(hands: list[str]) -> None:
    """little_lead = lowest-trump: the lowest trump still out is counted from
    what the table has seen; while the 2 of trumps is unseen (in a hand, or
    in the stock) a led 3 forces nothing beyond following trump."""
    state = position(hands, "9S", rules=rules_with(2, follow=LOWEST))
    state = apply_all(state, ["board", *PASS3, "3S"])
    assert legal(state) == {"5S", "KS"}


def test_the_turned_up_trump_is_not_still_out() -> None:
    """little_lead = lowest-trump: the turned-up card is seen out of play, so
    with the 2 of trumps turned up, a led 3 is the lowest trump still out."""
    state = position(["7S 3C", "3S 4C", "5S KS", "8S 6D"], "2S", rules=rules_with(2, follow=LOWEST))
    state = apply_all(state, ["board", *PASS3, "3S"])
    assert legal(state) == {"5S"}


def test_the_lowest_trump_lead_forces_only_the_opponents_with_blooper_forced() -> None:
    """little_lead = lowest-trump with blooper_forced = opponents: only the
    leader's opponents answer with their lowest trump; the partner follows."""
    follow = FollowPolicy(
        little_lead=LittleLead.LOWEST_TRUMP, blooper_forced=BlooperForced.OPPONENTS
    )
    hands = ["7S 3C", "2S 4C", "5S KS", "8S TS"]
    state = position(hands, "9S", rules=rules_with(2, follow=follow))
    state = apply_all(state, ["board", *PASS3, "2S"])
    assert legal(state) == {"5S"}  # seat 2: an opponent of seat 1
    state = apply_all(state, ["5S"])
    assert legal(state) == {"8S", "TS"}  # seat 3: seat 1's partner


def test_little_blooper_forcing_off_turns_the_lowest_trump_lead_off() -> None:
    """little_lead = lowest-trump with little_blooper_forcing off: the little
    lead forces nothing, whichever card it is."""
    follow = FollowPolicy(little_lead=LittleLead.LOWEST_TRUMP, little_blooper_forcing=False)
    state = position(["7S 3C", "2S 4C", "5S KS", "8S 6D"], "9S", rules=rules_with(2, follow=follow))
    state = apply_all(state, ["board", *PASS3, "2S"])
    assert legal(state) == {"5S", "KS"}


def test_the_little_joker_forces_only_as_the_lowest_trump_still_out() -> None:
    """little_lead = lowest-trump: a led Little Blooper is a trump lead like
    any other while suited trumps are still out (by default it forces the
    lowest trump); the Big Blooper still forces the highest trump."""
    hands = ["7S 3C", "LJ BJ", "5S KS", "8S 6D"]
    for follow, answer in ((LOWEST, {"5S", "KS"}), (FollowPolicy(), {"5S"})):
        state = position(hands, "9S", rules=rules_with(2, follow=follow))
        state = apply_all(state, ["board", *PASS3, "LJ"])
        assert legal(state) == answer
    state = position(hands, "9S", rules=rules_with(2, follow=LOWEST))
    state = apply_all(state, ["board", *PASS3, "BJ"])
    assert legal(state) == {"KS"}
    assert refused(state, "5S") is R.MUST_PLAY_HIGHEST_TRUMP


def test_the_lowest_trump_lead_applies_without_jokers() -> None:
    """little_lead = lowest-trump needs no joker: with a plain 52-card deck
    (spades always trump) the led 2 of spades forces the lowest trumps."""
    base = ba.variants.get("spades-no-jokers")
    state = position(["7S 3C", "2S 4C", "5S KS", "8S 6D"], rules=rules_with(2, base, follow=LOWEST))
    state = apply_all(state, ["board", *PASS3, "2S"])
    assert legal(state) == {"5S"}
    state = position(["7S 3C", "2S 4C", "5S KS", "8S 6D"], rules=rules_with(2, base))
    state = apply_all(state, ["board", *PASS3, "2S"])
    assert legal(state) == {"5S", "KS"}


# ============================================ first_trick_trump_lead: the first trick


def test_no_trump_may_be_led_to_the_first_trick() -> None:
    """first_trick_trump_lead = never: not even a board bidder may lead a
    trump to the first trick while holding other suits; by default
    (as-later-tricks) the board bidder may."""
    hands = ["2C 3C", "AH 3D", "7C 2D", "8C 9C"]  # hearts trump (5H turned up)
    default = apply_all(position(hands, "5H", rules=rules_with(2)), ["board", *PASS3])
    assert legal(default) == {"AH", "3D"}
    state = apply_all(position(hands, "5H", rules=rules_with(2, lead=NEVER)), ["board", *PASS3])
    assert legal(state) == {"3D"}
    assert refused(state, "AH") is R.TRUMP_NOT_BROKEN
    assert sentence(state, "AH") == (
        "no trump may be led to the first trick, so you may not lead a trump (AH) while you "
        "hold other suits"
    )


def test_a_hand_of_only_trumps_may_lead_one_to_the_first_trick() -> None:
    """first_trick_trump_lead = never: a hand of nothing but trumps may still
    lead a trump to the first trick."""
    hands = ["2C 3C", "AH 2H", "7C 2D", "8C 9C"]
    state = apply_all(position(hands, "5H", rules=rules_with(2, lead=NEVER)), ["board", *PASS3])
    assert legal(state) == {"AH", "2H"}


def test_after_the_first_trick_the_trump_lead_rule_decides_again() -> None:
    """first_trick_trump_lead = never: from the second trick on, trump_lead
    decides as before (a board bidder may lead trump before it is broken)."""
    hands = ["2C 3C 4C", "AH 3D KH", "7C 2D 5D", "8C 9C TC"]
    state = apply_all(position(hands, "5H", rules=rules_with(3, lead=NEVER)), ["board", *PASS3])
    assert legal(state) == {"3D"}
    state = apply_all(state, ["3D", "2D", "8C", "2C"])  # seat 1 wins the first trick
    assert state.to_act == 1 and not state.trump_broken
    assert legal(state) == {"AH", "KH"}


def test_no_trump_to_the_first_trick_even_when_trump_may_be_led_any_time() -> None:
    """first_trick_trump_lead = never with trump_lead = any-time: the first
    trick may not be led with a trump (from a mixed hand), every later one may."""
    lead = LeadPolicy(
        trump_lead=TrumpLead.ANY_TIME, first_trick_trump_lead=FirstTrickTrumpLead.NEVER
    )
    hands = ["2C 3C 4C", "AH 3D KH", "7C 2D 5D", "8C 9C TC"]
    state = apply_all(position(hands, "5H", rules=rules_with(3, lead=lead)), ["bid 1", *PASS3])
    assert legal(state) == {"3D"}
    assert "first trick" in sentence(state, "KH")
    state = apply_all(state, ["3D", "2D", "8C", "2C"])
    assert legal(state) == {"AH", "KH"}
    anytime = LeadPolicy(trump_lead=TrumpLead.ANY_TIME)
    state = apply_all(position(hands, "5H", rules=rules_with(3, lead=anytime)), ["bid 1", *PASS3])
    assert legal(state) == {"AH", "3D", "KH"}


# ==================================================== trump_play: trumping when void


def test_a_player_who_cannot_follow_may_not_trump_before_trump_is_broken() -> None:
    """trump_play = not-until-broken: before trump is broken a player who
    cannot follow may not play a trump while holding another card; by
    default (free-when-void) they may."""
    hands = ["2C 3C 4C", "5H 6C 7C", "AS BJ 2D", "8C 9C TC"]  # spades trump
    moves = ["bid 1", *PASS3, "5H"]
    default = apply_all(position(hands, "4S", rules=rules_with(3)), moves)
    assert legal(default) == {"AS", "BJ", "2D"}
    state = apply_all(position(hands, "4S", rules=rules_with(3, follow=NOT_UNTIL_BROKEN)), moves)
    assert legal(state) == {"2D"}
    assert refused(state, "AS") is R.MAY_NOT_TRUMP
    assert sentence(state, "BJ") == (
        "trump has not been broken, so you may not play a trump (BJ) while you hold other cards"
    )
    view = state.view(2)
    assert {str(m.card) for m in view.legal_moves()} == {"2D"}  # type: ignore[union-attr]


def test_a_hand_of_only_trumps_may_trump_before_trump_is_broken() -> None:
    """trump_play = not-until-broken: a player who cannot follow and holds
    nothing but trumps plays a trump."""
    hands = ["2C 3C", "5H 6C", "AS BJ", "8C 9C"]
    state = position(hands, "4S", rules=rules_with(2, follow=NOT_UNTIL_BROKEN))
    state = apply_all(state, ["bid 1", *PASS3, "5H"])
    assert legal(state) == {"AS", "BJ"}


# trick 1: seat 1 (board) leads the 5 of trumps, every trump holder follows
# with a trump, seat 0 throws a club: trump is broken; seat 2 leads a
# diamond, and seat 3 has none but the king of trumps and a club
BROKEN_HANDS = ["2C 3C 4C", "5S 6H 7C", "AS 2D 3D", "8S KS 9C"]
BROKEN_MOVES = ["board", *PASS3, "5S", "AS", "8S", "2C", "2D"]


def test_once_trump_is_broken_a_player_who_cannot_follow_may_trump() -> None:
    """trump_play = not-until-broken: once trump is broken (here by a trump
    led by a board bidder), a player who cannot follow may trump again."""
    state = position(BROKEN_HANDS, "4S", rules=rules_with(3, follow=NOT_UNTIL_BROKEN))
    state = apply_all(state, BROKEN_MOVES)
    assert state.trump_broken and state.to_act == 3
    assert legal(state) == {"KS", "9C"}


def test_trumping_waits_for_trump_to_be_broken_under_must_trump() -> None:
    """trump_play = not-until-broken with must-trump: before trump is broken a
    player who cannot follow may not trump; once it is broken they must."""
    follow = MustTrumpWhenVoid(trump_play=TrumpPlay.NOT_UNTIL_BROKEN)
    hands = ["2C 3C 4C", "5H 6C 7C", "AS KS 2D", "8C 9C TC"]
    state = position(hands, "4S", rules=rules_with(3, follow=follow))
    state = apply_all(state, ["bid 1", *PASS3, "5H"])
    assert legal(state) == {"2D"}
    assert refused(state, "AS") is R.MAY_NOT_TRUMP
    state = apply_all(
        position(BROKEN_HANDS, "4S", rules=rules_with(3, follow=follow)), BROKEN_MOVES
    )
    assert state.trump_broken and state.to_act == 3
    assert legal(state) == {"KS"}
    assert refused(state, "9C") is R.MUST_TRUMP


# ============================================== board_tie_lead: which claimer leads


@pytest.mark.parametrize(
    "dealer, calls, last, first",
    [
        (0, ["board", "pass", "board", "pass"], 3, 1),
        (0, ["board", "board", "pass", "bid 4"], 2, 1),
        (0, ["board", "board", "board", "board"], 0, 1),
        (2, ["pass", "board", "pass", "board"], 2, 0),  # seat 3 speaks first
        (0, ["pass", "board", "bid 3", "pass"], 2, 2),  # one claimer
        (0, ["bid 3", "pass", "bid 4", "bid 4"], 3, 3),  # no board: the highest bid
    ],
)
def test_the_first_or_last_board_claimer_leads(
    dealer: int, calls: list[str], last: int, first: int
) -> None:
    """board_tie_lead: of several players who bid board, the last (last-board,
    the default) or the first (first-board) leads the first trick; one
    claimer, or none, leads as before."""
    hands = ["2C 3C 4C 5C 6C", "7C 8C 9C TC JC", "2D 3D 4D 5D 6D", "7D 8D 9D TD JD"]
    for lead, leader in ((LeadPolicy(), last), (FIRST_BOARD, first)):
        state = position(hands, "4S", rules=rules_with(5, lead=lead), dealer=dealer)
        state = apply_all(state, calls)
        assert state.phase is ba.Phase.PLAYING
        assert state.leader == leader and state.to_act == leader


# ====================================================================== the sheet


def test_the_sheet_states_each_non_default_reading() -> None:
    """Each non-default value is said on the rules sheet in a player's words."""
    sheet = sheet_of(rules_with(5, follow=LOWEST))
    assert (
        "when the lowest trump still out is led (every lower trump has been played to an "
        "earlier trick, turned up or discarded; a trump nobody has seen, even one left in "
        "the stock, is still out), their lowest trump."
    ) in sheet
    assert "Little Blooper" not in paragraph(rules_with(5, follow=LOWEST), "Following")
    sheet = sheet_of(rules_with(5, lead=NEVER))
    assert (
        "To the first trick no trump may be led, not even by a player who bid board, unless "
        "the hand holds nothing but trumps."
    ) in sheet
    sheet = sheet_of(rules_with(5, follow=NOT_UNTIL_BROKEN))
    assert (
        "A player who cannot follow may play any card, but not a trump before trump is "
        "broken, unless they hold nothing but trumps."
    ) in sheet
    sheet = sheet_of(rules_with(5, lead=FIRST_BOARD))
    assert "The first player to bid board leads the first trick" in sheet
    # under any-time leads the follow rule says what breaks trump
    vietnam = ba.variants.VIETNAM.replace(follow=NOT_UNTIL_BROKEN)
    assert "(trump is broken once a trump has been played to an earlier trick)" in (
        sheet_of(vietnam)
    )
    never_any_time = LeadPolicy(
        first_lead=ba.rules.FirstLead.DECLARER,
        trump_lead=TrumpLead.ANY_TIME,
        first_trick_trump_lead=FirstTrickTrumpLead.NEVER,
    )
    assert "but no trump (jokers included) to the first trick" in sheet_of(
        ba.variants.VIETNAM.replace(lead=never_any_time)
    )
    # must-head and must-trump keep their own sentence on top
    must_head = MustHeadTrick(little_lead=LittleLead.LOWEST_TRUMP)
    assert "the lowest trump still out is led" in sheet_of(rules_with(5, follow=must_head))
    assert "Once trump is broken, a player who cannot follow the suit led must play a trump" in (
        sheet_of(rules_with(5, follow=MustTrumpWhenVoid(trump_play=TrumpPlay.NOT_UNTIL_BROKEN)))
    )


def test_the_default_sheets_say_what_they_said() -> None:
    """The default values change no sheet: the gamerules Leading and Following
    paragraphs read as before, and no variant's sheet mentions a reading it
    does not use."""
    assert paragraph(GR, "Leading") == (
        "Leading: The last player to bid board leads the first trick; without a board, the "
        "highest bidder (the earliest of equal bids). A trump (jokers included) may be led "
        "only once trump is broken, by a player who bid board, or from a hand of nothing but "
        "trumps. Trump is broken by any trump played in an earlier trick."
    )
    assert paragraph(GR, "Following") == (
        "Following: Players must follow the suit led if able; the jokers belong to the trump "
        "suit, so a led trump or joker must be followed with a trump. A player who cannot "
        "follow may play any card. When the Big Blooper (BJ) is led, every other player "
        "holding a trump must play their highest trump; when the Little Blooper (LJ) is led, "
        "their lowest trump."
    )
    assert paragraph(ba.variants.VIETNAM, "Leading") == (
        "Leading: The declarer leads the first trick. Any card may be led."
    )
    for name in ba.variants.names():
        text = sheet_of(ba.variants.get(name)).split("Settings (for software)")[0]
        for words in (
            "first player to bid board",
            "first trick no trump",
            "still out",
            "before trump is broken",
        ):
            assert words not in text, (name, words)


# ================================================================ the documents


def test_the_readings_load_from_house_rules_and_round_trip() -> None:
    """Each option is read from a house-rules file (TOML and JSON) by its name
    and value, and a rule set with them round-trips through JSON."""
    text = """
base = "gamerules"
[lead]
first_trick_trump_lead = "never"
board_tie_lead = "first-board"
[follow]
little_lead = "lowest-trump"
trump_play = "not-until-broken"
"""
    rules = houserules.loads(text)
    assert rules.lead == LeadPolicy(
        first_trick_trump_lead=FirstTrickTrumpLead.NEVER, board_tie_lead=BoardTieLead.FIRST_BOARD
    )
    assert rules.follow == FollowPolicy(
        little_lead=LittleLead.LOWEST_TRUMP, trump_play=TrumpPlay.NOT_UNTIL_BROKEN
    )
    as_json = (
        '{"format": "backalley/rules", "base": "gamerules", "lead": {"first_trick_trump_lead": '
        '"never", "board_tie_lead": '
        '"first-board"}, "follow": {"little_lead": "lowest-trump", "trump_play": '
        '"not-until-broken"}}'
    )
    assert houserules.loads(as_json, format="json") == rules
    assert ba.from_json(ba.to_json(rules), ba.RuleSet) == rules
    must = GR.replace(
        follow=MustTrumpWhenVoid(little_lead="lowest-trump", trump_play="not-until-broken")
    )
    assert ba.from_json(ba.to_json(must), ba.RuleSet) == must


def test_an_unknown_reading_is_refused_with_its_choices() -> None:
    with pytest.raises(ba.SerializationError, match="first-board"):
        houserules.loads('base = "gamerules"\n[lead]\nboard_tie_lead = "middle-board"\n')


def test_the_generated_rule_sets_draw_every_value() -> None:
    """The generated rule sets (tests/strategies.py) draw enum options from the
    parts' attrs field types: each new option is typed by its enumeration."""
    lead = typing.get_type_hints(LeadPolicy)
    follow = typing.get_type_hints(FollowPolicy)
    assert lead["first_trick_trump_lead"] is FirstTrickTrumpLead
    assert lead["board_tie_lead"] is BoardTieLead
    assert follow["little_lead"] is LittleLead
    assert follow["trump_play"] is TrumpPlay
    for cls in (MustTrumpWhenVoid, MustHeadTrick):
        assert typing.get_type_hints(cls)["little_lead"] is LittleLead


# ==================================================== views, the solver, the bots

READINGS = [
    rules_with(5, follow=LOWEST),
    rules_with(5, lead=NEVER),
    rules_with(5, follow=NOT_UNTIL_BROKEN),
    rules_with(5, lead=FIRST_BOARD),
    rules_with(
        5,
        base=ba.variants.VIETNAM,
        follow=FollowPolicy(little_lead="lowest-trump", trump_play="not-until-broken"),
    ),
    rules_with(5, base=ba.variants.get("spades-no-jokers"), follow=LOWEST),
]


@pytest.mark.parametrize("index", range(len(READINGS)))
def test_possible_cards_stay_sound_under_each_reading(index: int) -> None:
    """What a view infers of the other hands never rules out a card a seat
    holds, under each reading (checked at every state of random games)."""
    rules = READINGS[index]
    for seed in range(6):
        rng = random.Random(seed)
        state = ba.new_game(rules, seed=seed)
        while not state.is_over:
            if state.phase is ba.Phase.PLAYING:
                assert_possible_cards(state)
            state = state.apply(rng.choice(state.legal_moves()))


def test_a_view_infers_from_the_lowest_trump_lead() -> None:
    """little_lead = lowest-trump: a player who answered the led 2 of trumps
    with the 8 shows that they hold no lower trump."""
    state = position(
        ["7S 3C 4H", "2S 4C 5H", "8S KS 6H", "3S 6D 7H"], "9S", rules=rules_with(3, follow=LOWEST)
    )
    state = apply_all(state, ["board", *PASS3, "2S", "8S"])
    possible = {str(c) for c in state.view(1).possible_cards(2)}
    assert not {"3S", "4S", "5S", "6S", "7S"} & possible
    assert "KS" in possible


@pytest.mark.parametrize("index", range(len(READINGS)))
def test_the_solver_agrees_with_minimax_under_each_reading(index: int) -> None:
    """The solver answers from the plan's legal plays: under each reading it
    agrees with an exhaustive minimax (small deals) and with its plain search."""
    rules = READINGS[index]
    checked = 0
    for size in (2, 3):
        for seed in range(4):
            state = playing(rules, size, seed, seed % 3)
            if state is None or state.phase is not ba.Phase.PLAYING:
                continue
            check_against_minimax(state)
            checked += 1
        for seed in range(2):
            state = playing(rules, 5, seed, seed)
            if state is not None and state.phase is ba.Phase.PLAYING:
                with pytest.MonkeyPatch.context() as monkeypatch:
                    assert solve(state) == _plain_solve(state, monkeypatch)
    assert checked


def test_the_solver_reads_the_history_only_where_the_play_does() -> None:
    """The solver's plan finds that under the lowest-trump reading what a
    trump lead forces depends on the trumps played before the trick (so the
    search keys its legal plays by them and treats every trump exactly), and
    that no other reading, nor the default, makes any group depend on them."""
    from backalley.engine import lowlevel
    from backalley.solver import _plan

    def reads(rules: ba.RuleSet) -> int:
        state = playing(rules, 4, 1, 0)
        assert state is not None
        pos = lowlevel.raw_position(state)
        assert pos is not None
        plan = _plan.plan_for(pos.rules, pos.trump)
        assert plan.history == bool(plan.history_mask)
        return plan.history_mask

    fixed = rules_with(4, trump=FixedTrump(ba.Suit.SPADES), follow=LOWEST)
    trumps = int(ba.CardSet.suit_of(ba.Suit.SPADES)) | (3 << 52)
    assert reads(fixed) == trumps  # the spades and the jokers: the trump group
    assert reads(rules_with(4, follow=LOWEST))
    for rules in (rules_with(4), rules_with(4, lead=NEVER), rules_with(4, follow=NOT_UNTIL_BROKEN)):
        assert not reads(rules)


def test_a_lowest_trump_lead_deal_the_solver_gets_right() -> None:
    """A position after the 2 of trumps was played: the 3 of trumps led now
    forces the lowest trumps, and the solver's answer counts it."""
    state = _three_led()
    check_against_minimax(state)
