"""Moderation: a hidden message shows as "hidden by an admin" to others and stays
readable for the league's admins; a block hides the author's messages for the blocker
everywhere; a mute says why and until when; every action is recorded, read-only."""

import pytest
from django.contrib import admin
from django.test import Client, RequestFactory
from django.urls import reverse

from chat import public, services
from chat.models import ModerationAction, Report
from tests.leagues.test_concurrency import logged_in


def say(world, name, text):
    token = "".join(c if c.isalnum() else "-" for c in text)
    message, _ = services.post(world["cast"][name], world["game"], text=text, token=token)
    return message


def table_of(world, name):
    client = logged_in(world["cast"][name])
    return client.get(reverse("rummy:table", args=[world["game"].pk])).content.decode()


def test_a_hidden_message(world):
    message = say(world, "carol", "something rude")
    services.set_hidden(world["cast"]["bob"], message.pk, True, "rude")
    for name in ("erin", "hank", "carol"):
        page = table_of(world, name)
        assert "something rude" not in page and "hidden by an admin" in page
    for name in ("alice", "bob"):
        page = table_of(world, name)
        assert "something rude" in page and "hidden by an admin" in page
    (entry,) = ModerationAction.objects.all()
    assert (entry.actor_name, entry.action, entry.reason) == ("Bob", "hidden", "rude")


def test_a_hidden_message_reaches_the_sockets_changed(world):
    message = say(world, "carol", "oops")
    services.set_hidden(world["cast"]["bob"], message.pk, True)
    event = {"message_id": message.pk, "new": False}
    for_erin = public.deliver(world["cast"]["erin"], world["game"].pk, event)
    assert f'id="chat-msg-{message.pk}"' in for_erin and 'hx-swap-oob="true"' in for_erin
    assert "oops" not in for_erin
    assert "oops" in public.deliver(world["cast"]["alice"], world["game"].pk, event)


def test_a_block_hides_the_authors_messages_for_the_blocker_everywhere(world):
    say(world, "gus", "gus was here")
    assert "gus was here" not in table_of(world, "carol")
    thread = logged_in(world["cast"]["carol"]).get(reverse("chat:thread", args=[world["game"].pk]))
    assert b"gus was here" not in thread.content
    assert "gus was here" in table_of(world, "hank")
    # Unblocked, they read him again.
    services.set_block(world["cast"]["carol"], world["cast"]["gus"], False)
    assert "gus was here" in table_of(world, "carol")


def test_a_block_keeps_the_authors_messages_out_of_the_unread_count(world):
    say(world, "gus", "one")
    assert public.unread_games(world["cast"]["carol"], [world["game"].pk]) == set()
    assert public.unread_games(world["cast"]["hank"], [world["game"].pk]) == {world["game"].pk}


def test_a_mute_says_why_and_until_when_and_is_recorded(world):
    services.mute(world["cast"]["alice"], world["league"], world["cast"]["gus"], 2, "Spamming")
    with pytest.raises(services.ChatRefused) as refused:
        services.post(world["cast"]["gus"], world["game"], text="hello", token="g")
    assert "Spamming" in refused.value.message and "until" in refused.value.message
    assert "Spamming" in table_of(world, "gus")
    assert ModerationAction.objects.filter(action="muted", actor_name="Alice").exists()
    # An admin may not be muted, nor may a member mute.
    with pytest.raises(services.ChatRefused):
        services.mute(world["cast"]["alice"], world["league"], world["cast"]["bob"], 1, "x")
    with pytest.raises(services.ChatRefused):
        services.mute(world["cast"]["carol"], world["league"], world["cast"]["gus"], 1, "x")


def test_reports_reach_the_leagues_admins(world):
    message = say(world, "gus", "buy cheap chips")
    services.report(world["cast"]["hank"], message.pk, "spam", "an advert")
    services.report(world["cast"]["hank"], message.pk, "spam", "again")  # once is enough
    assert Report.objects.count() == 1
    page = logged_in(world["cast"]["bob"]).get(reverse("chat:league", args=[world["league"].slug]))
    assert b"buy cheap chips" in page.content and b"an advert" in page.content


def test_site_staff_read_the_record_in_djangos_admin_and_cannot_change_it(world):
    message = say(world, "carol", "x")
    services.set_hidden(world["cast"]["bob"], message.pk, True, "why not")
    model_admin = admin.site._registry[ModerationAction]
    request = RequestFactory().get("/admin/")
    request.user = world["cast"]["alice"]
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
    assert not model_admin.has_add_permission(request)
    entry = ModerationAction.objects.get()
    with pytest.raises(ValueError):
        entry.save()
    staff = world["cast"]["dave"]
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    response = client.get(reverse("admin:chat_moderationaction_changelist"))
    assert response.status_code == 200 and b"why not" in response.content
