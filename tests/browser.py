"""Debian's Chromium, as the browser tests start it: where it is and the
arguments that keep it from reaching for hosts it cannot reach."""

from __future__ import annotations

import re
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# What a page shows, measured in the page (functions, as the pages' policy
# allows no evaluated text): each visible text with its size on the screen
# in px (an SVG text scaled by its picture).
VISIBLE_TEXT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el || el.closest("title, option, noscript, script, style")) continue;
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(el).visibility === "hidden") continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) size *= el.getScreenCTM().a;  // the picture's scale
    out.push([text, size]);
  }
  return out;
}"""

SCROLL_WIDTH = "() => document.documentElement.scrollWidth"

PLACEHOLDER_ROOM = """(selector) => {
  // a field's placeholder: its width in the field's font, and the room the field gives it
  const field = document.querySelector(selector);
  const style = getComputedStyle(field);
  const context = document.createElement("canvas").getContext("2d");
  context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [context.measureText(field.placeholder).width, room];
}"""

BOX = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const box = el.getBoundingClientRect();
  return [box.left, box.top, box.width, box.height];
}"""


CARD_LETTERS = re.compile(r"\b(?:[2-9TJQKA]|10)[CDHS]\b|\b[BL]J\b")
_SHOWN_SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def as_shown(sentence: str) -> str:
    """The library's sentence with its cards as the page writes cards
    (``not 4D``: ``not 4\u2666``; ``BJ``: ``big joker``)."""

    def card(found: re.Match[str]) -> str:
        text = found.group()
        if text in ("BJ", "LJ"):
            return "big joker" if text == "BJ" else "little joker"
        rank = text[:-1]
        return ("10" if rank in ("T", "10") else rank) + _SHOWN_SUITS[text[-1]]

    return CARD_LETTERS.sub(card, sentence)
