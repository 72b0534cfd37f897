"""The record of league admins' actions: every action writes one entry (who, what,
before and after) in its own transaction; refused or rolled-back actions write none;
admins read it on the league's page, staff in Django's admin, and nobody edits it."""

import datetime
from unittest import mock

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from leagues import seasons as season_service
from leagues import services
from leagues.models import AdminAction, Invite, Membership, Season
from leagues.services import LeagueError
from leagues.views.admin_record import ENTRIES_PER_PAGE
from rummy.models import Game

from .conftest import make_game, make_person, make_season

Action = AdminAction.Action


def _only(league):
    entries = list(league.admin_actions.all())
    assert len(entries) == 1, entries
    return entries[0]


# --- each action, recorded ------------------------------------------------------------


def test_season_created(cast, league):
    season_service.create_season(
        league,
        by=cast.admin,
        name="Autumn",
        starts_on=datetime.date(2030, 9, 1),
        ends_on=datetime.date(2030, 11, 30),
    )
    entry = _only(league)
    assert (entry.action, entry.actor, entry.actor_name) == (
        Action.SEASON_CREATED,
        cast.admin,
        cast.admin.name,
    )
    assert entry.subject == "Autumn"
    assert entry.before == {}
    assert entry.after["starts_on"] == "2030-09-01"
    assert entry.after["target_score"] == Season._meta.get_field("target_score").default


def test_season_started(cast, league):
    planned = make_season(league, status=Season.Status.PLANNED)
    season_service.start_season(planned, by=cast.owner)
    entry = _only(league)
    assert entry.action == Action.SEASON_STARTED
    assert entry.actor == cast.owner
    assert (entry.before, entry.after) == ({"status": "planned"}, {"status": "active"})


def test_season_closed_after_its_end(cast, league, season):
    season_service.close_season(season, by=cast.admin)
    entry = _only(league)
    assert entry.action == Action.SEASON_CLOSED
    assert entry.before == {"status": "active", "ends_on": season.ends_on.isoformat()}
    assert entry.after == {"status": "closed", "closed_on": timezone.localdate().isoformat()}


def test_season_closed_before_its_end_is_ended_early(cast, league):
    season = make_season(league, start=timezone.localdate() - datetime.timedelta(days=3))
    season_service.close_season(season, by=cast.owner)
    assert _only(league).action == Action.SEASON_ENDED_EARLY


def test_game_voided(cast, league, season):
    game = make_game(
        league, season, [(cast.owner, 0, 0, False), (cast.member, 0, 0, False)], Game.Status.ACTIVE
    )
    season_service.void_game(game, cast.admin)
    entry = _only(league)
    assert entry.action == Action.GAME_VOIDED
    assert (entry.before, entry.after) == ({"status": "active"}, {"status": "voided"})
    assert str(game.pk) in entry.subject


def test_role_changed(cast, league):
    owner = league.memberships.get(user=cast.owner)
    target = league.memberships.get(user=cast.member)
    services.set_role(owner, target, Membership.Role.ADMIN)
    entry = _only(league)
    assert entry.action == Action.ROLE_CHANGED
    assert entry.subject == cast.member.name
    assert (entry.before, entry.after) == ({"role": "member"}, {"role": "admin"})


def test_role_set_to_what_it_was_records_nothing(cast, league):
    owner = league.memberships.get(user=cast.owner)
    services.set_role(owner, league.memberships.get(user=cast.member), Membership.Role.MEMBER)
    assert not league.admin_actions.exists()


def test_member_removed(cast, league):
    by = league.memberships.get(user=cast.admin)
    services.remove_member(by, league.memberships.get(user=cast.member))
    entry = _only(league)
    assert entry.action == Action.MEMBER_REMOVED
    assert entry.actor == cast.admin
    assert (entry.before, entry.after) == ({"role": "member"}, {})


def test_invite_created_and_revoked(cast, league):
    invite = services.create_invite(cast.admin, league, max_uses=3)
    services.revoke_invite(invite, cast.owner)
    revoked, created = league.admin_actions.all()
    assert (created.action, created.actor, created.after) == (
        Action.INVITE_CREATED,
        cast.admin,
        {"expires_at": None, "max_uses": 3},
    )
    assert (revoked.action, revoked.actor) == (Action.INVITE_REVOKED, cast.owner)
    assert (revoked.before, revoked.after) == ({"revoked": False}, {"revoked": True})
    # The record names the link without making it usable.
    assert invite.token not in created.subject


