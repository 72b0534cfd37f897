"""``config.daphne_sockets``: under daphne, a socket whose browser offers
permessage-deflate gets its frames compressed, in a small window (``config.asgi``
turns it on at import). The bytes a phone receives: tests/e2e/test_table_phone.py."""

import zlib
from types import SimpleNamespace

import pytest

ws_protocol = pytest.importorskip("daphne.ws_protocol")

from autobahn.websocket.compress import (  # noqa: E402
    PerMessageDeflate,
    PerMessageDeflateOffer,
)

import config.asgi  # noqa: E402, F401  (what daphne imports: it makes the change)
from config import daphne_sockets  # noqa: E402


def offer(**params):
    """An offer as a browser's handshake makes it (Chromium: client_max_window_bits)."""
    return PerMessageDeflateOffer.parse({k: [v] for k, v in params.items()})


def test_daphnes_socket_factory_accepts_compression():
    factory = ws_protocol.WebSocketFactory(SimpleNamespace(), server="Daphne")
    assert factory.perMessageCompressionAccept is daphne_sockets.accept
    daphne_sockets.compress_socket_frames()  # a second call changes nothing
    again = ws_protocol.WebSocketFactory(SimpleNamespace(), server="Daphne")
    assert again.perMessageCompressionAccept is daphne_sockets.accept


def test_a_browsers_offer_is_accepted_in_the_small_window():
    accepted = daphne_sockets.accept([offer(client_max_window_bits=True)])
    assert accepted.window_bits == daphne_sockets.WINDOW_BITS
    assert accepted.mem_level == daphne_sockets.MEM_LEVEL
    # the browser's compressor is asked for the same window (our decompressor's size)
    assert accepted.get_extension_string() == (
        f"permessage-deflate; client_max_window_bits={daphne_sockets.WINDOW_BITS}"
    )


def test_a_client_asking_for_a_smaller_window_gets_it():
    accepted = daphne_sockets.accept([offer(server_max_window_bits="9")])
    assert accepted.window_bits == 9
    assert "server_max_window_bits=9" in accepted.get_extension_string()


def test_no_offer_no_compression():
    assert daphne_sockets.accept([]) is None


def test_frames_come_out_as_a_browser_inflates_them_and_far_smaller():
    """The server's side of the extension as autobahn builds it from our accept, one
    frame after another, inflated with one raw-deflate stream as a browser does (the
    context kept): every frame comes back whole, a repeated frame costs little."""
    accepted = daphne_sockets.accept([offer(client_max_window_bits=True)])
    server = PerMessageDeflate.create_from_offer_accept(True, accepted)
    inflate = zlib.decompressobj(-15)
    frame = "".join(
        f"<button class='card' data-card='{i * 7919 % 997}'>{i}</button>" for i in range(60)
    )
    sizes = []
    for _ in range(3):
        server.start_compress_message()
        wire = server.compress_message_data(frame.encode()) + server.end_compress_message()
        sizes.append(len(wire))
        assert inflate.decompress(wire + b"\x00\x00\xff\xff").decode() == frame
    assert sizes[0] < len(frame) / 5
    assert sizes[1] < sizes[0] / 5


def test_the_compressors_memory_is_zlibs_for_the_window():
    assert daphne_sockets.compressor_bytes() == 2 ** (12 + 2) + 2 ** (5 + 9)
