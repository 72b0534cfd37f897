from django.contrib import admin

from chat.models import ModerationAction


@admin.register(ModerationAction)
class ModerationActionAdmin(admin.ModelAdmin):
    """The record of moderation, for site staff: to read, never to change."""

    list_display = ["at", "league", "actor_name", "action", "subject", "reason"]
    list_filter = ["action"]
    search_fields = ["actor_name", "subject", "reason"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
