"""An ECDSA P-256 private key in PEM, made with the standard library alone.

kube-apiserver will not start without a key to sign service-account tokens with
(`--service-account-signing-key-file`), though markergen never asks for a token. The key
lives only in the run's temporary directory; Python's `secrets` supplies the randomness.
P-256 rather than RSA: one scalar multiplication instead of a search for large primes.
"""

from __future__ import annotations

import base64
import secrets

# The curve P-256 (SEC 2, "secp256r1"): y^2 = x^3 - 3x + b over the prime field of P.
_P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
_G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)
# 1.2.840.10045.2.1 is id-ecPublicKey's arc; the curve's own OID, 1.2.840.10045.3.1.7:
_P256_OID = bytes.fromhex("06082a8648ce3d030107")

_Point = tuple[int, int] | None


def _add(a: _Point, b: _Point) -> _Point:
    if a is None:
        return b
    if b is None:
        return a
    if a[0] == b[0] and (a[1] + b[1]) % _P == 0:
        return None
    if a == b:
        slope = (3 * a[0] * a[0] - 3) * pow(2 * a[1], -1, _P) % _P
    else:
        slope = (b[1] - a[1]) * pow(b[0] - a[0], -1, _P) % _P
    x = (slope * slope - a[0] - b[0]) % _P
    return x, (slope * (a[0] - x) - a[1]) % _P


def _multiply(k: int, point: _Point) -> _Point:
    result: _Point = None
    while k:
        if k & 1:
            result = _add(result, point)
        point = _add(point, point)
        k >>= 1
    return result


def _der(tag: int, body: bytes) -> bytes:
    n = len(body)
    length = (
        bytes([n])
        if n < 0x80
        else bytes([0x81, n])
        if n < 0x100
        else bytes([0x82]) + n.to_bytes(2, "big")
    )
    return bytes([tag]) + length + body


def ec_private_key_pem() -> str:
    """A SEC 1 `EC PRIVATE KEY` on P-256, with its public key."""
    d = secrets.randbelow(_N - 1) + 1
    public = _multiply(d, _G)
    assert public is not None
    point = b"\x04" + public[0].to_bytes(32, "big") + public[1].to_bytes(32, "big")
    body = (
        _der(0x02, b"\x01")
        + _der(0x04, d.to_bytes(32, "big"))
        + _der(0xA0, _P256_OID)
        + _der(0xA1, _der(0x03, b"\x00" + point))
    )
    b64 = base64.b64encode(_der(0x30, body)).decode()
    lines = [b64[i : i + 64] for i in range(0, len(b64), 64)]
    return (
        "-----BEGIN EC PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END EC PRIVATE KEY-----\n"
    )
