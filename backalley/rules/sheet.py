"""Rules as text: a readable rules sheet generated from a rule set, so that the
documentation cannot drift from the code."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from backalley.rules.base import Term

if TYPE_CHECKING:
    from backalley.rules.ruleset import RuleSet

__all__ = [
    "SETTINGS_TITLE",
    "TERMS_TITLE",
    "describe_part",
    "diff_rules",
    "options_table",
    "rules_sheet",
    "sheet_terms",
]

TERMS_TITLE = "Terms"
"""The heading of the block of defined words at the top of a sheet."""
SETTINGS_TITLE = "Settings (for software)"
"""The heading of the closing block: the rule set as its parts' tags and option values."""

_HEADINGS = {
    "deck": "Deck",
    "seating": "Players",
    "schedule": "Deals",
    "dealer": "Dealer",
    "trump": "Trump",
    "bidding": "Bidding",
    "lead": "Leading",
    "follow": "Following",
    "ranking": "Card order and tricks",
    "scoring": "Scoring",
    "end": "End of the game",
}


def rules_sheet(rules: RuleSet, *, settings: bool = True) -> str:
    """A complete, human-readable rules sheet for ``rules``: the title, the
    Terms block (the words the sheet uses, each defined once), one paragraph
    per part, and - unless ``settings`` is false - the block of settings for
    software (:func:`options_table`) after the rules."""
    title = f"Back Alley: {rules.name}" if rules.name else "Back Alley (custom rules)"
    lines = [title, "=" * len(title), ""]
    paragraphs = [
        f"{_HEADINGS.get(name, name.capitalize())}: {describe_part(part, rules)}"
        for name, part in rules.parts().items()
    ]
    terms = sheet_terms(rules, paragraphs)
    if terms:
        lines.append(f"{TERMS_TITLE}:")
        lines.extend(f"  {term.name}: {term.meaning}" for term in terms)
        lines.append("")
    for text in paragraphs:
        lines.append(text)
        lines.append("")
    if settings:
        lines.append(f"{SETTINGS_TITLE}:")
        lines.extend(f"  {row}" for row in options_table(rules))
    return "\n".join(lines).rstrip() + "\n"


def sheet_terms(rules: RuleSet, paragraphs: list[str]) -> list[Term]:
    """The terms the parts of ``rules`` define (:meth:`~backalley.rules.Part.terms_in`)
    that ``paragraphs`` use, or that the meaning of a used term uses, in the
    order of the parts; a word defined by two parts is defined by the first."""
    offered: dict[str, Term] = {}
    for part in rules.parts().values():
        terms_in = getattr(part, "terms_in", None)
        for term in terms_in(rules) if callable(terms_in) else ():
            offered.setdefault(term.name, term)
    text = " ".join(paragraphs)
    used: set[str] = set()
    grew = True
    while grew:
        grew = False
        for name, term in offered.items():
            if name not in used and term.used_in(text):
                used.add(name)
                text += " " + term.meaning
                grew = True
    return [term for name, term in offered.items() if name in used]


def describe_part(part: Any, rules: RuleSet) -> str:
    """A part's paragraph of the sheet of ``rules``: its ``describe_in(rules)``
    (only what can apply in that rule set), or ``describe()`` for a part that
    has no ``describe_in`` or overrides ``describe()`` in a subclass below it."""
    describe_in = getattr(part, "describe_in", None)
    if callable(describe_in) and not _describe_is_newer(type(part)):
        return str(describe_in(rules))
    return str(part.describe())


def _describe_is_newer(cls: type) -> bool:
    """Whether ``cls`` (or a base nearer to it) overrides ``describe`` below the
    class that gives ``describe_in``: a user's subclass of a built-in part that
    rewrites only ``describe()`` is described by its own text."""
    for klass in cls.__mro__:
        if "describe_in" in vars(klass):
            return False
        if "describe" in vars(klass):
            return True
    return False


def options_table(rules: RuleSet) -> list[str]:
    """One line per part: ``part: tag (option=value; ...)``."""
    return [f"{name:<9} {part.summary()}" for name, part in rules.parts().items()]


def diff_rules(a: RuleSet, b: RuleSet) -> list[str]:
    """The parts in which two rule sets differ, one line each (empty when equal)."""
    out = []
    for name, part_a in a.parts().items():
        part_b = getattr(b, name)
        if part_a == part_b:
            continue
        if part_a.tag != part_b.tag:
            out.append(f"{name}: {part_a.summary()}  ->  {part_b.summary()}")
            continue
        opts_a, opts_b = part_a.options(), part_b.options()
        changes = [
            f"{key} {part_a.option_text(key)} -> {part_b.option_text(key)}"
            for key in opts_a
            if opts_a[key] != opts_b[key]
        ]
        out.append(f"{name}: " + "; ".join(changes))
    return out
