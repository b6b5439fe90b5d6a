"""The batch engine (``backalley.batch``) is exact, or refuses.

Covers the acceptance item "Exact, or refused":

- every built-in variant and preset either is refused by ``batch.compile``
  (a ``RuleSetError`` naming the part, as :data:`REFUSED` records) or plays
  batch games that the one-game engine replays with the same seat to act,
  phase and legal actions at every decision, and the same final scores, the
  game over in both (a few dozen games each; 2,000 each under ``--runlong``);
- rule sets drawn from the open registry (``tests/strategies.py``) likewise;
- a user's registered parts: a follow part declaring its
  ``restrictions_form`` and a ranking ordering its cards (``OrderedRanking``)
  compile and agree; a follow part overriding ``restrictions`` alone is
  refused naming ``follow``;
- bad input (a non-rule set, no games, a negative seed, an illegal action,
  records of a batch that keeps none) raises the library's errors and changes
  nothing;
- the same seed gives the same games.

``batch.compile`` meets the bidding up front, asking the plan up to
``backalley.batch.compiled_tables.CALL_BUDGET`` times (seconds per preset): the
default run builds each rule set's tables afresh with a small budget instead
(``batch.Tables``; the rest of the bidding is met as the games reach it, so
that path is checked too), the long run takes ``batch.compile``'s.  The games
are played by a uniformly random policy of the test's own (through
``batch.run``), which keeps what the batch showed at each decision; a
disagreement names the variant, the batch's seed, the game and the decision.
The one-game replays run in the suite's key checking mode
(``BACKALLEY_CHECK_KEYS=1``, see ``conftest.py``) unless the environment says
otherwise (``BACKALLEY_CHECK_KEYS=0``: the library's default).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import backalley as ba
from backalley.cardset import CardSet
from backalley.masks import ALL, Cards, Choose, RestrictionForm, holds
from backalley.rules import FollowPolicy, OrderedRanking, register, registry
from backalley.rules.registry import PART_NAMES

from ..helpers import examples
from ..marks import by_variant
from ..strategies import registry_rule_sets

np = pytest.importorskip("numpy", reason="backalley.batch needs NumPy (the 'batch' extra)")
batch = pytest.importorskip("backalley.batch", reason="backalley.batch needs NumPy")
batch_tables = batch.compiled_tables

REFUSED: dict[str, tuple[str, ...]] = {}
"""The built-in variants and presets that ``batch.compile`` refuses, each with
the parts its refusal names, one per problem (``("trump",)`` for ``"trump:
TurnedBeforeDeal draws trump ..."``).  None is refused today: every preset
declares the finite form of each of its parts.  A preset that starts or stops being refused fails
:func:`test_every_variant_is_exact_or_refused_naming_its_part` until this
table (and the documentation's list) says so."""

GAMES = 20
"""Games per variant in the default run."""
SLOW_GAMES = 2000
"""Games per variant in the long run (``--runlong`` or ``-m long``)."""
SMALL_BUDGET = 2000
"""The calls of the bidding the default run's tables meet up front."""

PHASES = {
    ba.Phase.BIDDING: batch.BIDDING,
    ba.Phase.NAMING_TRUMP: batch.NAMING,
    ba.Phase.PLAYING: batch.PLAYING,
}


# ----------------------------------------------------------------- helpers


def tables_with_budget(rules: ba.RuleSet, budget: int) -> Any:
    """The rule set's batch tables, built afresh (not ``batch.compile``'s
    cached ones) meeting at most ``budget`` calls of the bidding up front;
    raises the ``RuleSetError`` that ``batch.compile`` would."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(batch_tables, "CALL_BUDGET", budget)
        return batch.Tables(rules)


def part_named(problem: str) -> str:
    """The rule part a refusal's problem names (its text before the first ':')."""
    return problem.split(":", 1)[0]


@attrs.frozen
class Decision:
    """What the batch showed at one decision of one game."""

    phase: int
    seat: int
    legal: frozenset[int]


class Shown:
    """What the batch showed at every decision of every game, kept compact
    (a packed row of legal actions per decision) for batches of thousands."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.steps: list[tuple[Any, Any, Any, Any]] = []

    def add(self, games: Any, live: Any, legal: Any) -> None:
        self.steps.append(
            (live.copy(), games.phase[live], games.to_act[live], np.packbits(legal, axis=1))
        )

    def done(self, n: int) -> None:
        game, phase, seat, packed = (np.concatenate(a) for a in zip(*self.steps))
        order = np.argsort(game, kind="stable")  # each game's decisions in the order played
        self.bounds = np.searchsorted(game[order], np.arange(n + 1))
        self.phase, self.seat, self.packed = phase[order], seat[order], packed[order]
        self.steps.clear()

    def of(self, g: int) -> list[Decision]:
        """Game ``g``'s decisions, in order."""
        rows = range(self.bounds[g], self.bounds[g + 1])
        return [
            Decision(
                int(self.phase[r]),
                int(self.seat[r]),
                frozenset(np.flatnonzero(np.unpackbits(self.packed[r], count=self.size)).tolist()),
            )
            for r in rows
        ]


def play_recording(source: Any, n: int, seed: int) -> tuple[Any, Shown]:
    """``n`` batch games of ``source`` (a rule set or tables) played to their
    end by uniformly random legal actions (from ``seed``), and what the batch
    showed at each decision of each game."""
    games = batch.BatchGames(source, n, seed)
    seen = Shown(games.actions.size)
    rng = np.random.default_rng(seed + 1)

    def policy(batch_games: Any, live: Any, legal: Any) -> Any:
        seen.add(batch_games, live, legal)
        count = legal.sum(axis=1)
        pick = (rng.random(len(live)) * count).astype(np.intp)
        return (np.cumsum(legal, axis=1) > pick[:, None]).argmax(axis=1)

    batch.run(games, policy)
    seen.done(n)
    return games, seen


def disagreements(name: str, seed: int, games: Any, seen: Shown) -> list[str]:
    """Where the one-game engine, replaying each batch game's record, differs
    from what the batch showed (the first difference of each game)."""
    actions = games.actions
    found: list[str] = []

    def text(ids: frozenset[int]) -> str:
        return ", ".join(f"{a}:{actions.move_of(a)}" for a in sorted(ids))

    for g, record in enumerate(games.records()):
        where = f"{name} seed {seed} game {g}"
        shown_g = seen.of(g)
        if len(record.moves) != len(shown_g):
            found.append(f"{where}: {len(record.moves)} moves recorded, {len(shown_g)} decisions")
            continue
        state = record.start()
        for k, (move, shown) in enumerate(zip(record.moves, shown_g)):
            one = frozenset(actions.id_of(m) for m in state.legal_moves())
            phase = PHASES.get(state.phase)
            if (phase, state.to_act, one) != (shown.phase, shown.seat, shown.legal):
                found.append(
                    f"{where} decision {k} (deal {state.deals_played}, {state.phase.name}): "
                    f"one-game engine: seat {state.to_act} [{text(one)}]; "
                    f"batch: phase {shown.phase} seat {shown.seat} [{text(shown.legal)}]; "
                    f"only one-game [{text(one - shown.legal)}], "
                    f"only batch [{text(shown.legal - one)}]"
                )
                break
            state = state.apply(move)
        else:
            batch_scores = tuple(games.scores[g].tolist())
            if not state.is_over or games.phase[g] != batch.OVER or games.to_act[g] != -1:
                found.append(
                    f"{where}: over in the one-game engine {state.is_over}, "
                    f"batch phase {int(games.phase[g])}"
                )
            elif tuple(state.scores) != batch_scores:
                found.append(
                    f"{where}: final scores {tuple(state.scores)} (one-game), "
                    f"{batch_scores} (batch)"
                )
    return found


def check_exact(name: str, source: Any, n: int, seed: int) -> None:
    games, seen = play_recording(source, n, seed)
    assert games.n == n and games.phase.shape == (n,)
    found = disagreements(name, seed, games, seen)
    assert not found, f"{len(found)} of {n} games disagree:\n" + "\n".join(found[:5])


def refusal_or_tables(rules: ba.RuleSet, budget: int | None) -> tuple[Any, ba.RuleSetError | None]:
    """The rule set's tables (``batch.compile``'s, or with ``budget`` built
    afresh), or the compiler's refusal."""
    try:
        if budget is None:
            return batch.compile(rules), None
        return tables_with_budget(rules, budget), None
    except ba.RuleSetError as exc:
        return None, exc


def assert_refusal_names_parts(exc: ba.RuleSetError) -> list[str]:
    parts = [part_named(problem) for problem in exc.problems]
    assert exc.problems and all(part in PART_NAMES for part in parts), exc.problems
    assert str(exc).startswith(exc.problems[0] if len(exc.problems) == 1 else f"{len(parts)} ")
    return parts


# ------------------------------------------------ the variants and presets


def test_refused_table_names_only_presets_and_parts() -> None:
    assert set(REFUSED) <= set(ba.variants.names())
    assert all(parts and set(parts) <= set(PART_NAMES) for parts in REFUSED.values())


@pytest.mark.parametrize("name", by_variant(ba.variants.names()))
def test_every_variant_is_exact_or_refused_naming_its_part(name: str) -> None:
    rules = ba.variants.get(name)
    tables, refused = refusal_or_tables(rules, SMALL_BUDGET)
    if refused is not None:
        assert REFUSED.get(name) == tuple(assert_refusal_names_parts(refused)), (
            f"{name} is refused: {refused}"
        )
        with pytest.raises(ba.RuleSetError) as info:  # batch.compile refuses it alike
            batch.compile(rules)
        assert info.value.problems == refused.problems
        return
    assert name not in REFUSED, f"{name} compiles, but REFUSED expects a refusal by {REFUSED[name]}"
    check_exact(name, tables, GAMES, seed=1)


@pytest.mark.long
@pytest.mark.parametrize("name", ba.variants.names())
def test_every_variant_is_exact_over_many_games(name: str) -> None:
    rules = ba.variants.get(name)
    tables, refused = refusal_or_tables(rules, None)
    if refused is not None:
        assert REFUSED.get(name) == tuple(assert_refusal_names_parts(refused)), str(refused)
        return
    check_exact(name, tables, SLOW_GAMES, seed=2026)


def test_compile_is_kept_per_rule_set() -> None:
    rules = ba.variants.get("vietnam-literal")
    assert batch.compile(rules) is batch.compile(rules) is batch.compile("vietnam-literal")


# ------------------------------------------------ rule sets of the registry


@settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(rules=registry_rule_sets(), seed=st.integers(0, 2**16))
def test_registry_rule_sets_are_exact_or_refused_naming_a_part(
    rules: ba.RuleSet, seed: int
) -> None:
    tables, refused = refusal_or_tables(rules, SMALL_BUDGET)
    if refused is not None:
        assert_refusal_names_parts(refused)
        return
    check_exact(f"drawn rules {rules!r}", tables, 3, seed)


# ------------------------------------------------------- a user's parts


BIG_BLOOPER = ba.parse_card("BJ")


@attrs.frozen
class SaveTheBigBlooper(FollowPolicy):
    """A user's house rule: a player who cannot follow suit may not throw the
    Big Blooper while they hold another card (besides the standard follow
    rules), declared in the mask algebra."""

    tag: ClassVar[str] = "test-batch/save-the-big-blooper"

    def restrictions_form(
        self, ranking: Any, trump: ba.Suit | None, led: ba.Card
    ) -> RestrictionForm:
        others = ~Cards(CardSet.of([BIG_BLOOPER]))
        void = ~holds(Cards(ranking.suit_cards(led, trump)))
        save = (Choose(void & holds(others), others, ALL), ba.Reason.HOUSE_RULE)
        return (*super().restrictions_form(ranking, trump, led), save)

    def explain(self, ctx: Any, reason: ba.Reason, card: ba.Card, allowed: Any, trick: Any) -> str:
        if reason is ba.Reason.HOUSE_RULE:
            return "you cannot follow suit, and the Big Blooper is kept while you hold another card"
        return super().explain(ctx, reason, card, allowed, trick)


@attrs.frozen
class SaveTheBigBlooperByHand(FollowPolicy):
    """The same house rule written as Python over the hand (``restrictions``)
    with no ``restrictions_form``: the batch engine cannot evaluate it."""

    tag: ClassVar[str] = "test-batch/save-the-big-blooper-by-hand"

    def restrictions(
        self, ctx: Any, seat: int, hand: CardSet, trick: tuple[ba.Card, ...], leader: int
    ) -> Any:
        found = super().restrictions(ctx, seat, hand, trick, leader)
        others = ~CardSet.of([BIG_BLOOPER])
        if not hand & ctx.ranking.suit_cards(trick[0], ctx.trump) and hand & others:
            found = (*found, (others, ba.Reason.HOUSE_RULE))
        return found


@attrs.frozen
class JokersBelowAce(OrderedRanking):
    """examples/custom_rule.py's ranking: the jokers rank just below the ace of trumps."""

    tag: ClassVar[str] = "test-batch/jokers-below-ace"

    def key(self, card: ba.Card, trump: ba.Suit | None) -> int:
        if card.rank is ba.Rank.LITTLE_JOKER:
            return 13
        if card.rank is ba.Rank.BIG_JOKER:
            return 14
        if card.rank is ba.Rank.ACE and card.suit is trump:
            return 15
        return card.rank.value - 2

    def describe(self) -> str:
        return "Cards rank A (high) down to 2; the jokers rank just below the ace of trumps."


USER_PARTS = (SaveTheBigBlooper, SaveTheBigBlooperByHand, JokersBelowAce)


@pytest.fixture
def user_parts() -> Iterator[dict[str, type]]:
    """The user's parts, registered under this module's tags while a
    test runs, then forgotten (so that the registry's strategies elsewhere
    never draw them)."""
    parts = {part: dict(table) for part, table in registry._REGISTRY.items()}
    types = dict(registry._OPTION_TYPES)
    made = {cls.__name__: register(cls) for cls in USER_PARTS}
    yield made
    for part, table in registry._REGISTRY.items():
        table.clear()
        table.update(parts[part])
    registry._OPTION_TYPES.clear()
    registry._OPTION_TYPES.update(types)


def short_gamerules(**parts: Any) -> ba.RuleSet:
    """The gamerules game over a short schedule, with ``parts`` replaced."""
    return ba.variants.GAMERULES.replace(schedule=ba.rules.Schedule((5, 4, 3)), **parts)


def test_user_follow_part_declaring_its_form_compiles_and_agrees(
    user_parts: dict[str, type],
) -> None:
    rules = short_gamerules(follow=user_parts["SaveTheBigBlooper"]())
    check_exact("save-the-big-blooper", tables_with_budget(rules, SMALL_BUDGET), 24, seed=5)


def test_user_follow_rule_is_in_force_in_batch_games(user_parts: dict[str, type]) -> None:
    """Not only equal: wherever a player cannot follow suit and holds the Big
    Blooper with another card, the batch does not offer it, and such positions
    occur."""
    rules = short_gamerules(follow=user_parts["SaveTheBigBlooper"]())
    games, seen = play_recording(tables_with_budget(rules, SMALL_BUDGET), 24, seed=5)
    ranking = rules.ranking
    kept = 0
    for g, record in enumerate(games.records()):
        state = record.start()
        for move, shown in zip(record.moves, seen.of(g)):
            if state.phase is ba.Phase.PLAYING and state.trick:
                hand = CardSet.of(state.hands[state.to_act])
                led = state.trick[0][1]
                void = not hand & ranking.suit_cards(led, state.trump)
                if void and BIG_BLOOPER in hand and len(hand) > 1:
                    offered = {games.actions.move_of(a) for a in shown.legal}
                    assert offered and ba.Play(BIG_BLOOPER) not in offered, (g, offered)
                    kept += 1
            state = state.apply(move)
    assert kept


def test_user_follow_part_without_a_form_is_refused_naming_follow(
    user_parts: dict[str, type],
) -> None:
    rules = short_gamerules(follow=user_parts["SaveTheBigBlooperByHand"]())
    with pytest.raises(ba.RuleSetError) as info:
        batch.compile(rules)
    assert [part_named(p) for p in info.value.problems] == ["follow"]
    assert str(info.value).startswith("follow: SaveTheBigBlooperByHand")
    # the one-game engine keeps playing it
    state = ba.new_game(rules, seed=3)
    while not state.is_over:
        state = state.apply(state.legal_moves()[-1])


def test_user_ranking_compiles_and_agrees(user_parts: dict[str, type]) -> None:
    rules = short_gamerules(ranking=user_parts["JokersBelowAce"]())
    check_exact("jokers-below-ace", tables_with_budget(rules, SMALL_BUDGET), 24, seed=6)


def test_rules_drawing_trump_before_the_deal_are_refused_naming_trump() -> None:
    rules = short_gamerules(deck=ba.rules.Deck(jokers=0), trump=ba.rules.TurnedBeforeDeal())
    with pytest.raises(ba.RuleSetError) as info:
        batch.compile(rules)
    assert [part_named(p) for p in info.value.problems] == ["trump"]
    assert str(info.value).startswith("trump: TurnedBeforeDeal draws trump")


# ---------------------------------------------------------- bad input

CHEAP = "vietnam-literal"
"""A preset quick to compile, for the tests of bad input."""


@pytest.mark.parametrize("what", [42, None, {"trump": "turn-up"}])
def test_compile_refuses_what_is_not_a_rule_set(what: Any) -> None:
    with pytest.raises(ba.RuleSetError, match="takes a RuleSet"):
        batch.compile(what)


def test_compile_refuses_an_unknown_variant_name() -> None:
    with pytest.raises(ba.UnknownVariantError):
        batch.compile("no-such-variant")


@pytest.mark.parametrize("n", [0, -1, 1.5, True])
def test_a_batch_of_no_games_is_refused(n: Any) -> None:
    with pytest.raises(ba.SetupError, match="at least one game"):
        batch.BatchGames(ba.variants.get(CHEAP), n)


@pytest.mark.parametrize("seed", [-1, 1.0, None])
def test_a_negative_or_fractional_seed_is_refused(seed: Any) -> None:
    with pytest.raises(ba.SetupError, match="seed"):
        batch.BatchGames(ba.variants.get(CHEAP), 3, seed)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    games = batch.BatchGames(ba.variants.get(CHEAP), 4, seed=9)
    legal = games.legal()
    assert legal.shape == (4, games.actions.size)
    good = legal.argmax(axis=1)
    games.step(good)
    legal = games.legal()
    before = (games.decisions, games.phase.copy(), games.to_act.copy(), games.scores.copy())
    actions = legal.argmax(axis=1)
    actions[2] = int(np.flatnonzero(~legal[2])[0])
    for bad in (actions, np.full(4, -1), np.full(4, games.actions.size), actions[:3], [0.5] * 4):
        with pytest.raises(ba.SetupError):
            games.step(bad)
        assert games.decisions == before[0]
        assert (games.phase == before[1]).all() and (games.to_act == before[2]).all()
        assert (games.scores == before[3]).all()
        assert (games.legal() == legal).all()
    assert all(len(r.moves) == 1 for r in games.records())
    games.step(legal.argmax(axis=1))  # the legal actions still play
    assert games.decisions == before[0] + 4


def test_records_of_a_batch_keeping_none_are_refused() -> None:
    games = batch.BatchGames(ba.variants.get(CHEAP), 2, seed=1, records=False)
    with pytest.raises(ba.SetupError, match="records"):
        games.records()
    assert batch.run(games).records is None


def test_a_batch_of_games_over_ignores_further_steps() -> None:
    games = batch.BatchGames(ba.variants.get(CHEAP), 3, seed=4)
    result = batch.run(games)
    assert (games.phase == batch.OVER).all() and (games.to_act == -1).all()
    assert not games.legal().any()
    games.step(np.zeros(3, dtype=int))
    assert games.decisions == result.decisions
    assert (games.scores == result.scores).all()


# ---------------------------------------------------------- determinism


def test_the_same_seed_gives_the_same_games() -> None:
    rules = ba.variants.get(CHEAP)
    first = batch.random_games(rules, 6, seed=11)
    again = batch.random_games(rules, 6, seed=11)
    other = batch.random_games(rules, 6, seed=12)
    assert first.records == again.records
    assert (first.scores == again.scores).all() and first.decisions == again.decisions
    assert first.records != other.records
    for record, scores in zip(first.records, first.scores.tolist()):
        *_, last = ba.replay(record)
        assert last.is_over and tuple(last.scores) == tuple(scores)


def test_games_without_records_play_the_same_games() -> None:
    rules = ba.variants.get(CHEAP)
    n = 7
    plain = batch.random_games(rules, n, seed=3, records=False)
    kept = batch.random_games(rules, n, seed=3)
    sides = batch.compile(rules).sides
    assert plain.records is None
    assert plain.scores.shape == (n, sides) == kept.scores.shape
    assert plain.decisions == kept.decisions == sum(len(r.moves) for r in kept.records)
    assert (plain.scores == kept.scores).all()
