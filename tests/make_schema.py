"""Build ``backalley/io/schema/backalley.schema.json`` (JSON Schema, draft 2020-12).

The schema is written out by hand here, from the shapes that
``backalley/io/serialize/``, ``backalley/io/record.py`` and ``backalley/io/vectors.py``
write and read (format version 2: a state is its game's start and moves,
deal results are objects everywhere, a view carries the facts worked out
from it, its legal moves and an answer for each card of its hand and for
each call the bidding knows).  It introspects the engine only for the list of registered
rule parts (a new rule with the parameters of an existing one, or none, needs
no edit here); so a change to the document format shows up as a failing test (``tests/io/test_schema.py`` compares
the schema with the engine's policy classes and with this script's output)
rather than as a silent change of the published schema.

Run ``python tests/make_schema.py`` after editing, and commit both files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

TARGET = (
    Path(__file__).resolve().parent.parent / "backalley" / "io" / "schema" / "backalley.schema.json"
)
FORMAT_VERSION = 2
MAX_SEAT = 7  # a cutthroat game seats at most 8 players

CARD_RE = "(?:[2-9TJQKA][CDHS]|BJ|LJ)"
CALL_RE = "(?:pass|board|counter(?: x(?:[2-9]|[1-9][0-9]))?|bid (?:0|[1-9][0-9]*))"

Schema = dict[str, Any]


def ref(name: str) -> Schema:
    return {"$ref": f"#/$defs/{name}"}


def nullable(schema: Schema) -> Schema:
    """``schema`` or null.  Plain leaves get a ``type`` list rather than an
    ``anyOf`` (``pattern``, ``minimum`` and ``maximum`` ignore a null), which
    reads as simply and validates faster."""
    if set(schema) <= {"type", "pattern", "minimum", "maximum", "description"} and isinstance(
        schema.get("type"), str
    ):
        return {**schema, "type": [schema["type"], "null"]}
    if set(schema) == {"enum"}:
        return {"enum": [*schema["enum"], None]}
    return {"anyOf": [schema, {"type": "null"}]}


CARD: Schema = {"type": "string", "pattern": f"^{CARD_RE}$"}
CALL: Schema = {"type": "string", "pattern": f"^{CALL_RE}$"}
MOVE: Schema = {"type": "string", "pattern": f"^(?:{CALL_RE}|trump (?:[CDHS]|NT)|play {CARD_RE})$"}
# Arrays of cards and moves hold these leaves inline rather than a "$ref" to
# the "card" and "move" definitions: the same text, and validation is twice as fast.
SUIT: Schema = {"enum": ["C", "D", "H", "S"]}


def integer(minimum: int | None = None, maximum: int | None = None) -> Schema:
    out: Schema = {"type": "integer"}
    if minimum is not None:
        out["minimum"] = minimum
    if maximum is not None:
        out["maximum"] = maximum
    return out


def array(items: Schema, **more: Any) -> Schema:
    return {"type": "array", "items": items, **more}


def obj(properties: dict[str, Schema], required: list[str] | None = None, **more: Any) -> Schema:
    """A closed object: no keys but ``properties``; ``required`` defaults to all of them."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
        **more,
    }


def enum(*values: Any, description: str | None = None) -> Schema:
    out: Schema = {"enum": list(values)}
    if description:
        out["description"] = description
    return out


def document(kind: str) -> dict[str, Schema]:
    """The optional ``format``/``version`` keys of a top-level document."""
    return {
        "format": {"const": f"backalley/{kind}"},
        "version": {"const": FORMAT_VERSION},
    }


