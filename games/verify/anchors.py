"""The anchor: a finished game's final head in a Merkle tree whose root a timestamp authority signed.

The export's last line carries ``anchor`` once the server anchored it
(games/services/anchors.py): the checkpoint ``{game, version, head, issued_at}``,
its ``leaf_index`` in a tree of ``tree_size`` leaves, the RFC 6962 inclusion
``path`` to ``root``, and ``token``, the TSA's RFC 3161 answer over the root's 32
bytes (base64 DER). Checked: the checkpoint is the export's final head, the path
leads to the root (events/merkle.py), and, given the TSA's certificates
(``--tsa-cert``: the TSA's certificate first, then its chain up to the root), the
token is a valid timestamp of that root; its time is then reported.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence
from typing import Any

import rfc3161_client
from cryptography import x509

from events import merkle

from .report import Report, VerifyError


def load_certificates(path: str) -> list[x509.Certificate]:
    """The PEM certificates of a file: the TSA's first, its root last; VerifyError when none."""
    try:
        with open(path, "rb") as fh:
            certificates = x509.load_pem_x509_certificates(fh.read())
    except (OSError, ValueError) as exc:
        raise VerifyError(f"cannot read the TSA certificate {path}: {exc}") from exc
    return certificates


def _token_problem(token: bytes, root: bytes, certificates: Sequence[x509.Certificate]) -> str | None:
    """None when `token` is a timestamp of `root` by the TSA of `certificates`, else why not."""
    response = rfc3161_client.decode_timestamp_response(token)
    builder = rfc3161_client.VerifierBuilder().tsa_certificate(certificates[0])
    builder = builder.add_root_certificate(certificates[-1])
    for middle in certificates[1:-1]:
        builder = builder.add_intermediate_certificate(middle)
    try:
        builder.build().verify_message(response, root)
    except rfc3161_client.VerificationError as exc:
        return f"the timestamp token does not sign this root under the given TSA certificate: {exc}"
    return None


def token_time(token: bytes) -> str:
    """The TSA's own time in the token (genTime), RFC 3339 UTC."""
    at = rfc3161_client.decode_timestamp_response(token).tst_info.gen_time
    return at.isoformat().replace("+00:00", "Z")


def check_anchor(
    rows: Sequence[Mapping[str, Any]], report: Report, certificates: Sequence[x509.Certificate] = ()
) -> None:
    """Check the anchor of the export's final head, if the export has one."""
    last = rows[-1] if rows else {}
    proof = last.get("anchor")
    if proof is None:
        if certificates:
            report.notes.append("no anchor in this export: the final head was not anchored (yet)")
        return
    before = len(report.problems)
    try:
        point = proof["checkpoint"]
        leaf = merkle.leaf_hash(
            merkle.checkpoint_leaf(
                str(point["game"]), int(point["version"]), str(point["head"]), str(point["issued_at"])
            )
        )
        path = [bytes.fromhex(h) for h in proof["path"]]
        root = bytes.fromhex(proof["root"])
        token = base64.b64decode(proof["token"], validate=True)
        index, size = int(proof["leaf_index"]), int(proof["tree_size"])
    except (KeyError, TypeError, ValueError, binascii.Error) as exc:
        report.add(last.get("seq"), "anchor", f"the anchor is malformed: {type(exc).__name__}")
        report.anchor_ok = False
        return
    if point["version"] != last.get("seq") or point["head"] != last.get("hash"):
        report.add(last.get("seq"), "anchor", "the anchored checkpoint is not this export's final head")
    if not merkle.verify_inclusion(leaf, index, size, path, root):
        report.add(last.get("seq"), "anchor", "the inclusion proof does not lead to the anchored root")
    if certificates:
        try:
            problem = _token_problem(token, root, certificates)
        except ValueError as exc:
            problem = f"the timestamp token is unreadable: {exc}"
        if problem:
            report.add(last.get("seq"), "anchor", problem)
        else:
            report.anchored_at = token_time(token)
    else:
        report.notes.append("anchor token not checked: give the TSA's certificate with --tsa-cert")
    report.anchor_ok = len(report.problems) == before
