"""Email backends for tests: a mail server that is down; a directory of sent mail."""

import os
import smtplib

from django.core.mail.backends import filebased
from django.core.mail.backends.base import BaseEmailBackend


class FailingBackend(BaseEmailBackend):
    """Every send fails, as with an SMTP server that refuses the message."""

    def send_messages(self, email_messages):
        raise smtplib.SMTPException("554 the mail server is down (test)")


class RefusingConnectionBackend(BaseEmailBackend):
    """Every send fails before SMTP even starts (connection refused)."""

    def send_messages(self, email_messages):
        raise ConnectionRefusedError(111, "Connection refused (test)")


class DirectoryBackend(filebased.EmailBackend):
    """Each sent message appended to a file in ``$TEST_MAIL_DIR``: the browser tests'
    server (another process) writes its mail there and the test reads it
    (``sent_mail`` in tests/e2e/conftest.py)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("file_path", os.environ["TEST_MAIL_DIR"])
        super().__init__(*args, **kwargs)
