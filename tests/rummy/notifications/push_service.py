"""A push service on this machine for the tests (RFC 8030's receiving end), written from
the RFCs and independent of the sender's libraries (pywebpush, py-vapid, http-ece):

- it checks every push's VAPID Authorization header (RFC 8292): ``vapid t=JWT,k=KEY``,
  the JWT's ES256 signature verified with ``k``, ``aud`` the endpoint's origin, ``exp``
  in the future and at most 24 hours ahead, ``sub`` present;
- a ``Device`` holds a browser's half of RFC 8291 (an ECDH P-256 key pair and an auth
  secret) and decrypts the aes128gcm body (RFC 8188) the push service received for it.

Each device has its own path; ``answer`` says what the service answers there (201, 404,
410, 500, "slow": no answer before the sender's timeout, or "redirect:URL", a 307).
"""

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from rummy.models import PushSubscription


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _point(public_key) -> bytes:
    return public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def _hkdf(salt, ikm, info, length):
    """HKDF-SHA-256 (RFC 5869): extract with ``salt``, expand with ``info``."""
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


class VapidError(AssertionError):
    pass


def check_vapid(authorization: str, origin: str, now: float) -> dict:
    """The claims of a valid RFC 8292 Authorization header; VapidError otherwise."""
    scheme, _, params = authorization.partition(" ")
    if scheme.lower() != "vapid":
        raise VapidError(f"scheme {scheme!r}")
    parts = dict(param.strip().split("=", 1) for param in params.split(","))
    token, key = parts["t"], parts["k"]
    header_b64, claims_b64, signature_b64 = token.split(".")
    header = json.loads(unb64url(header_b64))
    if header.get("alg") != "ES256":
        raise VapidError(f"alg {header.get('alg')!r}")
    signature = unb64url(signature_b64)
    if len(signature) != 64:  # JWS ES256: r and s, 32 bytes each (RFC 7518 3.4)
        raise VapidError("signature length")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    der = encode_dss_signature(
        int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    )
    try:
        public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise VapidError("bad signature") from None
    claims = json.loads(unb64url(claims_b64))
    if claims.get("aud") != origin:
        raise VapidError(f"aud {claims.get('aud')!r} is not {origin!r}")
    if not now < claims["exp"] <= now + 24 * 3600:
        raise VapidError(f"exp {claims['exp']} against now {now}")
    if not claims.get("sub"):
        raise VapidError("no sub")
    return {**claims, "k": key}


@dataclass
class Device:
    """A browser's side of a subscription: its keys, and what it was pushed."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))
    answer: object = 201
    received: list = field(default_factory=list)

    @property
    def p256dh(self):
        return b64url(_point(self.private_key.public_key()))

    @property
    def auth(self):
        return b64url(self.auth_secret)

    def subscription_json(self):
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 section 3.4 with RFC 8188's header and a single record."""
        salt, record_size, id_length = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        sender_key = body[21 : 21 + id_length]
        ciphertext = body[21 + id_length :]
        assert id_length == 65 and len(ciphertext) <= record_size
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_key)
        shared = self.private_key.exchange(ec.ECDH(), sender)
        key_info = b"WebPush: info\x00" + _point(self.private_key.public_key()) + sender_key
        ikm = _hkdf(self.auth_secret, shared, key_info, 32)
        cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
        padded = AESGCM(cek).decrypt(nonce, ciphertext, None)
        content = padded.rstrip(b"\x00")
        assert content.endswith(b"\x02"), "the last record ends with the 0x02 delimiter"
        return content[:-1]

    def messages(self):
        return [json.loads(self.decrypt(push["body"])) for push in self.received]


class PushService:
    """The server, on 127.0.0.1 and a free port, in a thread of its own."""

    def __init__(self):
        self.devices: dict[str, Device] = {}
        self.refused: list[str] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                service.handle(self)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def device(self, answer=201):
        name = b64url(os.urandom(9))
        device = Device(endpoint=f"{self.origin}/push/{name}", answer=answer)
        self.devices[f"/push/{name}"] = device
        return device

    def subscribe(self, user, answer=201, device_label="Firefox on Android"):
        """A device of ``user``'s, stored as the site stores a subscription."""
        device = self.device(answer)
        PushSubscription.objects.create(
            user=user,
            endpoint=device.endpoint,
            p256dh=device.p256dh,
            auth=device.auth,
            device=device_label,
        )
        return device

    def handle(self, request):
        length = int(request.headers.get("Content-Length") or 0)
        body = request.rfile.read(length)
        device = self.devices.get(request.path)
        try:
            claims = check_vapid(request.headers.get("Authorization", ""), self.origin, time.time())
        except (VapidError, KeyError, ValueError) as error:
            self.refused.append(repr(error))
            return self._answer(request, 401)
        if device is None:
            return self._answer(request, 404)
        if isinstance(device.answer, str) and device.answer.startswith("redirect:"):
            # To another device's path, on this same service.
            request.send_response(307)
            request.send_header("Location", device.answer.removeprefix("redirect:"))
            request.send_header("Content-Length", "0")
            request.end_headers()
            return None
        if device.answer == "slow":
            time.sleep(3)
            return self._answer(request, 201)
        if device.answer == 201:
            device.received.append(
                {
                    "body": body,
                    "headers": {k.lower(): v for k, v in request.headers.items()},
                    "claims": claims,
                }
            )
        return self._answer(request, device.answer)

    def _answer(self, request, status):
        try:
            request.send_response(status)
            request.send_header("Content-Length", "0")
            request.end_headers()
        except OSError:  # the sender gave up waiting (the "slow" device)
            pass
