"""Every chat action × the one cast (owner, admin, member, outsider, anonymous) plus a
member who only watches, a muted player and a blocked player, on both lanes: the HTTP
pages (plain and HTMX) here, the game's socket in ``test_socket_permissions``.

Reading the rows: "ok" the action happened; "refused" a clear message and nothing
changed; 403 or 404 (a private league's game does not exist for an outsider); "login"
the anonymous visitor is sent to log in."""

import pytest
from django.test import Client
from django.urls import reverse

from chat import services
from chat.models import Block, LeagueChat, Message, ModerationAction, Mute, ReadMark, Report
from rummy import play
from tests.chat.conftest import ROLES, client_for
from tests.chat.conftest import outcome as page_outcome


def message_by(world, name, text="hello"):
    return Message.objects.create(
        game=world["game"],
        league=world["league"],
        author=world["cast"][name],
        text=text,
        token=f"{name}-{text}",
    )


def outcome(response, changed):
    if response.status_code in (403, 429) and b'class="chat-flash shown"' in response.content:
        return "refused"  # the HTMX answer: the refusal's words in the drawer
    return page_outcome(response, changed)


READ = dict.fromkeys(ROLES, "ok") | {"outsider": 404, "anonymous": "login"}
WRITE = {
    "owner": "refused",
    "admin": "refused",
    "member": "ok",
    "spectator": "refused",
    "outsider": 404,
    "anonymous": "login",
    "muted": "refused",
    "blocked": "ok",
}
MODERATE = {
    "owner": "ok",
    "admin": "ok",
    "member": 403,
    "spectator": 403,
    "outsider": 404,
    "anonymous": "login",
    "muted": 403,
    "blocked": 403,
}


@pytest.mark.parametrize("role", ROLES)
def test_the_drawer_is_on_the_game_page_of_readers_only(world, role):
    response = client_for(world, role).get(reverse("rummy:table", args=[world["game"].pk]))
    page = response.content.decode()
    shown = 'id="chat-drawer"' in page
    expected = READ[role]
    if expected == "ok":
        assert response.status_code == 200 and shown
        # Only writers get the form; the watchers read.
        writes = WRITE[role] == "ok"
        assert ('id="chat-form"' in page) is writes or role == "muted"
        if role == "muted":
            assert "Shouting at everyone" in page and 'id="chat-form"' not in page
    else:
        assert not shown and outcome(response, False) == expected


@pytest.mark.parametrize("role", ROLES)
def test_reading_the_thread(world, role):
    message_by(world, "carol", "secret plans")
    response = client_for(world, role).get(reverse("chat:thread", args=[world["game"].pk]))
    got = outcome(response, b"secret plans" in response.content)
    assert got == READ[role]


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize("role", ROLES)
def test_writing(world, role, htmx):
    response = client_for(world, role, htmx).post(
        reverse("chat:post", args=[world["game"].pk]), {"text": "hi all", "token": "abc"}
    )
    assert outcome(response, Message.objects.filter(text="hi all").exists()) == WRITE[role]


@pytest.mark.parametrize("role", ROLES)
def test_the_read_mark(world, role):
    message = message_by(world, "carol")
    response = client_for(world, role).post(
        reverse("chat:read", args=[world["game"].pk]), {"last": message.pk}
    )
    changed = ReadMark.objects.filter(last_seen=message.pk).exists()
    assert outcome(response, changed or response.status_code == 204) == READ[role]


@pytest.mark.parametrize("role", ROLES)
def test_reporting(world, role):
    message = message_by(world, "erin")
    response = client_for(world, role).post(
        reverse("chat:message", args=[message.pk]), {"action": "report", "reason": "rude"}
    )
    expected = READ[role] if role != "muted" else "ok"
    assert outcome(response, Report.objects.exists()) == expected


@pytest.mark.parametrize("role", ROLES)
def test_blocking(world, role):
    message = message_by(world, "hank" if role != "spectator" else "carol")
    response = client_for(world, role).post(
        reverse("chat:message", args=[message.pk]), {"action": "block"}
    )
    changed = Block.objects.filter(blocked=message.author).exists()
    assert outcome(response, changed) == READ[role]


@pytest.mark.parametrize("role", ROLES)
def test_hiding(world, role):
    message = message_by(world, "gus")
    response = client_for(world, role).post(
        reverse("chat:message", args=[message.pk]), {"action": "hide", "reason": "rude"}
    )
    message.refresh_from_db()
    assert outcome(response, message.hidden) == MODERATE[role]
    assert ModerationAction.objects.filter(action="hidden").exists() is message.hidden


@pytest.mark.parametrize("role", ROLES)
def test_muting(world, role):
    message = message_by(world, "hank")
    response = client_for(world, role).post(
        reverse("chat:message", args=[message.pk]),
        {"action": "mute", "days": "3", "reason": "spam"},
    )
    changed = Mute.objects.filter(user=world["cast"]["hank"]).exists()
    assert outcome(response, changed) == MODERATE[role]


@pytest.mark.parametrize("role", ROLES)
def test_the_league_moderation_page(world, role):
    message = message_by(world, "gus", "bad words")
    Report.objects.create(message=message, reporter=world["cast"]["carol"], reason="rude")
    response = client_for(world, role).get(reverse("chat:league", args=[world["league"].slug]))
    assert outcome(response, b"bad words" in response.content) == MODERATE[role]


@pytest.mark.parametrize("role", ROLES)
def test_letting_spectators_talk(world, role):
    response = client_for(world, role).post(
        reverse("chat:league", args=[world["league"].slug]),
        {"action": "settings", "spectators_may_talk": "on"},
    )
    changed = LeagueChat.objects.filter(spectators_may_talk=True).exists()
    assert outcome(response, changed) == MODERATE[role]


def test_a_spectator_writes_once_the_league_allows_it(world):
    LeagueChat.objects.create(league=world["league"], spectators_may_talk=True)
    response = client_for(world, "spectator").post(
        reverse("chat:post", args=[world["game"].pk]), {"text": "go on!", "token": "x"}
    )
    assert outcome(response, Message.objects.filter(text="go on!").exists()) == "ok"


def test_a_public_leagues_watcher_who_is_no_member_sees_nothing(cast, public_league):
    game = play.open_table(public_league, cast["carol"], 2)
    Message.objects.create(
        game=game, league=public_league, author=cast["carol"], text="members only", token="a"
    )
    dave = Client()
    dave.force_login(cast["dave"])
    page = dave.get(reverse("rummy:table", args=[game.pk]))
    assert page.status_code == 200  # he may watch the game…
    assert b"chat-drawer" not in page.content and b"members only" not in page.content
    assert dave.get(reverse("chat:thread", args=[game.pk])).status_code == 404  # …not its chat
    response = dave.post(reverse("chat:post", args=[game.pk]), {"text": "x", "token": "b"})
    assert response.status_code == 404 and Message.objects.count() == 1


def test_a_practice_game_has_no_chat(cast):
    game = play.start_practice(cast["carol"], 1, "beginner")
    carol = Client()
    carol.force_login(cast["carol"])
    assert b"chat-drawer" not in carol.get(reverse("rummy:table", args=[game.pk])).content
    assert carol.get(reverse("chat:thread", args=[game.pk])).status_code == 404
    with pytest.raises(services.ChatRefused):
        services.post(cast["carol"], game, text="alone", token="c")