BOOL: Schema = {"type": "boolean"}
INT: Schema = {"type": "integer"}
SEED: Schema = {
    **integer(-(2**64) + 1, 2**64 - 1),
    "description": "A seed: smaller than 2**64 in size.",
}
RANK_LETTERS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
ALL_PASS = enum("redeal-next-dealer", "redeal-same-dealer", "play-for-overtricks")
FIRST_BIDDER = enum("left-of-dealer", "dealer")
NON_NEGATIVE = integer(0)
RAINBOW: Schema = nullable(
    obj(
        {"hand_size": integer(1), "points": INT},
        description="A bonus per player dealt every suit on the deal of `hand_size` cards.",
    )
)
HAND_SIZE_MULTIPLIERS: Schema = array(
    obj(
        {"hand_size": integer(1), "times": integer(1)},
        description="On the deal of `hand_size` cards, contract points count `times` over.",
    )
)
HAND_SIZE_RATES: Schema = array(
    obj(
        {
            "hand_size": integer(1),
            "per_bid_trick": nullable(INT),
            "per_overtrick": nullable(INT),
            "set_per_bid_trick": nullable(INT),
            "per_board_trick": nullable(INT),
            "set_per_board_trick": nullable(INT),
        },
        required=["hand_size"],
        description="On the deal of `hand_size` cards, each rate given replaces the "
        "scoring's own (null: the scoring's own).",
    )
)

# The rule parts: part -> tag -> parameter -> schema, in the
# order ``RuleSet.parts()`` and ``Part.options()`` write them.
PARTS: dict[str, dict[str, dict[str, Schema]]] = {
    "deck": {
        "deck": {
            "ranks": array(
                {"anyOf": [enum(*RANK_LETTERS), integer(2, 14)]},
                minItems=1,
                uniqueItems=True,
                description="The plain ranks kept, written as letters (2-9, T, J, Q, K, A), "
                "lowest first; numbers 2..14 are read too.",
            ),
            "jokers": enum(0, 2, description="0, or 2: the Big and the Little Blooper."),
        }
    },
    "seating": {
        "partnerships": {},
        "cutthroat": {"players": integer(2, MAX_SEAT + 1)},
    },
    "schedule": {
        "schedule": {"hand_sizes": array(integer(1), minItems=1)},
    },
    "dealer": {
        "dealer": {"next_dealer": enum("clockwise", "losing-team")},
    },
    "trump": {
        "turn-up": {
            "joker_turn_up": enum(
                "no-trump-swap-other-joker", "turn-next-card", "no-trump-other-joker-stays"
            ),
            "swap_draw": enum("top", "bottom"),
        },
        "fixed": {"suit": ref("suit")},
        "declarer-names": {"allow_no_trump": BOOL},
        "none": {},
    },
    "bidding": {
        "once-around": {
            "pass_allowed": BOOL,
            "min_bid": NON_NEGATIVE,
            "max_bid_below_hand": NON_NEGATIVE,
            "board": BOOL,
            "board_claims": enum("any-player", "opponents-only"),
            "board_multipliers": array(integer(1), minItems=1),
            "board_multiplier": enum("all-claims", "own-highest-claim"),
            "all_pass": ALL_PASS,
            "first_bidder": FIRST_BIDDER,
            "hook": BOOL,
        },
        "auction": {
            "min_bid": NON_NEGATIVE,
            "counters": NON_NEGATIVE,
            "all_pass": ALL_PASS,
            "first_bidder": FIRST_BIDDER,
            "speakers": enum("each-player", "one-per-team"),
            "counter_style": enum("step", "direct", "multiple-bid"),
            "multiple": enum("at-least", "exact"),
            "counter_holder": enum("announcer", "countering-side"),
        },
    },
    "lead": {
        "lead": {
            "first_lead": enum("highest-bidder", "declarer", "left-of-dealer"),
            "trump_lead": enum("after-broken-or-board", "after-broken", "any-time"),
            "trump_broken_by": enum("any-trump", "discard"),
            "first_trick_trump_lead": enum("as-later-tricks", "never"),
            "board_tie_lead": enum("last-board", "first-board"),
            "trump_broken_for": enum("anyone", "the-leader"),
        }
    },
    "follow": {
        "follow": {
            "blooper_lead_forcing": BOOL,
            "blooper_forced": enum("all-others", "opponents"),
            "little_blooper_forcing": BOOL,
            "little_lead": enum("little-joker", "lowest-trump"),
            "trump_play": enum("free-when-void", "not-until-broken"),
            "trump_broken_when": enum("completed-tricks", "any-trump-so-far"),
            "must_trump": BOOL,
            "must_head": BOOL,
        }
    },
    "scoring": {
        "contract": {
            "per_bid_trick": INT,
            "per_overtrick": INT,
            "set_per_bid_trick": INT,
            "per_board_trick": INT,
            "set_per_board_trick": INT,
            "rainbow": RAINBOW,
            "hand_size_multipliers": HAND_SIZE_MULTIPLIERS,
            "hand_size_rates": HAND_SIZE_RATES,
        },
        "exact-bid": {
            "bonus": NON_NEGATIVE,
            "penalty": NON_NEGATIVE,
            "rainbow": RAINBOW,
            "hand_size_multipliers": HAND_SIZE_MULTIPLIERS,
        },
        "auction": {
            "per_trick": INT,
            "set_per_trick": INT,
            "defenders_score": enum("nothing", "all-tricks", "own-announcement"),
            "rainbow": RAINBOW,
        },
    },
    "end": {
        "end": {"tie_break": enum("draw")},
    },
}


