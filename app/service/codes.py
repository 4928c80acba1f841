"""Room codes and seat tokens: what stands in for accounts."""

from __future__ import annotations

import hashlib
import secrets

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Digits and capitals without the look-alikes 0/O and 1/I/L."""
CODE_LENGTH = 6
"""31**6 is close to 9e8 codes: with joins rate-limited, guessing one is impractical."""
TOKEN_BYTES = 24
"""192 random bits per seat token."""


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str | None:
    """The canonical form of a code a person typed, or ``None`` if it cannot be one.

    Spaces and dashes are ignored: a code read out over the phone is often typed in
    groups ("JG7 AEJ", "JG7-AEJ")."""
    code = "".join(code.split()).replace("-", "").upper()
    if not 5 <= len(code) <= 12 or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_claim_id() -> str:
    """A seat request's name: public at the table, so it opens nothing by itself."""
    return secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    """Tokens are stored hashed, so a copy of the database seats nobody."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_seed() -> int:
    """The seed of a deal: 128 bits, never shown to a client."""
    return secrets.randbits(128)
