"""Email backends for tests: a mail server that is down."""

import smtplib

from django.core.mail.backends.base import BaseEmailBackend


class FailingBackend(BaseEmailBackend):
    """Every send fails, as with an SMTP server that refuses the message."""

    def send_messages(self, email_messages):
        raise smtplib.SMTPException("554 the mail server is down (test)")


class RefusingConnectionBackend(BaseEmailBackend):
    """Every send fails before SMTP even starts (connection refused)."""

    def send_messages(self, email_messages):
        raise ConnectionRefusedError(111, "Connection refused (test)")