def _registered_parts() -> dict[str, dict[str, dict[str, Schema]]]:
    """The hand-written table, extended to every registered rule part: a
    class with the same parameters as a described one of its part (a
    subclass adding a rule, such as ``must-trump``) shares its description; a
    class without parameters needs none."""
    import attrs

    from backalley.rules.registry import PART_NAMES, registered_parts

    out: dict[str, dict[str, dict[str, Schema]]] = {}
    registry = registered_parts()
    for part in PART_NAMES:
        described = PARTS.get(part, {})
        table: dict[str, dict[str, Schema]] = {}
        for tag, cls in registry[part].items():
            if not cls.__module__.startswith("backalley."):
                continue  # the schema describes the library's own rules
            names = [a.name for a in attrs.fields(cls)]
            if tag in described:
                table[tag] = described[tag]
                continue
            same = [params for params in described.values() if sorted(params) == sorted(names)]
            if not names:
                table[tag] = {}
            elif same:
                table[tag] = {name: same[0][name] for name in names}
            else:
                raise SystemExit(f"describe the parameters of the {part} rule {tag!r} in PARTS")
        out[part] = table
    return out


PARTS = _registered_parts()

REASONS = [
    "NOT_A_MOVE",
    "GAME_OVER",
    "NOT_YOUR_TURN",
    "ALREADY_BID",
    "WRONG_PHASE",
    "PASS_NOT_ALLOWED",
    "BID_TOO_LOW",
    "BID_TOO_HIGH",
    "BID_NOT_HIGHER",
    "BID_MAKES_TOTAL",
    "BOARD_NOT_ALLOWED",
    "BOARD_BY_PARTNER",
    "BOARD_LIMIT",
    "COUNTER_NOT_ALLOWED",
    "COUNTER_LIMIT",
    "NOT_DECLARER",
    "NO_TRUMP_NOT_ALLOWED",
    "NOT_IN_DECK",
    "NOT_IN_HAND",
    "TRUMP_NOT_BROKEN",
    "MUST_FOLLOW_SUIT",
    "MUST_PLAY_HIGHEST_TRUMP",
    "MUST_PLAY_LOWEST_TRUMP",
    "MUST_TRUMP",
    "MAY_NOT_TRUMP",
    "MUST_HEAD_TRICK",
    "HOUSE_RULE",
    "RESULTS_DIFFER",
]


