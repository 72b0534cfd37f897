from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from leagues import erasure
from leagues import seasons as season_service
from leagues.forms import NoControlCharacters
from leagues.models import AdminAction, Invite, League, Membership, Season, User, Vacation
from leagues.record import record, season_values
from leagues.services import LeagueError

# The admin edits the same names as the site's own forms, under the same rules: no
# control or invisible format characters (``leagues.validators``).
_USER_NAMES = ("username", "display_name", "email", "first_name", "last_name")


class UserAdminChangeForm(NoControlCharacters, UserChangeForm):
    one_line_fields = _USER_NAMES


class UserAdminCreationForm(NoControlCharacters, AdminUserCreationForm):
    one_line_fields = _USER_NAMES


class LeagueAdminForm(NoControlCharacters, forms.ModelForm):
    one_line_fields = ("name",)
    multiline_fields = ("description",)


class SeasonAdminForm(NoControlCharacters, forms.ModelForm):
    one_line_fields = ("name",)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    form = UserAdminChangeForm
    add_form = UserAdminCreationForm
    list_display = [
        "username",
        "display_name",
        "email",
        "email_verified",
        "is_staff",
        "date_joined",
    ]
    list_filter = ["is_staff", "is_superuser", "is_active", "email_verified"]
    search_fields = ["username", "display_name", "email"]
    actions = ["delete_accounts"]
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (_("Carousel"), {"fields": ["display_name", "email_verified"]}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ["wide"],
                "fields": ["username", "display_name", "email", "password1", "password2"],
            },
        ),
    )

    def has_delete_permission(self, request, obj=None):
        # Removing the row would take the player's seats, and with them every game they
        # sat at, from the other players: an account is deleted the site's way instead
        # (``leagues.erasure``, the action below), which keeps the seats under a neutral
        # name.
        return False

    @admin.action(description=_("Delete the selected accounts (seats stay, anonymous)"))
    def delete_accounts(self, request, queryset):
        deleted = 0
        for user in queryset.filter(deleted_at__isnull=True, bot_level=""):
            try:
                erasure.delete_account(user)
            except LeagueError as error:
                # The account is a league's only owner: hand the league over first.
                self.message_user(request, f"{user.pk}: {error}", messages.WARNING)
            else:
                deleted += 1
        if deleted:
            self.message_user(
                request,
                ngettext("%(n)d account deleted.", "%(n)d accounts deleted.", deleted)
                % {"n": deleted},
                messages.SUCCESS,
            )


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    form = LeagueAdminForm
    list_display = ["name", "slug", "visibility", "member_count", "created_at"]
    list_filter = ["visibility"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]

    @admin.display(description=_("members"))
    def member_count(self, obj):
        return obj.memberships.count()


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "league", "role", "joined_at"]
    list_filter = ["role", "league"]
    search_fields = ["user__username", "user__display_name", "league__name"]
    autocomplete_fields = ["user", "league"]


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = [
        "league",
        "short_token",
        "created_by",
        "created_at",
        "expires_at",
        "uses",
        "max_uses",
        "revoked_at",
    ]
    list_filter = ["league", ("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["league__name", "token"]
    readonly_fields = ["token", "uses"]
    autocomplete_fields = ["league", "created_by"]

    @admin.display(description=_("token"))
    def short_token(self, obj):
        return f"{obj.token[:6]}…"


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    form = SeasonAdminForm
    list_display = [
        "name",
        "league",
        "status",
        "starts_on",
        "ends_on",
        "target_score",
        "knock_limit",
        "turn_seconds",
        "quiet_pause",
        "vacation_days",
    ]
    list_filter = ["status", "league"]
    search_fields = ["name", "league__name"]
    date_hierarchy = "starts_on"
    # A season starts and closes through the league's services (a scheduled season's
    # plan is stored as it starts, standings are frozen as it closes), so the status
    # changes here by the actions below, never by editing the field.
    readonly_fields = ["status", "started_at", "closed_at", "final_standings"]
    filter_horizontal = ["champions"]
    actions = ["start_seasons", "close_seasons"]

    def save_model(self, request, obj, form, change):
        # Settings changed here are a league's admin action too: recorded with the
        # values before and after, in the transaction of the admin's save.
        before = season_values(Season.objects.get(pk=obj.pk)) if change else None
        super().save_model(request, obj, form, change)
        after = season_values(obj)
        if before is None:
            record(
                obj.league,
                request.user,
                AdminAction.Action.SEASON_CREATED,
                subject=obj.name,
                after=after,
            )
        elif before != after:
            changed = [key for key in after if before[key] != after[key]]
            record(
                obj.league,
                request.user,
                AdminAction.Action.SEASON_CHANGED,
                subject=obj.name,
                before={key: before[key] for key in changed},
                after={key: after[key] for key in changed},
            )

    @admin.action(description=_("Start the selected seasons"))
    def start_seasons(self, request, queryset):
        done = self._each(request, queryset, season_service.start_season)
        if done:
            self.message_user(
                request,
                ngettext("%(n)d season started.", "%(n)d seasons started.", done) % {"n": done},
                messages.SUCCESS,
            )

    @admin.action(description=_("Close the selected seasons (freeze standings)"))
    def close_seasons(self, request, queryset):
        done = self._each(request, queryset, season_service.close_season)
        if done:
            self.message_user(
                request,
                ngettext("%(n)d season closed.", "%(n)d seasons closed.", done) % {"n": done},
                messages.SUCCESS,
            )

    def _each(self, request, queryset, service):
        """``service(season, by=…)`` for each selected season; a refusal is said per season
        and changes nothing of it. Returns how many went through."""
        done = 0
        for season in queryset:
            try:
                service(season, by=request.user)
            except LeagueError as error:
                self.message_user(request, f"{season}: {error}", messages.WARNING)
            else:
                done += 1
        return done


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    """To look at only: a vacation is taken and stopped by its player
    (``leagues.vacations``), which checks the days and tells the turn clock."""

    list_display = ["user", "season", "starts_at", "ends_at", "days"]
    list_filter = ["season__league"]
    search_fields = ["user__username", "season__name"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AdminAction)
class AdminActionAdmin(admin.ModelAdmin):
    """The record of every league's admin actions, to read only: entries are written by
    the actions themselves (``leagues.record``) and never changed or removed."""

    list_display = ["at", "league", "actor_name", "action", "subject"]
    list_filter = ["action", "league"]
    search_fields = ["actor_name", "subject", "league__name"]
    date_hierarchy = "at"
    list_select_related = ["league"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