def test_views_record_who_acted(client, cast, league):
    planned = make_season(league, status=Season.Status.PLANNED)
    client.force_login(cast.admin)
    client.post(reverse("leagues:season_start", args=[league.slug, planned.pk]))
    client.post(reverse("leagues:invites", args=[league.slug]), {"valid_days": "3"})
    assert {(e.action, e.actor) for e in league.admin_actions.all()} == {
        (Action.SEASON_STARTED, cast.admin),
        (Action.INVITE_CREATED, cast.admin),
    }


def test_settings_changed_in_django_admin_are_recorded(client, cast, league, season):
    boss = make_person("boss", is_staff=True, is_superuser=True)
    client.force_login(boss)
    url = reverse("admin:leagues_season_change", args=[season.pk])
    form = client.get(url).context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if value is not None and name not in ("champions",)
    }
    data.update(
        league=league.pk,
        starts_on=season.starts_on.isoformat(),
        ends_on=season.ends_on.isoformat(),
        target_score="200",
    )
    for flag in ("hints_allowed", "quiet_pause", "bot_games_count", "bot_stands_in"):
        if not data.get(flag):
            data.pop(flag, None)
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    entry = _only(league)
    assert entry.action == Action.SEASON_CHANGED
    assert (entry.before, entry.after) == ({"target_score": 150}, {"target_score": 200})
    assert entry.actor == boss


# --- refused or rolled back: no entry -------------------------------------------------


def test_refused_actions_leave_no_entry(cast, league, season):
    with pytest.raises(LeagueError):
        season_service.start_season(season, by=cast.owner)  # already active
    with pytest.raises(LeagueError):
        services.set_role(
            league.memberships.get(user=cast.admin),
            league.memberships.get(user=cast.member),
            Membership.Role.ADMIN,
        )  # only owners change roles
    with pytest.raises(LeagueError):
        services.remove_member(
            league.memberships.get(user=cast.admin), league.memberships.get(user=cast.owner)
        )
    invite = Invite.objects.create(league=league, revoked_at=timezone.now())
    with pytest.raises(LeagueError):
        services.revoke_invite(invite, cast.owner)
    with pytest.raises(LeagueError):
        season_service.create_season(
            league,
            by=cast.owner,
            name="Overlap",
            starts_on=season.starts_on,
            ends_on=season.ends_on,
        )
    assert not AdminAction.objects.exists()


def test_second_revoke_of_a_stale_copy_records_once(cast, league):
    invite = Invite.objects.create(league=league)
    stale = Invite.objects.get(pk=invite.pk)
    services.revoke_invite(invite, cast.owner)
    with pytest.raises(LeagueError):
        services.revoke_invite(stale, cast.admin)
    assert _only(league).actor == cast.owner


def test_action_that_fails_after_recording_leaves_no_entry(cast, league, season):
    # Freezing the standings fails after the season's row was changed: the whole close
    # is undone, its entry with it.
    with (
        mock.patch("leagues.seasons.freeze", side_effect=RuntimeError("disk full")),
        pytest.raises(RuntimeError),
    ):
        season_service.close_season(season, by=cast.owner)
    season.refresh_from_db()
    assert season.status == Season.Status.ACTIVE
    assert not AdminAction.objects.exists()


def test_rolled_back_transaction_takes_its_entry_along(cast, league):
    with pytest.raises(RuntimeError), transaction.atomic():
        services.create_invite(cast.owner, league)
        assert league.admin_actions.count() == 1
        raise RuntimeError("the caller's transaction fails")
    assert not Invite.objects.exists()
    assert not AdminAction.objects.exists()


# --- cannot be edited -----------------------------------------------------------------


def test_an_entry_is_never_changed(cast, league):
    entry = services.create_invite(cast.owner, league) and _only(league)
    entry.subject = "something else"
    with pytest.raises(ValueError):
        entry.save()
    assert _only(league).subject != "something else"


@pytest.fixture
def staff_client(client, db):
    client.force_login(make_person("boss", is_staff=True, is_superuser=True))
    return client