def policy_defs() -> dict[str, Schema]:
    defs: dict[str, Schema] = {}
    for part, tags in PARTS.items():
        for tag, params in tags.items():
            defs[f"{part}:{tag}"] = obj(
                {"type": {"const": tag}, **params},
                description=f"The {tag!r} {part} policy, as written (every parameter).",
            )
        defs[f"policy:{part}"] = {
            "description": f"The {part} part as written: a table tagged by `type`.",
            "type": "object",
            "required": ["type"],
            "properties": {"type": enum(*tags)},
            "allOf": [
                {
                    "if": {"required": ["type"], "properties": {"type": {"const": tag}}},
                    "then": ref(f"{part}:{tag}"),
                }
                for tag in tags
            ],
        }
        # As read (house rules, records): parameters may be left out (they keep
        # their defaults, or the base's); without `type` the part keeps the
        # base's type, so any parameter of the part may appear.
        union: dict[str, Schema] = {}
        for params in tags.values():
            for name, schema in params.items():
                assert union.get(name, schema) == schema, f"{part}.{name} differs between types"
                union[name] = schema
        defs[f"override:{part}"] = {
            "description": f"The {part} part as read: `type` and any of its parameters; "
            "without `type`, parameters of the base's (or default) type.",
            "type": "object",
            "properties": {"type": enum(*tags)},
            "allOf": [
                {
                    "if": {"required": ["type"], "properties": {"type": {"const": tag}}},
                    "then": obj({"type": {"const": tag}, **params}, required=["type"]),
                }
                for tag, params in tags.items()
            ]
            + [{"if": {"not": {"required": ["type"]}}, "then": obj(union, required=[])}],
        }
    return defs


def policy_document() -> Schema:
    return {
        "description": "One policy as a top-level document (backalley.to_json(policy)).",
        "anyOf": [
            obj({**document("policy"), "type": {"const": tag}, **params}, required=["type"])
            for tags in PARTS.values()
            for tag, params in tags.items()
        ],
    }


