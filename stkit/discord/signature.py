"""Checking that an interaction comes from Discord, before anything of it is read.

Discord signs each interaction with the application's Ed25519 key: ``X-Signature-Ed25519`` (hex) over the
``X-Signature-Timestamp`` header followed by the raw body; a request that fails the check must get a 401
(developers/interactions/overview.mdx, "Validating Security Request Headers"). The timestamp is Unix
seconds; one more than :data:`MAX_AGE` seconds away from now is refused as stale, so a recorded request
cannot be replayed later (the window is ours: the documentation names none).
Ed25519 through the ``cryptography`` package.
"""

from __future__ import annotations

import time

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

#: The most a signed timestamp may differ from this computer's clock (seconds).
MAX_AGE = 300.0


def verify(public_key_hex: str, signature_hex: str, timestamp: str, body: bytes, *, now: float | None = None) -> bool:
    """True when ``signature_hex`` is the Ed25519 signature, by the key ``public_key_hex`` (64 hex digits),
    of ``timestamp`` + ``body``, and ``timestamp`` is within :data:`MAX_AGE` seconds of ``now`` (default:
    the clock). False for anything malformed, forged, tampered or stale; never raises."""

    if not (isinstance(signature_hex, str) and isinstance(timestamp, str)) or len(signature_hex) != 128:
        return False
    if not (timestamp.isascii() and timestamp.isdigit()) or len(timestamp) > 12:
        return False
    moment = time.time() if now is None else now
    if abs(moment - int(timestamp)) > MAX_AGE:
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))
        key.verify(bytes.fromhex(signature_hex), timestamp.encode("ascii") + body)
    except (InvalidSignature, ValueError):
        return False
    return True
