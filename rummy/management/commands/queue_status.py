"""What the background work's queue looks like (``rummy.background.queue.status``)."""

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from rummy.background import queue


class Command(BaseCommand):
    help = _(
        "Print whether the background work keeps up: the queue's depth, the oldest due "
        "job's age, failures in the last hour."
    )

    def handle(self, *args, **options):
        status = queue.status()
        lines = [
            _("jobs due and waiting: %(n)d") % {"n": status["depth"]},
            _("oldest due job waiting: %(s)s s") % {"s": status["oldest_due_seconds"]},
            _("jobs running: %(n)d") % {"n": status["running"]},
            _("failures in the last hour: %(n)d") % {"n": status["failed_last_hour"]},
            _("keeping up") if status["keeping_up"] else _("falling behind"),
        ]
        self.stdout.write("\n".join(lines))
