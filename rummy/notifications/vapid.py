"""The site's VAPID key pair (RFC 8292): the private key signs every push's
Authorization header, the public key is the ``applicationServerKey`` a browser
subscribes with (so its push service accepts only pushes signed by us).

Where it comes from (config/settings.py): ``VAPID_PRIVATE_KEY`` (base64url, the raw 32
bytes or DER; ``VAPID_PUBLIC_KEY`` beside it is checked against it), else the PEM file at
``VAPID_KEY_FILE``. Neither: push is off and email carries everything. ``manage.py
vapid_keys`` makes a pair; ``make run`` makes a file once and keeps it outside the
repository.
"""

import base64
import logging
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid

from config import caches

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Keys:
    signer: Vapid
    # base64url (no padding) of the uncompressed P-256 point: the applicationServerKey.
    public_key: str


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def public_key_of(signer) -> str:
    return b64url(
        signer.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )


def private_key_of(signer) -> str:
    """The raw 32-byte private value, base64url: what ``VAPID_PRIVATE_KEY`` takes."""
    return b64url(signer.private_key.private_numbers().private_value.to_bytes(32, "big"))


def new_signer():
    signer = Vapid()
    signer.generate_keys()
    return signer


def site_keys() -> Keys | None:
    """The configured pair, or None when push is not set up (or its key is unusable:
    logged, and email goes on alone rather than the pages or the clock failing)."""
    return _load(settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY, settings.VAPID_KEY_FILE)


@caches.memo(maxsize=4)
def _load(private, public, path):
    try:
        if private:
            signer = Vapid.from_string(private)
        elif path and Path(path).is_file():
            signer = Vapid.from_pem(Path(path).read_bytes())
        else:
            if path:
                log.warning("VAPID_KEY_FILE %s does not exist: web push is off", path)
            return None
    except Exception:
        log.exception("the VAPID private key cannot be read: web push is off")
        return None
    derived = public_key_of(signer)
    if public and public.rstrip("=") != derived:
        log.error("VAPID_PUBLIC_KEY is not the public half of the private key: web push is off")
        return None
    return Keys(signer, derived)


def ensure_key_file(path) -> tuple[str, bool]:
    """A PEM private key at ``path`` (made, readable by its owner only, if missing);
    returns its public key and whether it was made now. An existing file is never
    replaced: every browser subscribed with its public key."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    signer = new_signer()
    try:
        # O_EXCL: two starts at once make one key, and the second reads it.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return public_key_of(Vapid.from_pem(path.read_bytes())), False
    with os.fdopen(fd, "wb") as out:
        out.write(signer.private_pem())
    return public_key_of(signer), True
