"""Daphne's sockets compress their frames (permessage-deflate, RFC 7692).

The game page's frames are HTML, and the biggest of them (the editor opening on a table
of twenty melds) is several screens of it, sent to a phone that may be on a slow
network. Chromium, Firefox and Safari all offer permessage-deflate in their opening
handshake; daphne's socket factory (autobahn's) can accept it but daphne offers no
setting to, so ``compress_socket_frames`` gives the factory the function that accepts
the offer. A browser that offers nothing gets the frames as before.

What a socket keeps: the frames one socket receives are alike (each re-renders parts of
the same table), so the compressor keeps its context from frame to frame (a tap's frame
then costs a few dozen bytes), in a small window: ``WINDOW_BITS`` and ``MEM_LEVEL`` hold
the compressor's memory per socket to ``compressor_bytes()``, where zlib's defaults
would take eight times as much, and compress the editor's first frame about as well
(docs/benchmarks.md, "The phone table's frames"). A client's own compressor is asked for
the same window when it allows that, which keeps our decompressor as small.
"""

from __future__ import annotations

from typing import Any

#: the compressor's window: 2**WINDOW_BITS bytes of earlier frames it may refer back to
WINDOW_BITS = 12
#: zlib's memory level for the compressor's internal state (1 to 9; 8 is its default)
MEM_LEVEL = 5


def compressor_bytes() -> int:
    """zlib's own figure for a compressor's memory with these settings (zconf.h)."""
    return (1 << (WINDOW_BITS + 2)) + (1 << (MEM_LEVEL + 9))


def accept(offers: list[Any]) -> Any:
    """The first permessage-deflate offer, accepted with our window; None for no
    compression (no offer of it)."""
    from autobahn.websocket.compress import (
        PerMessageDeflateOffer,
        PerMessageDeflateOfferAccept,
    )

    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            window = WINDOW_BITS
            if offer.request_max_window_bits:  # the client asks for a smaller one still
                window = min(window, offer.request_max_window_bits)
            return PerMessageDeflateOfferAccept(
                offer,
                request_max_window_bits=WINDOW_BITS if offer.accept_max_window_bits else 0,
                window_bits=window,
                mem_level=MEM_LEVEL,
            )
    return None


def compress_socket_frames() -> None:
    """Make daphne's socket factory accept permessage-deflate (idempotent; nothing
    happens without daphne: another ASGI server, the test client)."""
    try:
        from daphne.ws_protocol import WebSocketFactory
    except ImportError:  # not running under daphne
        return
    init = WebSocketFactory.__init__
    if getattr(init, "compresses", False):
        return

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.setProtocolOptions(perMessageCompressionAccept=accept)

    __init__.compresses = True  # type: ignore[attr-defined]
    WebSocketFactory.__init__ = __init__
