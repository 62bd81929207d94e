"""Sealed pub/sub messages: a commit's private rows may cross Redis only sealed.

Why, with the measurements and history: docs/modules.md, `events/sealed.py`.
"""

from __future__ import annotations

import functools
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

MARK = b"S1"  # format version; a JSON announcement starts with "{", a bare one with a digit
NONCE_BYTES = 12
VERSION_BYTES = 8
_NONCE_AT = len(MARK) + VERSION_BYTES
_LABEL = b"sengoku/feed-announcements/v1"


@functools.lru_cache(maxsize=4)
def _aead(secret: str) -> AESGCMSIV:
    """The cipher for one SECRET_KEY (cached by the key's value, so settings
    overridden in tests derive their own)."""
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_LABEL).derive(secret.encode())
    return AESGCMSIV(key)


def seal(channel: str, version: int, body: bytes) -> bytes:
    """MARK, the commit's version in the clear (it is public: every view shows it;
    readers drop a commit they already have without opening it), the nonce, and
    the sealed body. The channel and the version are authenticated with it."""
    nonce = os.urandom(NONCE_BYTES)  # random 96-bit nonces: no counter to share between processes
    clear = version.to_bytes(VERSION_BYTES, "big")
    return MARK + clear + nonce + _aead(settings.SECRET_KEY).encrypt(nonce, body, channel.encode() + clear)


def is_sealed(data: bytes) -> bool:
    return data[: len(MARK)] == MARK


def sealed_version(data: bytes) -> int:
    return int.from_bytes(data[len(MARK) : _NONCE_AT], "big")


def open_sealed(channel: str, data: bytes) -> bytes | None:
    """The body of a sealed message, or None when it does not open here."""
    clear, nonce = data[len(MARK) : _NONCE_AT], data[_NONCE_AT : _NONCE_AT + NONCE_BYTES]
    try:
        return _aead(settings.SECRET_KEY).decrypt(
            nonce, data[_NONCE_AT + NONCE_BYTES :], channel.encode() + clear
        )
    except (InvalidTag, ValueError):
        return None
