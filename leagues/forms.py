"""Every piece of user input comes through one of these forms."""

from datetime import timedelta

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from leagues.models import DEFAULT_RULES, MAX_VACATION_DAYS, League, Membership, Season, User
from leagues.validators import (
    no_control_characters,
    no_control_characters_but_newlines,
    normalize_newlines,
)
from rummy.public import rule_links


class MultilineField(forms.CharField):
    """A textarea's text with its line breaks as plain LF: browsers send CR LF."""

    def to_python(self, value):
        return normalize_newlines(super().to_python(value))


class NoControlCharacters:
    """Form mixin: the listed one-line fields refuse control and invisible format
    characters, the multi-line ones everything of those but line breaks
    (``leagues.validators``). A listed field the form does not have is skipped (the
    admin's forms carry the fields of their page only)."""

    one_line_fields: tuple[str, ...] = ()
    multiline_fields: tuple[str, ...] = ()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.one_line_fields:
            if name in self.fields:
                self.fields[name].validators.append(no_control_characters)
        for name in self.multiline_fields:
            if name in self.fields:
                self.fields[name].validators.append(no_control_characters_but_newlines)


class SignupForm(NoControlCharacters, UserCreationForm):
    one_line_fields = ("username", "display_name", "email")

    class Meta:
        model = User
        fields = ["username", "display_name", "email"]
        help_texts = {
            "round_days": _(
                "Rounds on dates: the first on the start date, then one every this many "
                "days (a week if left empty)."
            ),
            "leaver_games": _(
                "A scheduled season's games of a member who leaves during it: a bot plays "
                "them in their place, or they are voided and the rounds still to come are "
                "planned without them."
            ),
            "display_name": _("What other players see, e.g. “Alice K.”"),
            "email": _(
                "To confirm your account, tell you when it is your move (you choose which "
                "emails), and reset your password."
            ),
        }

    def _post_clean(self):
        super()._post_clean()
        # Django checks the password rules only when the two fields match, so a typo in
        # the confirmation hid "too short" until the next try. Check the first field as
        # well, so that the newcomer sees every problem in one go.
        if self.has_error("password2", "password_mismatch"):
            self.validate_password_for_user(self.instance, password_field_name="password1")

    def clean_email(self):
        # A taken address is NOT an error here: saying so would tell anyone which
        # addresses have accounts. ``services.sign_up`` deals with it.
        return self.cleaned_data["email"].strip()

    def validate_unique(self):
        # The model's own unique check on the address would say the same; the username
        # (public anyway) is still checked.
        exclude = self._get_validation_exclusions() | {"email"}
        try:
            self.instance.validate_unique(exclude=exclude)
        except forms.ValidationError as error:
            self._update_errors(error)

    def clean_display_name(self):
        name = self.cleaned_data["display_name"].strip()
        if not name:
            raise forms.ValidationError(_("Please enter a display name."))
        return name


class LeagueForm(NoControlCharacters, forms.ModelForm):
    one_line_fields = ("name",)
    multiline_fields = ("description",)

    class Meta:
        model = League
        fields = ["name", "description", "visibility"]
        field_classes = {"description": MultilineField}
        widgets = {
            "description": forms.Textarea(attrs={"rows": 3}),
            "visibility": forms.RadioSelect,
        }

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Please give the league a name."))
        return name


class InviteForm(forms.Form):
    valid_days = forms.IntegerField(
        label=_("Expires after (days)"),
        required=False,
        min_value=1,
        max_value=365,
        help_text=_("Leave empty for a link that does not expire."),
    )
    max_uses = forms.IntegerField(
        label=_("Use limit"),
        required=False,
        min_value=1,
        max_value=1000,
        help_text=_("Leave empty for any number of people."),
    )

    def expires_at(self):
        days = self.cleaned_data.get("valid_days")
        return timezone.now() + timedelta(days=days) if days else None


class SeasonForm(NoControlCharacters, forms.ModelForm):
    """A season's dates and house settings (R10). The model checks overlaps."""

    one_line_fields = ("name",)

    target_score = forms.IntegerField(
        label=_("Target score"),
        initial=DEFAULT_RULES.target,
        validators=[MinValueValidator(10), MaxValueValidator(2000)],
        help_text=_("A game ends when a player reaches this score (R9.1; default 150)."),
    )
    knock_limit = forms.IntegerField(
        label=_("Knock limit"),
        initial=DEFAULT_RULES.knock_limit,
        validators=[MinValueValidator(1), MaxValueValidator(50)],
        help_text=_(
            "A player may knock with a hand of this many points or fewer (R6.1; default 5)."
        ),
    )

    # Empty (or left out of an older form) is none, the default.
    vacation_days = forms.IntegerField(
        label=_("Vacation days per player"),
        required=False,
        initial=0,
        min_value=0,
        max_value=MAX_VACATION_DAYS,
        error_messages={"invalid": _("Enter a whole number of days.")},
        help_text=_(
            "Days each player may take off in this season: their turn clocks stop "
            "while they are on vacation. 0 for none."
        ),
    )

    class Meta:
        model = Season
        fields = [
            "name",
            "starts_on",
            "ends_on",
            "target_score",
            "knock_limit",
            "turn_seconds",
            "hints_allowed",
            "bot_games_count",
            "bot_stands_in",
            "quiet_pause",
            "vacation_days",
            "format",
            "games_each",
            "table_size",
            "round_start",
            "round_days",
            "leaver_games",
        ]
        help_texts = {
            "format": _(
                "Open tables: members open tables and others sit down. Scheduled: the "
                "site plans who plays whom, so that every member plays the same number "
                "of games and meets the others about equally often."
            ),
            "quiet_pause": _(
                "The time for a turn does not run during the quiet hours of the player to "
                "move (each player sets theirs, in their own time zone)."
            ),
            "hints_allowed": _(
                "Players may ask for a hint on their turn: the best meld for their hand "
                "is laid out for them, and the game's record says they used one."
            ),
        }
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Left out (an older form): open tables, as before.
        self.fields["format"].required = False
        # The rule ids in the help texts link to the guide's sections (the shared form
        # template shows help texts as HTML; rule_links escapes them first).
        for field in self.fields.values():
            if field.help_text:
                field.help_text = rule_links(field.help_text)

    def clean_vacation_days(self):
        return self.cleaned_data["vacation_days"] or 0

    def clean_format(self):
        return self.cleaned_data["format"] or Season.Format.OPEN


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)


class VacationAheadForm(forms.Form):
    """Vacation days taken ahead: whole days of the player's own calendar."""

    first_day = forms.DateField(
        label=_("First day"), widget=forms.DateInput(attrs={"type": "date"})
    )
    last_day = forms.DateField(
        label=_("Last day"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("From tomorrow on, up to a year ahead (365 days), in your own time zone."),
    )


class VacationNowForm(forms.Form):
    """A vacation started now, for a number of days (24 hours each)."""

    days = forms.IntegerField(
        label=_("Days"),
        initial=1,
        min_value=1,
        max_value=MAX_VACATION_DAYS,
        error_messages={"invalid": _("Enter a whole number of days.")},
    )


class DeleteAccountForm(forms.Form):
    """Deleting one's account (``leagues.erasure``), confirmed with the password."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("That is not your password. Nothing was deleted."), code="password_incorrect"
            )
        return password