def build() -> Schema:
    seat = integer(0, MAX_SEAT)
    sides = {"minItems": 2, "maxItems": MAX_SEAT + 1}
    cards = array(CARD, uniqueItems=True)
    ruleset_parts = {part: ref(f"policy:{part}") for part in PARTS}
    override_parts = {part: ref(f"override:{part}") for part in PARTS}
    name = nullable({"type": "string"})
    deal_result = {
        "number": integer(1),
        "dealer": seat,
        "hand_size": integer(1),
        "turn_up": nullable(CARD),
        "trump": nullable(SUIT),
        "bids": array(nullable(CALL), **sides),
        "contracts": array(nullable(ref("contract")), **sides),
        "declarer": nullable(seat),
        "tricks": array(NON_NEGATIVE, **sides),
        "points": array(INT, **sides),
    }
    contract = {
        "tricks": NON_NEGATIVE,
        "board": BOOL,
        "multiplier": integer(1),
        "declarer": nullable(seat),
    }
    defs: dict[str, Schema] = {
        "card": {
            "description": "A card in canonical notation: rank (2-9, T, J, Q, K, A) then suit "
            "(C, D, H, S), or a joker: BJ (Big Blooper), LJ (Little Blooper).",
            **CARD,
        },
        "suit": {"description": "A suit letter.", **SUIT},
        "call": {
            "description": "A bidding call in canonical text.",
            **CALL,
        },
        "move": {
            "description": "A move in canonical text: pass, bid N, board, counter, "
            "counter xK, trump X (X one of C D H S, or NT), play QS.",
            **MOVE,
        },
        "phase": enum("bidding", "naming-trump", "playing", "game-over"),
        "reason": enum(*REASONS, description="The name of a backalley.Reason member."),
        **policy_defs(),
        "ruleset": obj(
            {"name": name, **ruleset_parts},
            description="A rule set as written: its name (a label) and every part.",
        ),
        "ruleset_input": obj(
            {
                "name": name,
                "base": {"type": "string", "minLength": 1, "description": "A registered variant."},
                **override_parts,
            },
            required=[],
            description="A rule set as read (rule set documents, records, house-rules "
            "files): parts left out keep their defaults, or the `base` variant's.",
        ),
        "contract": obj(contract, description="One side's contract."),
        "deal_result": obj(deal_result, description="The record of one scored deal."),
        "trick": obj(
            {
                "leader": seat,
                "cards": array(CARD, minItems=2, maxItems=MAX_SEAT + 1, uniqueItems=True),
                "winner": seat,
            },
            description="A completed trick: who led, the cards in play order, who won.",
        ),
        "state": obj(
            {
                **document("state"),
                "rules": ref("ruleset"),
                "seed": SEED,
                "first_dealer": seat,
                "decks": array(array(CARD, minItems=1, uniqueItems=True)),
                "moves": array(MOVE),
            },
            required=["rules", "seed", "first_dealer", "decks", "moves"],
            description="A full-information game state (backalley.GameState) as the game "
            "that reaches it: the rule set, the seed, the first dealer, the deck orders that "
            "did not come from the seed (one per deal dealt, thrown-in deals included, while "
            "there are any) and every move since the game began. Loading starts "
            "backalley.new_game(rules, seed=seed, dealer=first_dealer, decks=decks) and "
            "applies each move.",
        ),
        "card_answer": obj(
            {
                "card": CARD,
                "playable": BOOL,
                "reason": nullable(ref("reason")),
                "message": nullable({"type": "string"}),
            },
            description="Whether the seat may play one card of its hand now; if not, the "
            "rule that refuses it (a backalley.Reason name) and why, as a sentence.",
        ),
        "call_answer": obj(
            {
                "call": CALL,
                "legal": BOOL,
                "reason": nullable(ref("reason")),
                "message": nullable({"type": "string"}),
            },
            description="Whether the seat may make one call the bidding knows now; if not, "
            "the rule that refuses it (a backalley.Reason name) and why, as a sentence.",
        ),
        "view": obj(
            {
                **document("view"),
                "rules": ref("ruleset"),
                "seat": seat,
                "phase": ref("phase"),
                "to_act": nullable(seat),
                "dealer": seat,
                "hand_size": integer(1),
                "hand": cards,
                "hand_counts": array(NON_NEGATIVE, **sides),
                "turn_up": nullable(CARD),
                "discards": cards,
                "trump": nullable(SUIT),
                "calls": array(CALL, maxItems=MAX_SEAT + 1),
                "bids": array(nullable(CALL), **sides),
                "declarer": nullable(seat),
                "contracts": nullable(array(nullable(ref("contract")), **sides)),
                "trump_known": BOOL,
                "trump_broken": BOOL,
                "tricks_won": array(NON_NEGATIVE, **sides),
                "side_tricks": array(NON_NEGATIVE, **sides),
                "side_seats": array(
                    array(seat, minItems=1, maxItems=MAX_SEAT + 1, uniqueItems=True), **sides
                ),
                "deals_played": NON_NEGATIVE,
                "deals": integer(1),
                "winner": nullable(seat),
                "tricks": array(ref("trick")),
                "trick": array(CARD, maxItems=MAX_SEAT, uniqueItems=True),
                "leader": seat,
                "scores": array(INT, **sides),
                "deal_results": array(ref("deal_result")),
                "legal_moves": array(MOVE),
                "cards": array(ref("card_answer")),
                "call_answers": array(ref("call_answer")),
            },
            required=[
                "rules",
                "seat",
                "phase",
                "to_act",
                "dealer",
                "hand_size",
                "hand",
                "hand_counts",
                "turn_up",
                "discards",
                "trump",
                "calls",
                "tricks",
                "trick",
                "leader",
                "scores",
                "deal_results",
            ],
            description="What one seat may know (backalley.PlayerView), with the facts "
            "worked out from it (calls per seat, contracts and tricks per side, trump broken, "
            "deals played, the winner), its legal moves, an answer for each card of its hand "
            "and for each call the bidding knows (written always; when read, each is optional "
            "and must be what the view answers).",
        ),
        "record": {
            **obj(
                {
                    **document("record"),
                    "rules": ref("ruleset_input"),
                    "first_dealer": seat,
                    "seed": nullable(integer(-(2**64) + 1, 2**64 - 1)),
                    "decks": array(array(CARD, minItems=1, uniqueItems=True)),
                    "moves": array(MOVE),
                    "results": array(ref("deal_result")),
                    "players": array({"type": "string"}, **sides),
                    "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
                },
                required=["rules", "first_dealer", "moves"],
                description="A game record (backalley.GameRecord): a seed or deck orders "
                "(or both), the moves, and optionally the results they must produce.",
            ),
            "anyOf": [
                {"required": ["seed"], "properties": {"seed": INT}},
                {"required": ["decks"], "properties": {"decks": {"minItems": 1}}},
            ],
        },
        "policy_document": policy_document(),
        "deal_result_document": obj(
            {**document("deal-result"), **deal_result}, required=list(deal_result)
        ),
        "contract_document": obj({**document("contract"), **contract}, required=list(contract)),
        "vectors_header": obj(
            {
                "type": {"const": "header"},
                "format": {"const": "backalley/vectors"},
                "version": {"const": FORMAT_VERSION},
                "variant": name,
                "rules": ref("ruleset"),
                "games": NON_NEGATIVE,
                "seed": INT,
            },
            description="The first line of `backalley vectors` output.",
        ),
        "vectors_position": obj(
            {
                "type": {"const": "position"},
                "game": NON_NEGATIVE,
                "ply": NON_NEGATIVE,
                "seat": seat,
                "view": ref("vectors_view"),
                "legal": array(MOVE, minItems=1),
                "illegal": array(obj({"move": MOVE, "reason": ref("reason")})),
                "state": ref("vectors_state"),
            },
            required=["type", "game", "ply", "seat", "view", "legal", "illegal"],
            description="One decision: the view of the seat to act, its exact legal moves "
            "(in the library's order) and a sample of refused moves.",
        ),
        "vectors_result": obj(
            {
                "type": {"const": "result"},
                "game": NON_NEGATIVE,
                "seed": INT,
                "moves": array(MOVE),
                "scores": array(INT, **sides),
                "winner": nullable(seat),
                "deal_results": array(ref("deal_result"), minItems=1),
            },
            description="The last line of each game in `backalley vectors` output.",
        ),
        "vectors_line": {
            "oneOf": [ref("vectors_header"), ref("vectors_position"), ref("vectors_result")],
        },
    }
    # a rule set document: the rule set as read, plus format and version
    rules_input = defs["ruleset_input"]
    defs["rules_document"] = obj(
        {**document("rules"), **rules_input["properties"]},
        required=[],
        description="A rule set as a top-level document (backalley.to_json(rules)).",
    )
    # in vectors lines, views and states leave out the rules: the header states them once
    for kind in ("view", "state"):
        whole = defs[kind]
        defs[f"vectors_{kind}"] = {
            **whole,
            "properties": {k: v for k, v in whole["properties"].items() if k != "rules"},
            "required": [k for k in whole["required"] if k != "rules"],
            "description": f"A {kind} in a vectors line: the {kind} document without "
            "`rules` (the header line states them once).",
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://backalley.invalid/schema/backalley.schema.json",
        "title": "backalley documents",
        "description": (
            f"The JSON documents of the backalley library, format version {FORMAT_VERSION}: "
            "cards and moves (canonical text), rule sets, policies, deal results, contracts, "
            "game states, player views, game records and conformance-vector lines. "
            "Each document type is a $defs entry; the top level accepts any one of them. "
            'Top-level objects may carry `format` ("backalley/<kind>") and `version`; '
            "nested ones may not. Documents that backalley writes have every key; where "
            "others write documents for backalley to read (records, rule sets, house "
            "rules) the schema also accepts what the loader accepts: parts and parameters "
            "left out, a `base` variant, parts without `type`. Passing the schema is "
            "necessary, not sufficient: loading also checks consistency (a state's moves "
            "legal when replayed, a view that agrees with itself and with its legal moves, "
            "scores that add up). A state document carries its `format`: without it, a "
            "state reads as a game record too. "
            "Generated by tests/make_schema.py."
        ),
        "oneOf": [
            ref("card"),
            ref("move"),
            ref("rules_document"),
            ref("policy_document"),
            ref("deal_result_document"),
            ref("contract_document"),
            ref("state"),
            ref("view"),
            ref("record"),
            ref("vectors_line"),
        ],
        "$defs": defs,
    }


def render() -> str:
    return json.dumps(build(), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    text = render()
    if argv[1:] == ["--check"]:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET} is out of date; run python {Path(__file__).name}", file=sys.stderr)
            return 1
        return 0
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
