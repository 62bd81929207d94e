"""events/merkle.py against RFC 6962: the reference tree heads of the Certificate
Transparency test leaves, the reference inclusion proofs, every proof of every leaf
of trees of 1..40 leaves, and proofs that must fail."""

from __future__ import annotations

import hashlib

from events import merkle

LEAVES = [
    bytes.fromhex(h)
    for h in (
        "",
        "00",
        "10",
        "2021",
        "3031",
        "40414243",
        "5051525354555657",
        "606162636465666768696a6b6c6d6e6f",
    )
]
ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
# The reference inclusion proofs (leaf index, tree size, path) of the same test data.
PROOFS = [
    (
        0,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        5,
        8,
        [
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
]


def test_hashing_is_rfc_6962s():
    assert merkle.leaf_hash(b"x") == hashlib.sha256(b"\x00x").digest()
    assert merkle.node_hash(b"a", b"b") == hashlib.sha256(b"\x01ab").digest()
    hashes = [merkle.leaf_hash(leaf) for leaf in LEAVES]
    for n, want in enumerate(ROOTS):
        assert merkle.root(hashes[:n]).hex() == want, n


def test_reference_inclusion_proofs():
    hashes = [merkle.leaf_hash(leaf) for leaf in LEAVES]
    top = bytes.fromhex(ROOTS[8])
    for index, size, path in PROOFS:
        assert [p.hex() for p in merkle.inclusion_path(hashes[:size], index)] == path
        assert merkle.verify_inclusion(hashes[index], index, size, [bytes.fromhex(p) for p in path], top)


def test_every_proof_verifies_and_no_wrong_one_does():
    many = [merkle.leaf_hash(i.to_bytes(2, "big")) for i in range(40)]
    for size in range(1, 41):
        tree = many[:size]
        top = merkle.root(tree)
        for index in range(size):
            path = merkle.inclusion_path(tree, index)
            assert merkle.verify_inclusion(tree[index], index, size, path, top)
            assert not merkle.verify_inclusion(merkle.leaf_hash(b"other"), index, size, path, top)
            assert not merkle.verify_inclusion(tree[index], index, size, path, merkle.leaf_hash(b"root"))
            if size > 1:
                assert not merkle.verify_inclusion(tree[index], (index + 1) % size, size, path, top)
                assert not merkle.verify_inclusion(tree[index], index, size, path[:-1], top)
            assert not merkle.verify_inclusion(tree[index], index, size, [*path, top], top)
        assert not merkle.verify_inclusion(tree[0], size, size, [], top)
