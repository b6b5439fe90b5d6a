"""Rules that own their logic: the three rules added as one class each
(``must-trump``, ``must-head``, ``rotating``), the open registry, and a rule
written outside the package (``examples/custom_rule.py``).

Each rule's example tests state the rule in their docstring and check that
legal moves, refusals, views and loading all answer from the same part.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any, ClassVar

import attrs
import pytest

import backalley as ba
from backalley.rules import (
    FollowPolicy,
    MustHeadTrick,
    MustTrumpWhenVoid,
    OrderedRanking,
    RotatingTrump,
    register,
)
from backalley.rules.registry import lookup, part_classes

from .. import ROOT
from ..helpers import apply_all, deck_for, refused, short

G = ba.variants.GAMERULES
# spades fixed as trump, so the examples below need no turn-up
SPADES = G.replace(trump=ba.rules.FixedTrump(ba.Suit.SPADES))


def one_deal(follow: Any, hands: list[str], *, leader_bids: bool = True) -> ba.GameState:
    """A 3-card deal under ``follow`` with spades trump, dealer 3 (seat 0 bids first
    and, bidding highest, leads)."""
    rules = short(SPADES.replace(follow=follow), 3)
    state = ba.new_game(rules, dealer=3, decks=[deck_for(rules, hands, dealer=3)], seed=1)
    return apply_all(state, ["bid 2", "pass", "pass", "pass"])


# ------------------------------------------------------------- must trump


def test_must_trump_when_void() -> None:
    """Rule (must-trump): a player who cannot follow the suit led must play a
    trump if they hold one; holding a card of the suit led, they follow."""
    state = one_deal(MustTrumpWhenVoid(), ["AC 2H 3H", "2S 5D 6D", "4C 7D 8D", "9D TD JD"])
    state = state.apply(ba.parse_move("AC"))  # seat 0 leads a club; seat 1 has none
    assert state.legal_moves() == (ba.Play(ba.parse_card("2S")),)
    assert refused(state, "5D") is ba.Reason.MUST_TRUMP
    with pytest.raises(ba.IllegalMoveError, match="must play a trump"):
        state.check(ba.parse_move("5D"))
    # the view of the seat to act gives the same answers
    view = state.view(1)
    assert view.legal_moves() == state.legal_moves()
    assert not view.is_legal(ba.parse_move("5D"))


def test_must_trump_leaves_a_player_without_trumps_free() -> None:
    """Rule (must-trump): without a trump, a player who cannot follow plays any card."""
    state = one_deal(MustTrumpWhenVoid(), ["AC 2H 3H", "5D 6D 4H", "4C 7D 8D", "9D TD 2S"])
    state = state.apply(ba.parse_move("AC"))
    assert [str(m) for m in state.legal_moves()] == ["play 5D", "play 6D", "play 4H"]


def test_must_trump_shows_in_possible_cards() -> None:
    """A player who did not trump when void shows they hold no trump."""
    state = one_deal(MustTrumpWhenVoid(), ["AC 2H 3H", "5D 6D 7D", "4C 8D 9D", "2S TD JD"])
    state = apply_all(state, ["AC", "5D"])  # seat 1: no club, no trump
    view = state.view(0)
    possible = view.possible_cards(1)
    assert not any(card.suit is ba.Suit.SPADES for card in possible)
    assert not any(card.suit is ba.Suit.CLUBS for card in possible)
    assert not any(card.is_joker for card in possible)


# -------------------------------------------------------------- must head


def test_must_head_the_trick_when_able() -> None:
    """Rule (must-head): among the cards a player may play, one that beats the
    best card of the trick so far must be played, if they hold one."""
    state = one_deal(MustHeadTrick(), ["5H 2C 3C", "3H 9H 4C", "4H 6H 5C", "2D 3D 4D"])
    state = state.apply(ba.parse_move("5H"))
    assert state.legal_moves() == (ba.Play(ba.parse_card("9H")),)
    assert refused(state, "3H") is ba.Reason.MUST_HEAD_TRICK
    assert refused(state, "4C") is ba.Reason.MUST_FOLLOW_SUIT  # following comes first
    state = state.apply(ba.parse_move("9H"))
    # seat 2 cannot beat the 9: any heart will do
    assert state.legal_moves() == (ba.Play(ba.parse_card("4H")), ba.Play(ba.parse_card("6H")))


def test_must_head_means_trumping_when_void() -> None:
    """Rule (must-head): a player who cannot follow must play a card that wins
    the trick - a trump, when one wins."""
    state = one_deal(MustHeadTrick(), ["5H 2C 3C", "2S 4D 5D", "6H 7H 4C", "2D 3D 6D"])
    state = state.apply(ba.parse_move("5H"))
    assert state.legal_moves() == (ba.Play(ba.parse_card("2S")),)
    assert refused(state, "4D") is ba.Reason.MUST_HEAD_TRICK


# ----------------------------------------------------------- rotating trump


def test_trump_rotates_each_deal() -> None:
    """Rule (rotating): nothing is turned up; deal 1 is played with clubs as
    trump, then diamonds, hearts, spades, no trump, and clubs again."""
    rules = short(ba.variants.ROTATING_TRUMP, 1, 1, 1, 1, 1, 1)
    state = ba.new_game(rules, seed=3)
    seen = []
    while not state.is_over:
        if state.phase is ba.Phase.BIDDING and not state.calls:
            assert state.turn_up is None
            seen.append(state.trump)
        state = state.apply(state.legal_moves()[-1])  # board: never thrown in
    S = ba.Suit
    assert seen == [S.CLUBS, S.DIAMONDS, S.HEARTS, S.SPADES, None, S.CLUBS]
    assert [r.trump for r in state.deal_results] == seen


def test_a_thrown_in_deal_keeps_its_trump() -> None:
    """Rule (rotating): a thrown-in deal is dealt again with the same trump."""
    rules = short(G.replace(trump=RotatingTrump()), 2, 2)
    state = ba.new_game(rules, seed=4)
    state = apply_all(state, ["pass"] * 4)  # thrown in
    assert state.deals_played == 0 and state.trump is ba.Suit.CLUBS


def test_rotating_trump_round_trips() -> None:
    state = ba.new_game(ba.variants.ROTATING_TRUMP, seed=8)
    for _ in range(60):
        state = state.apply(state.legal_moves()[0])
    assert ba.from_json(ba.to_json(state), ba.GameState) == state
    view = state.view(1)
    assert ba.from_json(ba.to_json(view), ba.PlayerView) == view


# ---------------------------------------------------------------- registry


def test_built_in_rules_are_registered_by_tag() -> None:
    assert part_classes("follow")["must-trump"] is MustTrumpWhenVoid
    assert part_classes("follow")["must-head"] is MustHeadTrick
    assert part_classes("trump")["rotating"] is RotatingTrump
    assert lookup("ranking", "jokers-high") is ba.rules.JokersHigh
    with pytest.raises(ba.RuleSetError, match=r"known: .*must-head"):
        lookup("follow", "must-dance")


def test_a_subclass_without_its_own_tag_is_refused() -> None:
    """A subclass of a registered rule must choose its own tag: saved under the
    parent's tag it would load back as the parent."""

    @attrs.frozen
    class Quiet(FollowPolicy):
        pass

    with pytest.raises(ba.RuleSetError, match="its own `tag`"):
        register(Quiet)
    with pytest.raises(ba.RuleSetError, match="registered follow rule"):
        G.replace(follow=Quiet())


