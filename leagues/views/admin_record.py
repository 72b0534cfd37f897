from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import render
from django.template.defaultfilters import yesno
from django.utils.http import urlencode
from django.views.decorators.http import require_safe

from leagues.access import get_league_for_member, require_league_admin
from leagues.models import AdminAction, Invite, Membership, Season, User

ENTRIES_PER_PAGE = 25

# The names of the values an entry shows, in the reader's language.
# Fields without a label of their own (status, uses...) show their name.
VALUE_LABELS = {
    field.name: field.verbose_name
    for model in (Season, Membership, Invite)
    for field in model._meta.fields
}


# Values that are one of a field's choices are shown by their label.
VALUE_CHOICES = {
    "role": dict(Membership.Role.choices),
    "status": dict(Season.Status.choices),
    "format": dict(Season.Format.choices),
    "round_start": dict(Season.RoundStart.choices),
    "leaver_games": dict(Season.LeaverGames.choices),
    "turn_seconds": dict(Season.TURN_LIMIT_CHOICES),
}


def _shown(key, value):
    if isinstance(value, bool):
        return yesno(value)
    return VALUE_CHOICES.get(key, {}).get(value, value)


@login_required
@require_safe
def admin_record(request, slug):
    """Owners' and admins' page: what the league's admins did, newest first, filtered
    by action and by who acted. To read only: nothing here changes an entry."""
    league = get_league_for_member(request.user, slug)
    membership = require_league_admin(request.user, league)
    entries = league.admin_actions.all()
    action = request.GET.get("action", "")
    if action not in AdminAction.Action.values:
        action = ""
    if action:
        entries = entries.filter(action=action)
    # People who acted in this league, for the filter.
    actors = list(
        User.objects.filter(pk__in=league.admin_actions.values("actor_id")).order_by(
            "display_name", "username"
        )
    )
    actor = request.GET.get("by", "")
    if actor not in {str(person.pk) for person in actors}:
        actor = ""
    if actor:
        entries = entries.filter(actor_id=int(actor))
    page = Paginator(entries, ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    filters = {key: value for key, value in (("action", action), ("by", actor)) if value}
    rows = [
        {
            "entry": entry,
            "changes": [
                (VALUE_LABELS.get(key, key), _shown(key, before), _shown(key, after))
                for key, before, after in entry.changes()
            ],
        }
        for entry in page
    ]
    return render(
        request,
        "leagues/admin_record.html",
        {
            "league": league,
            "membership": membership,
            "page": page,
            "rows": rows,
            "actions": AdminAction.Action.choices,
            "actors": actors,
            "action": action,
            "actor": actor,
            "filter_query": urlencode(filters),
        },
    )
