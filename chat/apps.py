from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = _("Chat")

    def ready(self):
        from chat import personal
        from leagues.personal import account_deleted

        # The chat's part of a player's download, and of their account's deletion.
        personal.register_sections()
        account_deleted.connect(personal.forget, dispatch_uid="chat.personal.forget")
