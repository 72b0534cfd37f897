"""A TCP relay in front of the test server that counts the bytes it passes to the
browser on the game page's sockets: what the wire carries, compressed or not, frame
headers included (the page itself only ever sees a frame decompressed)."""

import contextlib
import socket
import threading


class CountingRelay:
    """Listens on a loopback port and relays every connection to ``upstream`` (host,
    port). ``socket_bytes`` is the number of bytes sent to the browser so far on the
    connections that asked for a socket (``GET /ws/``); it is counted before the bytes
    are passed on, so once the page has a frame, its bytes are in the count."""

    def __init__(self, upstream):
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.socket_bytes = 0
        self.lock = threading.Lock()
        self.open = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                browser, _ = self.listener.accept()
            except OSError:  # closed
                return
            server = socket.create_connection(self.upstream)
            self.open += [browser, server]
            kind = {"socket": False}
            threading.Thread(target=self._up, args=(browser, server, kind), daemon=True).start()
            threading.Thread(target=self._down, args=(server, browser, kind), daemon=True).start()

    def _up(self, browser, server, kind):
        first = True
        while data := self._recv(browser):
            if first:
                kind["socket"] = data.startswith(b"GET /ws/")
                first = False
            try:
                server.sendall(data)
            except OSError:  # the relay is closing
                break
        self._shut(server)

    def _down(self, server, browser, kind):
        while data := self._recv(server):
            if kind["socket"]:
                with self.lock:
                    self.socket_bytes += len(data)
            try:
                browser.sendall(data)
            except OSError:
                break
        self._shut(browser)

    @staticmethod
    def _recv(conn):
        try:
            return conn.recv(65536)
        except OSError:
            return b""

    @staticmethod
    def _shut(conn):
        with contextlib.suppress(OSError):
            conn.shutdown(socket.SHUT_WR)

    def close(self):
        self.listener.close()
        for conn in self.open:
            with contextlib.suppress(OSError):
                conn.close()