def test_a_taken_tag_is_refused() -> None:
    @attrs.frozen
    class Other(FollowPolicy):
        tag: ClassVar[str] = "must-trump"

    with pytest.raises(ba.RuleSetError, match="taken"):
        register(Other)


def test_a_rule_part_must_be_a_frozen_attrs_class() -> None:
    class Plain:
        tag = "plain"
        part = "follow"

        def describe(self) -> str:
            return ""

    with pytest.raises(ba.RuleSetError, match="attrs class"):
        register(Plain)

    @attrs.define
    class Mutable:
        tag: ClassVar[str] = "test/mutable"
        part: ClassVar[str] = "follow"

        def describe(self) -> str:
            return ""

    with pytest.raises(ba.RuleSetError, match="frozen"):
        register(Mutable)


def test_an_unregistered_part_cannot_be_written() -> None:
    @attrs.frozen
    class Loose(FollowPolicy):
        tag: ClassVar[str] = "test/loose"

    with pytest.raises(ba.SerializationError, match="not a registered rule part"):
        ba.to_json(Loose())


@register
@attrs.frozen
class CrossedSides(ba.rules.Partnerships):
    """A test seating whose ``team_of`` disagrees with its ``teams``."""

    tag: ClassVar[str] = "test/crossed-sides"

    def team_of(self, seat: int) -> int:
        return 0 if seat < 2 else 1


def test_a_seating_whose_sides_disagree_is_refused() -> None:
    """The engine counts each side's tricks and bids through ``team_of``, so
    a seating whose ``team_of`` and ``teams`` disagree is refused up front."""
    with pytest.raises(ba.RuleSetError, match=r"seating: the sides .* the same in both"):
        G.replace(seating=CrossedSides())


