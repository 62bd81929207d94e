"""RFC 6962 Merkle trees (section 2.1): tree heads and inclusion proofs, pure and byte-exact.

Leaf hash ``SHA-256(0x00 || leaf)``, interior node ``SHA-256(0x01 || left || right)``,
the empty tree ``SHA-256("")``; a tree of n > 1 leaves splits at the largest power
of two below n. `inclusion_path` is RFC 6962's PATH(m, D[n]); `verify_inclusion`
is RFC 9162's section 2.1.3.2 algorithm, so proofs interoperate with transparency
logs. The anchors (games/services/anchors.py) and the verifier share this module.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from .codec import checkpoint_message


def leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def root(hashes: Sequence[bytes]) -> bytes:
    """MTH over leaf hashes (already `leaf_hash`ed)."""
    if not hashes:
        return hashlib.sha256(b"").digest()
    if len(hashes) == 1:
        return hashes[0]
    k = _split(len(hashes))
    return node_hash(root(hashes[:k]), root(hashes[k:]))


def inclusion_path(hashes: Sequence[bytes], index: int) -> list[bytes]:
    """PATH(index, D[n]) over leaf hashes: the sibling hashes from the leaf up."""
    if not 0 <= index < len(hashes):
        raise IndexError(f"leaf {index} is outside a tree of {len(hashes)}")
    if len(hashes) == 1:
        return []
    k = _split(len(hashes))
    if index < k:
        return inclusion_path(hashes[:k], index) + [root(hashes[k:])]
    return inclusion_path(hashes[k:], index - k) + [root(hashes[:k])]


def verify_inclusion(leaf: bytes, index: int, size: int, path: Sequence[bytes], expected: bytes) -> bool:
    """Whether the leaf hash `leaf` is leaf `index` of the tree of `size` whose root is `expected`."""
    if not 0 <= index < size:
        return False
    fn, sn, result = index, size - 1, leaf
    for sibling in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            result = node_hash(sibling, result)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            result = node_hash(result, sibling)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and result == expected


def checkpoint_leaf(game: str, version: int, head: str, issued_at: str) -> bytes:
    """A checkpoint as an anchor's leaf: exactly the bytes its Ed25519 signature covers
    (docs/audit.md, "Signed checkpoints"), so a signed checkpoint and its leaf are one text."""
    return checkpoint_message(game, version, head, issued_at)  # one definition: events/codec.py
