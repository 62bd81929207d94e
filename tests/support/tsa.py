"""A local RFC 3161 timestamp authority for tests: `openssl ts -reply` behind a small
HTTP handler on 127.0.0.1 (no network). `LocalTsa.start(folder)` makes a CA and a
TSA certificate (critical EKU timeStamping), serves POSTed timestamp queries at
`url`, and writes `bundle` (the TSA's certificate, then the CA's) for --tsa-cert."""

from __future__ import annotations

import datetime
import subprocess
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CONFIG = """\
[ tsa ]
default_tsa = local_tsa

[ local_tsa ]
dir = {folder}
serial = {folder}/serial
crypto_device = builtin
signer_cert = {folder}/tsa.pem
# no `certs`: the reply then holds the signer only (openssl does not sort a SET of several)
signer_key = {folder}/tsa.key
signer_digest = sha256
default_policy = 1.2.3.4.1
digests = sha256, sha384, sha512
accuracy = secs:1
ordering = yes
tsa_name = no
ess_cert_id_chain = no
ess_cert_id_alg = sha256
"""


def _certificate(subject: str, key, issuer: str, issuer_key, ca: bool) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
        .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if ca:
        builder = builder.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
    else:
        builder = builder.add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True
        ).add_extension(
            x509.KeyUsage(True, True, False, False, False, False, False, False, False), critical=True
        )
    return builder.sign(issuer_key, hashes.SHA256())


def _pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


@dataclass
class LocalTsa:
    folder: Path
    server: ThreadingHTTPServer
    url: str
    bundle: Path
    requests: int = 0

    @classmethod
    def start(cls, folder: Path) -> LocalTsa:
        folder.mkdir(parents=True, exist_ok=True)
        ca_key, tsa_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
        ca = _certificate("Sengoku test CA", ca_key, "Sengoku test CA", ca_key, ca=True)
        tsa = _certificate("Sengoku test TSA", tsa_key, "Sengoku test CA", ca_key, ca=False)
        (folder / "ca.pem").write_bytes(_pem(ca))
        (folder / "tsa.pem").write_bytes(_pem(tsa))
        (folder / "tsa.key").write_bytes(
            tsa_key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        )
        (folder / "serial").write_text("01\n")
        (folder / "tsa.cnf").write_text(CONFIG.format(folder=folder))
        bundle = folder / "bundle.pem"
        bundle.write_bytes(_pem(tsa) + _pem(ca))
        state: dict[str, LocalTsa] = {}

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                query = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                me = state["tsa"]
                with me.lock:  # openssl's serial file is one counter
                    me.requests += 1
                    (folder / "query.tsq").write_bytes(query)
                    done = subprocess.run(
                        [
                            "openssl",
                            "ts",
                            "-reply",
                            "-config",
                            str(folder / "tsa.cnf"),
                            "-queryfile",
                            str(folder / "query.tsq"),
                            "-out",
                            str(folder / "reply.tsr"),
                        ],
                        capture_output=True,
                        check=False,
                        timeout=30,
                    )
                    body = (folder / "reply.tsr").read_bytes() if done.returncode == 0 else b""
                self.send_response(200 if body else 500)
                self.send_header("Content-Type", "application/timestamp-reply")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        me = cls(folder, server, f"http://127.0.0.1:{server.server_address[1]}/tsa", bundle)
        state["tsa"] = me
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return me

    @property
    def lock(self) -> threading.Lock:
        if not hasattr(self, "_lock"):
            self._lock = threading.Lock()
        return self._lock

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