@register
@attrs.frozen
class NeedsAGong(FollowPolicy):
    """A test rule that needs a capability no part provides."""

    tag: ClassVar[str] = "test/needs-gong"

    def needs(self) -> frozenset[str]:
        return frozenset({"gong"})


def test_a_capability_nobody_provides_is_refused() -> None:
    with pytest.raises(ba.RuleSetError, match="needs 'gong'"):
        G.replace(follow=NeedsAGong())


@register
@attrs.frozen
class LowJokers(OrderedRanking):
    """A test ranking: the jokers are the lowest trumps (LJ, BJ below the two)."""

    tag: ClassVar[str] = "test/low-jokers"

    def key(self, card: ba.Card, trump: ba.Suit | None) -> int:
        if card.is_joker:
            return card.rank.value - 20  # below every plain card
        return card.rank.value

    def describe(self) -> str:
        return "The jokers are the lowest trumps."


def test_a_users_rule_round_trips_through_every_document() -> None:
    """A registered user rule is written and read by its tag: JSON rule sets,
    TOML house rules, states, views and records."""
    rules = G.replace(ranking=LowJokers(), name="low jokers")
    assert ba.from_json(ba.to_json(rules), ba.RuleSet) == rules
    assert ba.houserules.loads(ba.houserules.dumps_toml(rules)) == rules
    state = ba.new_game(rules, seed=12)
    moves = []
    for _ in range(40):
        move = state.legal_moves()[0]
        moves.append(move)
        state = state.apply(move)
    assert ba.from_json(ba.to_json(state), ba.GameState) == state
    view = state.view(state.to_act or 0)
    assert ba.from_json(ba.to_json(view), ba.PlayerView) == view
    record = ba.GameRecord.from_game(ba.new_game(rules, seed=12), moves)
    assert ba.from_json(ba.to_json(record), ba.GameRecord) == record
    assert "The jokers are the lowest trumps." in rules.describe()


def test_the_ranking_decides_the_trick_and_the_blooper_answer() -> None:
    """With the jokers lowest, a led Big Blooper still forces the highest trump
    - now the ace - and the ace of trumps beats both jokers."""
    rules = short(SPADES.replace(ranking=LowJokers()), 3)
    deck = deck_for(rules, ["BJ 2C 3C", "AS 2S 4C", "5C 6C 7C", "LJ 8C 9C"], dealer=3)
    state = ba.new_game(rules, dealer=3, decks=[deck], seed=1)
    state = apply_all(state, ["board", "pass", "pass", "pass", "BJ"])
    assert state.legal_moves() == (ba.Play(ba.parse_card("AS")),)
    state = apply_all(state, ["AS", "5C", "LJ"])
    assert state.tricks[0].winner == 1


def test_the_custom_rule_example_runs() -> None:
    """examples/custom_rule.py: defined outside the package, registered, played,
    saved and loaded back equal, its sheet printed."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "custom_rule.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "loaded back equal" in done.stdout
    assert "rank just below its ace" in done.stdout


def test_the_docs_example_rule_works() -> None:
    """docs/custom_rules.rst: the code block defines a working, registered rule,
    which refuses with the reason it registered."""
    text = (ROOT / "docs" / "custom_rules.rst").read_text(encoding="utf-8")
    block = text.split(".. code-block:: python\n", 1)[1].split("\n.. _custom-rules-reasons:", 1)[0]
    code = "\n".join(line[3:] for line in block.splitlines())
    namespace: dict[str, Any] = {"__name__": "custom_rules_doc"}
    exec(compile(code, "custom_rules.rst", "exec", dont_inherit=True), namespace)
    rules = namespace["rules"]
    hands = ["2C 3C 4C", "AH 5D 6D", "5C 7D 8D", "9D TD JD"]
    rules = short(rules.replace(trump=ba.rules.FixedTrump(ba.Suit.SPADES)), 3)
    state = ba.new_game(rules, dealer=3, decks=[deck_for(rules, hands, dealer=3)], seed=1)
    state = apply_all(state, ["bid 2", "pass", "pass", "pass", "2C"])
    assert refused(state, "AH") is namespace["NO_ACE_DISCARDS"]
    assert namespace["NO_ACE_DISCARDS"].name == "ourclub/no-ace-discards"
    with pytest.raises(ba.IllegalMoveError, match="may not throw an ace"):
        state.check(ba.parse_move("AH"))
    assert ba.from_json(ba.to_json(state), ba.GameState) == state
