"""JSON for every document type: states, views, moves, cards, rule sets,
game records, deal results and contracts (format version 2).

One module per document (:mod:`~backalley.io.serialize.rules_doc`,
:mod:`~backalley.io.serialize.results_doc`, :mod:`~backalley.io.serialize.state_doc`,
:mod:`~backalley.io.serialize.view_doc`, :mod:`~backalley.io.serialize.record_doc`),
shared helpers in :mod:`~backalley.io.serialize.common`, the limits that bound
a document's work in :mod:`~backalley.io.serialize.limits`, and the one cattrs
converter in :mod:`~backalley.io.serialize.convert`.  The documents depend on
the engine, never the reverse.

A state document replays: it is the rule set, the seed, the first dealer,
the deck orders and the moves, and loading applies the moves through the
engine.  Every field of every document is plain JSON that the shipped
schema (:mod:`backalley.io.schema`) types.
"""

from backalley.io.serialize.common import FORMAT_VERSION
from backalley.io.serialize.convert import converter, from_data, from_json, to_data, to_json
from backalley.io.serialize.results_doc import (
    check_results,
    deal_result_from_data,
    deal_result_to_data,
)
from backalley.io.serialize.rules_doc import (
    policy_from_data,
    policy_to_data,
    rules_from_data,
    rules_to_data,
)

__all__ = [
    "FORMAT_VERSION",
    "check_results",
    "converter",
    "deal_result_from_data",
    "deal_result_to_data",
    "from_data",
    "from_json",
    "policy_from_data",
    "policy_to_data",
    "rules_from_data",
    "rules_to_data",
    "to_data",
    "to_json",
]
