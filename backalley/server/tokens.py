"""Seat tokens: the secret that lets one client act for one seat.

A token is 128 random bits from the operating system, written as 32
lower-case hexadecimal digits.  The server answers it once, when the seat is
joined, and stores only its SHA-256 hash; a request's token is hashed and
compared with the stored hash in constant time, so neither the database nor
the timing of a refusal tells a token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["TOKEN_BYTES", "new_token", "token_hash", "token_matches"]

TOKEN_BYTES = 16
"""A token's length in bytes (128 bits)."""


def new_token() -> str:
    """A fresh seat token: 128 random bits as 32 hexadecimal digits."""
    return secrets.token_hex(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """The hash stored for ``token`` (SHA-256, hexadecimal)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(stored: str | None, token: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored``, compared in
    constant time (``False`` when either is missing)."""
    if stored is None or token is None:
        return False
    return hmac.compare_digest(stored, token_hash(token))
