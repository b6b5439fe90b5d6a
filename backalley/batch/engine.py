"""Many games in lock-step: :class:`BatchGames`.

Every game of a batch that is not over has one seat to act; a step takes one
action per game (the research adapters' action ids,
:class:`~backalley.adapters.encoding.Actions`) and moves every game on at
once.  Hands, tricks and the cards played are boolean arrays ``(games, ...,
54)``; the legal actions come from the compiled tables
(:mod:`backalley.batch.tables`): the bidding automaton's legal calls, the
declarer's trump choices, and the lead and follow parts' expressions
evaluated on every position at once.

Once a deal, a game asks the rule set's plan what its deal's context gives
(the trump choices, the first leader, the points, the next dealer, the cards
the opening shows).  The answers are remembered per the facts of the context
that the part says its method reads (``context_reads``; every fact the
batch knows of a deal when the part says nothing), so a deal's end costs a
few array operations and a lookup per distinct context.

Chance: each deal is dealt from a shuffle of the batch's own generator
(``numpy.random.Generator``, from the seed), kept as the game's deck orders,
so that :meth:`BatchGames.records` are :class:`~backalley.GameRecord` values
the one-game engine replays exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

import numpy as np

from backalley.batch import programs as prog
from backalley.batch.calls import outcome_of
from backalley.batch.tables import TRUMPS, Tables, compile
from backalley.cards import CARDS
from backalley.cardset import CardSet
from backalley.errors import RuleSetError, SetupError
from backalley.io.record import GameRecord
from backalley.moves import NameTrump
from backalley.rules.context import DealContext
from backalley.rules.ruleset import RuleSet

__all__ = ["BIDDING", "NAMING", "OVER", "PLAYING", "BatchGames"]

BIDDING, NAMING, PLAYING, OVER = 0, 1, 2, 3
"""A game's phase, as :attr:`BatchGames.phase` holds it."""

_POW = np.array([1 << i for i in range(54)], dtype=np.int64)
"""The bit of each card, to turn a row of 54 booleans into a bit set."""

Bools = np.ndarray[Any, np.dtype[np.bool_]]
Ints = np.ndarray[Any, np.dtype[np.intp]]
T = TypeVar("T")

_FIELD_BITS = {"deal_index": 8, "hand_size": 7, "dealer": 4, "trump": 3, "outcome": 22, "shown": 20}
"""The facts of a deal's context the batch keeps per game, and the bits each takes in a code."""


def _bits(rows: Bools) -> Ints:
    """Each row of 54 booleans as a bit set."""
    out: Ints = rows.astype(np.int64) @ _POW
    return out


