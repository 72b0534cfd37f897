"""A daphne worker stopped with SIGTERM (systemd's stop, a rolling restart) drains first.

Daphne's own SIGTERM stops Twisted's reactor at once: the listening socket closes, the
application of every open connection is cancelled, and the event loop ends. A request
whose view was still running in its thread then finishes its transaction (the move is
saved) but its answer is lost, and the thread, waiting for the event loop to send the
broadcast after commit, keeps the process alive until it is killed. So here SIGTERM:

1. stops listening (a proxy sends new requests to the other workers at once: a refused
   connection is retried there, even a POST, since nothing was sent); a request that
   still arrives on a kept-alive connection is answered 503 at once, before anything
   runs, with ``Connection: close`` (``Draining``): nothing of it was applied, so it may
   be sent again anywhere;
2. lets the requests in progress finish and answer, for up to ``DRAIN_SECONDS``;
3. closes every socket with code 1012 ("service restart": the page reconnects, to
   another worker, and gets the whole view);
4. then stops the reactor as daphne would.

A second SIGTERM (or SIGINT) stops at once. Nothing changes without daphne.
"""

import logging
import signal
import time

log = logging.getLogger(__name__)

# Below the systemd units' TimeoutStopSec (20 s), after which systemd kills the worker.
DRAIN_SECONDS = 15.0
SERVICE_RESTART = 1012  # RFC 6455's registry: the server is restarting
_servers: list = []


def install():
    """Take over SIGTERM in a daphne process, once its reactor runs."""
    try:
        from daphne.server import Server
        from twisted.internet import reactor
    except ImportError:  # not running under daphne
        return
    init = Server.__init__
    if getattr(init, "drains", False):
        return

    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        _servers.append(self)

    __init__.drains = True
    Server.__init__ = __init__
    reactor.callWhenRunning(_take_over_signals)


def _take_over_signals():
    from twisted.internet import reactor

    def on_signal(signum, frame):
        reactor.callFromThread(_begin_drain)

    signal.signal(signal.SIGTERM, on_signal)


_draining: dict = {}


class Draining:
    """ASGI wrapper of the HTTP application: while draining, a new request is refused
    unread (503, ``Retry-After``, ``Connection: close``) instead of starting work that
    the stop could cut off."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if _draining and scope["type"] == "http":
            await send(
                {
                    "type": "http.response.start",
                    "status": 503,
                    "headers": [
                        (b"content-type", b"text/plain; charset=utf-8"),
                        (b"retry-after", b"1"),
                        (b"connection", b"close"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": b"restarting"})
            return
        await self.app(scope, receive, send)


def _begin_drain():
    from twisted.internet import reactor, tcp

    if _draining:  # a second signal: stop now
        reactor.stop()
        return
    _draining["since"] = time.monotonic()
    for reader in list(reactor.getReaders()):
        if isinstance(reader, tcp.Port):
            reader.stopListening()
    log.info("SIGTERM: not listening any more; draining the requests in progress")
    _drain_step()


def _in_flight(server) -> tuple[list, list]:
    from daphne.http_protocol import WebRequest
    from daphne.ws_protocol import WebSocketProtocol

    requests, sockets = [], []
    for protocol, details in list(server.connections.items()):
        if "disconnected" in details:
            continue
        if isinstance(protocol, WebRequest):
            instance = details.get("application_instance")
            if instance is not None and not instance.done():
                requests.append(protocol)
        elif isinstance(protocol, WebSocketProtocol):
            sockets.append(protocol)
    return requests, sockets


def _drain_step():
    from twisted.internet import reactor

    requests = [r for server in _servers for r in _in_flight(server)[0]]
    if requests and time.monotonic() - _draining["since"] < DRAIN_SECONDS:
        reactor.callLater(0.05, _drain_step)
        return
    sockets = [s for server in _servers for s in _in_flight(server)[1]]
    for socket in sockets:
        try:
            socket.sendClose(code=SERVICE_RESTART)
        except Exception:  # a socket that is closing already
            log.debug("socket already closing", exc_info=True)
    log.info("drained (%d requests left); closed %d sockets", len(requests), len(sockets))
    # A moment for the close frames to leave, then daphne's own stop.
    reactor.callLater(0.2, reactor.stop)