def test_django_admin_reads_but_cannot_add_change_or_delete(staff_client, cast, league):
    services.create_invite(cast.owner, league)
    entry = _only(league)
    changelist = staff_client.get(reverse("admin:leagues_adminaction_changelist"))
    assert changelist.status_code == 200
    assert str(Action.INVITE_CREATED.label) in changelist.content.decode()
    change_url = reverse("admin:leagues_adminaction_change", args=[entry.pk])
    page = staff_client.get(change_url)
    assert page.status_code == 200  # to look at
    assert not page.context["has_change_permission"]
    assert staff_client.post(change_url, {"subject": "x"}).status_code == 403
    assert staff_client.get(reverse("admin:leagues_adminaction_add")).status_code == 403
    delete_url = reverse("admin:leagues_adminaction_delete", args=[entry.pk])
    assert staff_client.post(delete_url, {"post": "yes"}).status_code == 403
    bulk = staff_client.post(
        reverse("admin:leagues_adminaction_changelist"),
        {"action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"},
    )
    assert bulk.status_code in (200, 302)
    assert _only(league).subject == entry.subject


def test_the_league_page_offers_no_way_to_change(client, cast, league):
    services.create_invite(cast.owner, league)
    client.force_login(cast.owner)
    url = reverse("leagues:admin_record", args=[league.slug])
    assert 'method="post" action="/leagues/' not in client.get(url).content.decode()
    assert client.post(url).status_code == 405


# --- the league's page ----------------------------------------------------------------


def _page(client, league, **query):
    return client.get(reverse("leagues:admin_record", args=[league.slug]), query)


def test_page_shows_entries_with_before_and_after(client, cast, league):
    owner = league.memberships.get(user=cast.owner)
    services.set_role(owner, league.memberships.get(user=cast.member), Membership.Role.ADMIN)
    client.force_login(cast.admin)
    text = _page(client, league).content.decode()
    assert "Role changed" in text
    assert cast.member.name in text
    assert "Member → Admin" in text
    assert cast.owner.name in text


def test_page_filters_by_action_and_by_person(client, cast, league):
    services.create_invite(cast.owner, league)
    services.create_invite(cast.admin, league)
    planned = make_season(league, status=Season.Status.PLANNED)
    season_service.start_season(planned, by=cast.admin)
    client.force_login(cast.owner)
    by_action = _page(client, league, action=Action.INVITE_CREATED).context["rows"]
    assert {row["entry"].actor for row in by_action} == {cast.owner, cast.admin}
    assert len(by_action) == 2
    by_person = _page(client, league, by=cast.admin.pk).context["rows"]
    assert {row["entry"].action for row in by_person} == {
        Action.INVITE_CREATED,
        Action.SEASON_STARTED,
    }
    both = _page(client, league, action=Action.SEASON_STARTED, by=cast.owner.pk).context["rows"]
    assert both == []
    # Nonsense filters are ignored, never an error.
    for junk in ({"action": "drop"}, {"by": "abc"}, {"by": "99999999999999999999"}, {"page": "x"}):
        response = _page(client, league, **junk)
        assert response.status_code == 200
        assert len(response.context["rows"]) == 3


def test_page_is_paged(client, cast, league):
    for _ in range(ENTRIES_PER_PAGE + 2):
        services.create_invite(cast.owner, league)
    client.force_login(cast.admin)
    first = _page(client, league)
    assert len(first.context["rows"]) == ENTRIES_PER_PAGE
    assert 'rel="next"' in first.content.decode()
    second = _page(client, league, page=2)
    assert len(second.context["rows"]) == 2


def test_page_shows_only_this_leagues_record(client, cast, league, public_league):
    services.create_invite(cast.owner, public_league)
    client.force_login(cast.owner)
    assert _page(client, league).context["rows"] == []


def test_league_page_links_the_record_for_admins_only(client, cast, league):
    url = reverse("leagues:admin_record", args=[league.slug])
    client.force_login(cast.admin)
    assert url in client.get(league.get_absolute_url()).content.decode()
    client.force_login(cast.member)
    assert url not in client.get(league.get_absolute_url()).content.decode()


@pytest.mark.parametrize(
    ("language", "title", "label"),
    [
        ("lv", "Administratoru žurnāls", "Loma mainīta"),
        ("et", "Administraatorite logi", "Rolli muudeti"),
    ],
)
def test_page_in_latvian_and_estonian(client, cast, league, language, title, label):
    owner = league.memberships.get(user=cast.owner)
    services.set_role(owner, league.memberships.get(user=cast.member), Membership.Role.ADMIN)
    cast.admin.language = language
    cast.admin.save(update_fields=["language"])
    client.force_login(cast.admin)
    text = _page(client, league).content.decode()
    assert title in text
    assert label in text
    # The values too: the roles by their names in the reader's language.
    assert {"lv": "Dalībnieks → Administrators", "et": "Liige → Administraator"}[language] in text