class BatchGames:
    """``n`` games of one rule set, played in lock-step (see the module's description).

    - :attr:`phase` ``(n,)``: :data:`BIDDING`, :data:`NAMING`, :data:`PLAYING` or :data:`OVER`;
    - :attr:`to_act` ``(n,)``: the seat to act (-1 once the game is over);
    - :meth:`legal` ``(n, actions)``: the legal actions of each game;
    - :meth:`step` one action per game; :attr:`scores` ``(n, sides)``;
    - :meth:`records`: every game as a :class:`~backalley.GameRecord`.
    """

    def __init__(
        self,
        rules: RuleSet | Tables,
        n: int,
        seed: int = 0,
        *,
        records: bool = True,
    ) -> None:
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise SetupError(
                f"a batch holds at least one game: n must be a whole number >= 1, not {n!r}"
            )
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise SetupError(f"seed must be a whole number >= 0, not {seed!r}")
        tables = rules if isinstance(rules, Tables) else compile(rules)
        self.tables = t = tables
        self.n = n
        self.rng = np.random.default_rng(seed)
        p, s = t.players, t.sides
        self.actions = t.actions
        self._size = t.actions.size
        self._hand_size = np.array(t.hand_sizes, dtype=np.intp)
        self._first = np.array(t.first_bidders, dtype=np.intp)
        self._trump_base = t.actions.trump_base
        self._team = np.zeros((p, s), dtype=np.intp)
        self._team[np.arange(p), t.seat_teams] = 1
        self.keep_records = records
        self.decisions = 0
        """How many decisions (moves) the batch has played."""
        self.phase = np.zeros(n, dtype=np.intp)
        self.deal = np.zeros(n, dtype=np.intp)
        """Each game's deal number in the schedule (the deals scored so far)."""
        self.dealer = self.rng.integers(0, p, n).astype(np.intp)
        self.first_dealer = self.dealer.copy()
        self.to_act = np.zeros(n, dtype=np.intp)
        self.scores = np.zeros((n, s), dtype=np.int64)
        self.hands = np.zeros((n, p, 54), dtype=bool)
        self.dealt = np.zeros((n, p, 54), dtype=bool)
        self.trump = np.zeros(n, dtype=np.intp)
        self.turn_up = np.full(n, 54, dtype=np.intp)
        """Each deal's turn-up (54: none)."""
        self.shown = np.zeros((n, 54), dtype=bool)
        self.shown_id = np.zeros(n, dtype=np.intp)
        self.node = np.zeros(n, dtype=np.intp)
        self.outcome = np.zeros(n, dtype=np.intp)
        self.leader = np.zeros(n, dtype=np.intp)
        self.trick = np.zeros((n, 54), dtype=bool)
        self.trick_cards = np.zeros((n, p), dtype=np.intp)
        self.in_trick = np.zeros(n, dtype=np.intp)
        self.led = np.zeros(n, dtype=np.intp)
        self.best = np.zeros(n, dtype=np.intp)
        self.winner = np.zeros(n, dtype=np.intp)
        self.tricks_done = np.zeros(n, dtype=np.intp)
        self.tricks_won = np.zeros((n, p), dtype=np.intp)
        self.broken = np.zeros(n, dtype=bool)
        self.played = np.zeros((n, 54), dtype=bool)
        self.seat_played = np.zeros((n, p, 54), dtype=bool)
        self.board = np.zeros((n, p), dtype=bool)
        self.naming = np.zeros((n, self._size), dtype=bool)
        memory = t.memory
        self._shown_sets: list[CardSet] = memory.shown_sets
        self._shown_rows: list[Bools] = memory.shown_rows
        self._shown_ids: dict[int, int] = memory.shown_ids
        self._memo: dict[str, dict[Any, Any]] = memory.answers
        self._score_keys: dict[Hashable, int] = memory.score_keys
        self._score_dealt: list[bool] = memory.score_dealt
        self._log = np.zeros((n, 128), dtype=np.int16)
        self._logged = np.zeros(n, dtype=np.intp)
        self._decks: list[tuple[Ints, Ints]] = []
        self._deal_games(np.arange(n))

    # ------------------------------------------------- the deal's context

    def context(self, g: int) -> DealContext:
        """Game ``g``'s deal context as the parts see it at the start of the play
        (its outcome once the bidding is over, its trump once named)."""
        t = self.tables
        k = int(self.deal[g])
        outcome = t.calls.outcomes[int(self.outcome[g])] if self.phase[g] >= NAMING else None
        ctx = t.plan.deal_context(
            k, int(self.dealer[g]), t.hand_sizes[k], outcome, TRUMPS[int(self.trump[g])]
        )
        return ctx._replace(shown=self._shown_sets[int(self.shown_id[g])])

    def _codes(self, games: Ints, fields: frozenset[str]) -> Ints:
        """One number per game for the facts ``fields`` of its deal's context."""
        code = np.zeros(len(games), dtype=np.int64)
        for name, width in _FIELD_BITS.items():
            if name not in fields:
                continue
            if name == "deal_index":
                values = self.deal[games]
            elif name == "hand_size":
                values = self._hand_size[self.deal[games]]
            elif name == "dealer":
                values = self.dealer[games]
            elif name == "trump":
                values = self.trump[games]
            elif name == "outcome":
                values = self.outcome[games]
            else:
                values = self.shown_id[games]
            code = (code << width) | values
        return code

    def _ask(
        self,
        what: str,
        games: Ints,
        fields: frozenset[str],
        ask: Callable[[DealContext, int], T],  # (the context, the game's place in games)
        extra: Ints | None = None,
    ) -> list[T]:
        """Each game's answer of ``ask(ctx, i)`` (``i``: the game's place in
        ``games``), asked once per distinct ``fields`` of the context (and row
        of ``extra``), remembered under ``what``."""
        code = self._codes(games, fields)
        memo = self._memo.setdefault(what, {})
        if extra is not None:
            keys = np.column_stack([code, extra])
            unique, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
            labels: list[Any] = [tuple(row) for row in unique.tolist()]
        else:
            unique, first, inverse = np.unique(code, return_index=True, return_inverse=True)
            labels = unique.tolist()
        answers = []
        for label, at in zip(labels, first.tolist()):
            found = memo.get(label)
            if found is None:
                found = memo[label] = ask(self.context(int(games[at])), at)
            answers.append(found)
        return [answers[i] for i in inverse.reshape(-1).tolist()]

    # ------------------------------------------------------------- dealing

    def _deal_games(self, games: Ints) -> None:
        """Deal each of ``games`` its next deal (its deal number and dealer as set)."""
        t = self.tables
        plan = t.plan
        m = len(games)
        rows = np.arange(m)
        size = len(t.deck_cards)
        k = self.deal[games]
        dealer = self.dealer[games]
        h = self._hand_size[k]
        orders = t.deck_cards[self.rng.random((m, size)).argsort(axis=1)]
        if self.keep_records:
            self._decks.append((games.copy(), orders))
        seats = t.receiver[h, dealer]
        hands = np.zeros((m, t.players, 54), dtype=bool)
        r, q = np.nonzero(seats >= 0)
        hands[r, seats[r, q], orders[r, q]] = True
        discards = np.zeros((m, 54), dtype=bool)
        turn = np.full(m, 54, dtype=np.intp)
        form = t.opening
        if form.turns_up:
            at = np.arange(size)
            stock = at[None, :] >= (t.players * h)[:, None]
            candidates = stock & ~t.passes[orders]
            spot = np.where(candidates.any(axis=1), candidates.argmax(axis=1), size - 1)
            turn = orders[rows, spot]
            buried = stock & (at[None, :] < spot[:, None])
            br, bq = np.nonzero(buried)
            discards[br, orders[br, bq]] = True
            swap = t.swap[turn]
            held = hands & swap[:, None, :]
            for i in np.flatnonzero(held.any(axis=(1, 2)) & (spot < size - 1)).tolist():
                seat = int(np.flatnonzero(held[i].any(axis=1))[0])
                drawn = orders[i, size - 1] if form.draw_bottom else orders[i, spot[i] + 1]
                discards[i] |= held[i, seat]
                hands[i, seat] &= ~swap[i]
                hands[i, seat, drawn] = True
        self.hands[games] = hands
        self.dealt[games] = hands
        self.trump[games] = t.trump_of[k, dealer, turn]
        self.turn_up[games] = turn
        # the cards the opening shows (the trump part's left_in_stock, asked per context)
        self.phase[games] = BIDDING
        self.shown_id[games] = 0
        dbits = _bits(discards)
        shown = self._ask(
            "shown",
            games,
            t.reads("trump", "left_in_stock"),
            lambda ctx, i: plan.shown(ctx, None if turn[i] == 54 else int(turn[i]), int(dbits[i])),
            np.column_stack([turn, dbits]),
        )
        ids = np.array([self._shown_id(cards) for cards in shown], dtype=np.intp)
        self.shown_id[games] = ids
        self.shown[games] = np.array(self._shown_rows)[ids]
        nodes = t.roots[h, self._first[dealer]]
        self.node[games] = nodes
        self.to_act[games] = t.calls.speaker[nodes]
        self.in_trick[games] = 0
        self.tricks_done[games] = 0
        self.tricks_won[games] = 0
        self.broken[games] = False
        self.played[games] = False
        self.seat_played[games] = False
        self.trick[games] = False
        self.board[games] = False

    def _shown_id(self, cards: CardSet) -> int:
        found = self._shown_ids.get(int(cards))
        if found is None:
            found = self._shown_ids[int(cards)] = len(self._shown_sets)
            self._shown_sets.append(cards)
            self._shown_rows.append(((int(cards) >> np.arange(54)) & 1).astype(bool))
        return found

    # --------------------------------------------------------------- legal

    @property
    def over(self) -> Bools:
        """Which games are over."""
        out: Bools = self.phase == OVER
        return out

    def legal(self) -> Bools:
        """``(n, actions)``: each game's legal actions (none once it is over)."""
        out = np.zeros((self.n, self._size), dtype=bool)
        phase = self.phase
        bidding = np.flatnonzero(phase == BIDDING)
        if len(bidding):
            out[bidding] = self.tables.calls.legal[self.node[bidding]]
        naming = np.flatnonzero(phase == NAMING)
        if len(naming):
            out[naming] = self.naming[naming]
        playing = np.flatnonzero(phase == PLAYING)
        if len(playing):
            out[playing, :54] = self.legal_cards(playing)
        return out

    def legal_cards(self, games: Ints) -> Bools:
        """``(len(games), 54)``: the cards the seat to play of each of
        ``games`` (all playing) may play: the lead or follow part's
        expressions, evaluated."""
        t = self.tables
        out = np.zeros((len(games), 54), dtype=bool)
        leading = self.in_trick[games] == 0
        for part, programs, mine in (
            ("lead", t.lead, np.flatnonzero(leading)),
            ("follow", t.follow, np.flatnonzero(~leading)),
        ):
            if not len(mine):
                continue
            g = games[mine]
            trump = self.trump[g]
            situation = trump if part == "lead" else trump * 54 + self.led[g]
            for template, where in programs.groups(situation):
                env = self._env(g[where], programs.params[situation[where]], template)
                out[mine[where]] = prog.cards(template, env)
        seat = self.to_act[games]
        empty = ~out.any(axis=1)
        if empty.any():
            hand = self.hands[games, seat]
            stuck = empty & hand.any(axis=1)
            if stuck.any():
                i = int(np.flatnonzero(stuck)[0])
                part = "lead" if leading[i] else "follow"
                raise RuleSetError(
                    [
                        f"{part}: {type(getattr(t.rules, part)).__name__} leaves seat {seat[i]} "
                        "nothing to play from a hand that is not empty"
                    ]
                )
        return out

    def _env(self, g: Ints, params: Bools, template: prog.Template) -> prog.Env:
        """The positions of ``g`` (their seat to act) for ``template``: only the sets it reads."""
        t = self.tables
        uses = _uses(template)
        seat = self.to_act[g]
        nothing: Any = None
        return prog.Env(
            params=params,
            hand=self.hands[g, seat] if "hand" in uses else nothing,
            trick=self.trick[g] if "trick" in uses else nothing,
            played=self.played[g] if "played" in uses else nothing,
            shown=self.shown[g] if "shown" in uses else nothing,
            seat_played=self.seat_played[g, seat] if "seat-played" in uses else nothing,
            broken=self.broken[g] if "broken" in uses else nothing,
            first_trick=(self.tricks_done[g] == 0) if "first-trick" in uses else nothing,
            board_bidder=self.board[g, seat] if "board-bidder" in uses else nothing,
            opponent=(
                t.seat_teams[seat] != t.seat_teams[self.leader[g]]
                if "opponent" in uses
                else nothing
            ),
            strength=t.strength[self.trump[g]] if "strength" in uses else nothing,
            beats=(
                t.beats[self.trump[g], self.best[g]] & (self.in_trick[g] > 0)[:, None]
                if "beats" in uses
                else nothing
            ),
        )

    # ---------------------------------------------------------------- step

    def step(self, actions: Sequence[int] | np.ndarray[Any, Any]) -> None:
        """Play one action in each game that is not over (``actions[i]`` for
        game ``i``; ignored for a game that is over).  An action that is not
        legal raises :class:`~backalley.SetupError` and changes nothing."""
        acts = np.asarray(actions)
        if acts.shape != (self.n,) or not np.issubdtype(acts.dtype, np.integer):
            raise SetupError(
                f"step takes one whole-number action per game ({self.n}), not {actions!r}"
            )
        acts = acts.astype(np.intp)
        live = np.flatnonzero(self.phase != OVER)
        if not len(live):
            return
        a = acts[live]
        inside = (a >= 0) & (a < self._size)
        legal = self.legal()
        ok = inside & legal[live, np.clip(a, 0, self._size - 1)]
        if not ok.all():
            first = int(live[np.flatnonzero(~ok)[0]])
            raise SetupError(
                f"illegal action in {int((~ok).sum())} game(s), the first game {first}: "
                f"{int(acts[first])} is not among its legal actions "
                f"{np.flatnonzero(legal[first]).tolist()}"
            )
        self._apply(live, a)

    def step_unchecked(self, games: Ints, actions: Ints) -> None:
        """:meth:`step` for ``games`` (each not over, in increasing order) with
        actions known to be legal (taken from :meth:`legal`): no check."""
        self._apply(games, actions)

    def _apply(self, live: Ints, a: Ints) -> None:
        self.decisions += len(live)
        if self.keep_records:
            at = self._logged[live]
            if len(at) and at.max() >= self._log.shape[1]:
                self._log = np.concatenate([self._log, np.zeros_like(self._log)], axis=1)
            self._log[live, at] = a
            self._logged[live] = at + 1
        phase = self.phase[live]
        again: list[Ints] = []
        bidding = phase == BIDDING
        if bidding.any():
            self._call(live[bidding], a[bidding], again)
        naming = phase == NAMING
        if naming.any():
            self._name_trump(live[naming], a[naming])
        playing = phase == PLAYING
        if playing.any():
            self._play(live[playing], a[playing], again)
        if again:
            self._deal_games(np.concatenate(again))

    # ------------------------------------------------------------- bidding

    def _call(self, games: Ints, actions: Ints, again: list[Ints]) -> None:
        t = self.tables
        after = t.calls.step(self.node[games], actions).astype(np.intp)
        open_ = after >= 0
        g_open = games[open_]
        self.node[g_open] = after[open_]
        self.to_act[g_open] = t.calls.speaker[after[open_]]
        if open_.all():
            return
        over = games[~open_]
        outcome = outcome_of(after[~open_])
        thrown = t.calls.thrown_in[outcome]
        if thrown.any():
            redeal = over[thrown]
            self.dealer[redeal] = t.redealer[self.dealer[redeal]]
            again.append(redeal)
            over, outcome = over[~thrown], outcome[~thrown]
        if not len(over):
            return
        self.outcome[over] = outcome
        self.board[over] = t.calls.board[outcome]
        self.phase[over] = NAMING  # the context has its outcome from here on
        plan = t.plan
        choices = self._ask(
            "choices", over, t.reads("trump", "choices"), lambda ctx, i: plan.trump_choices(ctx)
        )
        names = np.array([bool(c) for c in choices], dtype=bool)
        if names.any():
            named = over[names]
            rows = np.zeros((len(named), self._size), dtype=bool)
            for i, options in enumerate(c for c in choices if c):
                for suit in options:
                    rows[i, self.actions.id_of(NameTrump(suit))] = True
            self.naming[named] = rows
            declarer = t.calls.declarer[self.outcome[named]]
            if (declarer < 0).any():
                raise RuleSetError(
                    [
                        f"trump and bidding: {type(t.rules.trump).__name__} has the declarer "
                        f"name trump, but {type(t.rules.bidding).__name__}.outcome named no "
                        "declarer"
                    ]
                )
            self.to_act[named] = declarer
        plays = over[~names]
        if len(plays):
            self._begin_play(plays)

    def _name_trump(self, games: Ints, actions: Ints) -> None:
        self.trump[games] = actions - self._trump_base
        self._begin_play(games)

    def _begin_play(self, games: Ints) -> None:
        t = self.tables
        plan = t.plan
        leader = self._ask(
            "first_leader",
            games,
            t.reads("lead", "first_leader"),
            lambda ctx, i: plan.first_leader(ctx),
        )
        first = np.array(leader, dtype=np.intp)
        self.phase[games] = PLAYING
        self.leader[games] = first
        self.to_act[games] = first

    # ---------------------------------------------------------------- play

    def _play(self, games: Ints, cards: Ints, again: list[Ints]) -> None:
        t = self.tables
        players = t.players
        seat = self.to_act[games]
        self.hands[games, seat, cards] = False
        self.trick[games, cards] = True
        self.trick_cards[games, seat] = cards
        first = self.in_trick[games] == 0
        best = self.best[games]
        ahead = first | t.beats[self.trump[games], best, cards]
        self.led[games] = np.where(first, cards, self.led[games])
        self.best[games] = np.where(ahead, cards, best)
        self.winner[games] = np.where(ahead, seat, self.winner[games])
        count = self.in_trick[games] + 1
        self.in_trick[games] = count
        self.to_act[games] = (seat + 1) % players
        complete = count == players
        if complete.any():
            self._end_trick(games[complete], again)

    def _end_trick(self, games: Ints, again: list[Ints]) -> None:
        t = self.tables
        breaks = t.breaks
        open_ = np.flatnonzero(~self.broken[games])
        if len(open_):
            g = games[open_]
            situation = self.trump[g] * 54 + self.led[g]
            for template, where in breaks.groups(situation):
                gw = g[where]
                env = self._env(gw, breaks.params[situation[where]], template)
                self.broken[gw] = prog.holds(template, env)
        won = self.winner[games]
        self.tricks_won[games, won] += 1
        self.played[games] |= self.trick[games]
        for s in range(t.players):
            self.seat_played[games, s, self.trick_cards[games, s]] = True
        self.trick[games] = False
        self.in_trick[games] = 0
        self.leader[games] = won
        self.to_act[games] = won
        done = self.tricks_done[games] + 1
        self.tricks_done[games] = done
        over = done == self._hand_size[self.deal[games]]
        if over.any():
            self._end_deal(games[over], again)

    def _end_deal(self, games: Ints, again: list[Ints]) -> None:
        t = self.tables
        plan = t.plan
        tricks = self.tricks_won[games] @ self._team
        keys = self._ask("score_key", games, t.reads("scoring", "score_key"), self._score_id)
        ids = np.array(keys, dtype=np.intp)
        dealt = np.array([self._score_dealt[i] for i in keys], dtype=bool)
        points = np.zeros((len(games), t.sides), dtype=np.int64)
        if dealt.any():  # points that read the hands as dealt: asked game by game
            for i in np.flatnonzero(dealt).tolist():
                g = int(games[i])
                points[i] = plan.score(
                    self.context(g), tuple(tricks[i].tolist()), _bits(self.dealt[g]).tolist()
                )
        rest = np.flatnonzero(~dealt)
        if len(rest):
            sub = games[rest]
            found = self._ask(
                "points",
                sub,
                frozenset(),
                lambda ctx, i: plan.score(
                    ctx, tuple(tricks[rest[i]].tolist()), _bits(self.dealt[sub[i]]).tolist()
                ),
                np.column_stack([ids[rest], tricks[rest]]),
            )
            points[rest] = found
        self.scores[games] += points
        k = self.deal[games] + 1
        self.deal[games] = k
        finished = k >= t.deals
        if finished.any():
            self.phase[games[finished]] = OVER
            self.to_act[games[finished]] = -1
        going = games[~finished]
        if not len(going):
            return
        # the next dealer, asked with the deal's context (its deal number as played)
        self.deal[going] -= 1
        pts = points[~finished]
        dealer = self._ask(
            "dealer_after",
            going,
            t.reads("dealer", "dealer_after"),
            lambda ctx, i: plan.dealer_after(ctx, tuple(pts[i].tolist())),
            pts,
        )
        self.deal[going] += 1
        self.dealer[going] = dealer
        again.append(going)

    def _score_id(self, ctx: DealContext, i: int) -> int:
        """The number of the scoring part's key for ``ctx`` (and whether its
        points read the hands as dealt)."""
        t = self.tables
        key = t.score_key(ctx)
        found = self._score_keys.get(key)
        if found is None:
            found = self._score_keys[key] = len(self._score_dealt)
            self._score_dealt.append(bool(t.score_reads_dealt(ctx)))
        return found

    # ------------------------------------------------------------- records

    def records(self) -> tuple[GameRecord, ...]:
        """Every game as a :class:`~backalley.GameRecord` (the moves so far)
        that :func:`backalley.replay` replays."""
        if not self.keep_records:
            raise SetupError("this batch keeps no records (records=False)")
        decks: list[list[tuple[str, ...]]] = [[] for _ in range(self.n)]
        text = [str(card) for card in CARDS]
        for games, orders in self._decks:
            for g, order in zip(games.tolist(), orders.tolist()):
                decks[g].append(tuple(text[c] for c in order))
        move_of = self.actions.move_of
        moves_of: dict[int, Any] = {}
        out = []
        for g in range(self.n):
            moves = []
            for a in self._log[g, : self._logged[g]].tolist():
                move = moves_of.get(a)
                if move is None:
                    move = moves_of[a] = move_of(a)
                moves.append(move)
            out.append(
                GameRecord(
                    rules=self.tables.rules,
                    first_dealer=int(self.first_dealer[g]),
                    decks=tuple(decks[g]),
                    moves=tuple(moves),
                )
            )
        return tuple(out)


_USES: dict[prog.Template, frozenset[str]] = {}


def _uses(template: prog.Template) -> frozenset[str]:
    """What a template reads of the positions (kept per template)."""
    found = _USES.get(template)
    if found is None:
        names: set[str] = set()

        def visit(node: Any) -> None:
            if isinstance(node, tuple) and node:
                op = node[0]
                if op in ("source", "fact"):
                    names.add(node[1].value)
                elif op in ("highest", "lowest"):
                    names.add("strength")
                elif op == "heads":
                    names.add("beats")
                for item in node[1:]:
                    visit(item)

        visit(template)
        found = _USES[template] = frozenset(names)
    return found
