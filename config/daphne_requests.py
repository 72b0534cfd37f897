"""Daphne's requests leave the body to Django.

Daphne's HTTP request is Twisted's ``http.Request``, which by default parses every POST
body itself, before daphne hands the raw body to the application: it builds an
``email.message.EmailMessage`` to read the Content-Type, then decodes a form
(``parse_qs``) or a multipart upload into ``request.args``. Daphne never reads
``args``: Django parses the body again from the raw bytes. So every POST (every tap of
a page whose socket is down) paid for a parse nobody used (a measurable share of the
web workers' Python time under ``bench/load.py``: docs/benchmarks.md), and a large
upload was held in memory twice.
Twisted turns it off with its own parameter of ``http.Request``
(``parsePOSTFormSubmission``); daphne offers no setting for it, so
``leave_bodies_to_the_application`` passes it to daphne's request class. Nothing
changes without daphne (another ASGI server, the test client).
"""


def leave_bodies_to_the_application():
    try:
        from daphne.http_protocol import WebRequest
    except ImportError:  # not running under daphne
        return
    init = WebRequest.__init__
    if getattr(init, "leaves_bodies", False):
        return

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("parsePOSTFormSubmission", False)
        init(self, *args, **kwargs)

    __init__.leaves_bodies = True
    WebRequest.__init__ = __init__
