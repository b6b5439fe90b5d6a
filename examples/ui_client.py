"""A user interface's loop around backalley: one deal between four clients.

The *server* holds the full :class:`backalley.GameState` (every hand, the
stock, the seed).  Each *client* - a screen in front of one player - only
ever receives its seat's :class:`backalley.PlayerView`, as JSON text, so it
cannot show (or cheat with) another player's cards.  From that view alone the
client knows what it may play, and why anything else is refused, without
asking the server.  It sends its move back as text; the server checks it
again (``state.check(move, seat=...)``) before applying it.

Run it: ``python examples/ui_client.py [seed]``.
"""

from __future__ import annotations

import random
import sys

import backalley as ba


class Server:
    """Holds the game; talks to clients in JSON text and move text only."""

    def __init__(self, rules: ba.RuleSet, seed: int) -> None:
        self.state = ba.new_game(rules, seed=seed)

    def view_for(self, seat: int) -> str:
        """What ``seat`` may know, as JSON text (no other hand, no stock, no seed)."""
        return ba.to_json(self.state.view(seat))

    def submit(self, seat: int, text: str) -> str | None:
        """Apply ``seat``'s move; ``None`` when accepted, else why it was refused."""
        try:
            move = ba.parse_move(text)
            self.state.check(move, seat=seat)  # the server never trusts a client
        except ba.NotationError as err:
            return f"not a move: {err}"
        except ba.IllegalMoveError as err:
            return f"{err.reason.name}: {err}"
        self.state = self.state.apply(move)
        return None


class Client:
    """One player's screen: it sees only its view."""

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed * 10 + seat)

    def refused_card(self, view: ba.PlayerView) -> tuple[str, ba.IllegalMoveError] | None:
        """A card of the hand the player may not play now, and why (as a UI shows a click on it)."""
        for card in view.hand:
            try:
                view.check(ba.Play(card))
            except ba.IllegalMoveError as err:
                return f"play {card}", err
        return None

    def choose(self, view_json: str) -> str:
        """The move to send, as text, from the view received as JSON text."""
        view = ba.from_json(view_json, ba.PlayerView)
        legal = view.legal_moves()  # the same answer the server would give
        return str(self.rng.choice(legal))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or (args and not args[0].lstrip("-").isdigit()):
        print(
            f"usage: python examples/ui_client.py [SEED]: a seed is a whole number, not {args!r}",
            file=sys.stderr,
        )
        return 2
    seed = int(args[0]) if args else 2024
    server = Server(ba.variants.GAMERULES, seed)
    clients = [Client(seat, seed) for seat in range(4)]
    state = server.state
    print(
        f"Deal 1: {state.hand_size} cards each, turn-up {state.turn_up}, seat {state.dealer} deals."
    )

    # a client that is not to act is told so by the server
    waiting = (state.to_act + 1) % 4
    print(f"  seat {waiting} sends 'bid 1' out of turn -> {server.submit(waiting, 'bid 1')}")

    shown = False
    while server.state.deals_played == 0:
        before = server.state
        seat = before.to_act
        assert seat is not None
        view_json = server.view_for(seat)  # all the client ever receives
        client = clients[seat]
        if not shown and before.phase is ba.Phase.PLAYING:
            refused = client.refused_card(ba.from_json(view_json, ba.PlayerView))
            if refused is not None:
                text, err = refused
                print(f"  seat {seat} tries {text!r}: refused, {err.reason.name}: {err.message}")
                print(f"  (sent anyway, the server says -> {server.submit(seat, text)})")
                shown = True
        text = client.choose(view_json)
        refusal = server.submit(seat, text)
        assert refusal is None, refusal  # a move from legal_moves() is always accepted
        after = server.state
        if before.phase is ba.Phase.BIDDING and after.phase is ba.Phase.PLAYING:
            print(f"  calls {[str(b) for b in after.bids]}; seat {after.to_act} leads")
        if before.phase is ba.Phase.PLAYING and len(before.trick) == 3:
            plays = " ".join(
                f"{s}:{c}" for s, c in (*before.trick, (seat, ba.parse_move(text).card))
            )
            won = (
                f"seat {after.tricks[-1].winner} wins"
                if not after.deals_played
                else "the deal is scored"
            )
            print(f"  trick {len(before.tricks) + 1}: {plays} -> {won}")

    result = server.state.deal_results[0]
    print(
        f"Deal over: tricks per team {list(result.tricks)}, points {list(result.points)}, "
        f"scores {list(server.state.scores)}."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
