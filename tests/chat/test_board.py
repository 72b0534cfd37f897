"""A league's board: members post, admins pin (the announcement shows on the league
page and on members' home pages until unpinned), new posts count as unread, admins may
lock it to admins only; the permission matrix of its actions."""

import pytest
from django.urls import reverse

from chat import board, services
from chat.models import BoardPost, LeagueChat, ModerationAction
from tests.chat.conftest import BOARD_MODERATE, BOARD_READ, ROLES, client_for, outcome

# the board is the league's, not a game's: every member posts on it (but Erin is muted)
POST = BOARD_READ | {"muted": "refused"}


def url(world):
    return reverse("chat:board", args=[world["league"].slug])


@pytest.mark.parametrize("role", ROLES)
def test_reading(world, role):
    BoardPost.objects.create(
        league=world["league"], author=world["cast"]["carol"], text="Season starts Monday"
    )
    response = client_for(world, role).get(url(world))
    assert outcome(response, b"Season starts Monday" in response.content) == BOARD_READ[role]


@pytest.mark.parametrize("role", ROLES)
def test_posting(world, role):
    response = client_for(world, role).post(
        url(world), {"action": "post", "text": "Hello league", "token": "t"}
    )
    assert outcome(response, BoardPost.objects.exists()) == POST[role]


@pytest.mark.parametrize("role", ROLES)
def test_pinning(world, role):
    found = BoardPost.objects.create(league=world["league"], author=world["cast"]["bob"], text="x")
    response = client_for(world, role).post(url(world), {"action": "pin", "post": found.pk})
    found.refresh_from_db()
    assert outcome(response, found.pinned) == BOARD_MODERATE[role]


@pytest.mark.parametrize("role", ROLES)
def test_locking(world, role):
    response = client_for(world, role).post(url(world), {"action": "lock"})
    locked = LeagueChat.objects.filter(board_locked=True).exists()
    assert outcome(response, locked) == BOARD_MODERATE[role]


def test_a_pinned_announcement_shows_until_unpinned(world):
    bob, hank = world["cast"]["bob"], world["cast"]["hank"]
    found, _ = board.post(bob, world["league"], "Season starts Monday", "a")
    board.set_pinned(bob, found.pk, True)
    hank_client = client_for(world, "spectator")
    assert "Season starts Monday" in hank_client.get(reverse("home")).content.decode()
    league_page = hank_client.get(world["league"].get_absolute_url()).content.decode()
    assert "Season starts Monday" in league_page
    dave = client_for(world, "outsider")
    assert "Season starts Monday" not in dave.get(reverse("home")).content.decode()
    board.set_pinned(bob, found.pk, False)
    assert "Season starts Monday" not in hank_client.get(reverse("home")).content.decode()
    actions = list(ModerationAction.objects.values_list("action", flat=True))
    assert actions == ["unpinned", "pinned"]
    assert hank.pk


def test_new_posts_count_as_unread_until_the_board_is_read(world):
    league = world["league"]
    board.post(world["cast"]["carol"], league, "one", "a")
    board.post(world["cast"]["carol"], league, "two", "b")
    hank = world["cast"]["hank"]
    assert board.unread(hank, league) == 2
    assert board.unread(world["cast"]["carol"], league) == 0  # her own
    client_for(world, "spectator").get(url(world))
    assert board.unread(hank, league) == 0


def test_a_locked_board_takes_posts_from_admins_only(world):
    league = world["league"]
    board.set_locked(world["cast"]["alice"], league, True)
    with pytest.raises(services.ChatRefused, match="locked"):
        board.post(world["cast"]["carol"], league, "hi", "a")
    board.post(world["cast"]["bob"], league, "admins speaking", "b")
    assert BoardPost.objects.count() == 1


def test_hostile_posts_are_refused_in_words(world):
    carol = client_for(world, "member")
    for text in ("x" * 2001, "tab\there", "rtl\u202e", "", "   "):
        response = carol.post(url(world), {"action": "post", "text": text, "token": "t"})
        assert response.status_code == 302
    assert not BoardPost.objects.exists()
    # A post keeps its line breaks, and is posted once per token.
    for _ in range(3):
        carol.post(url(world), {"action": "post", "text": "a\r\nb", "token": "same"})
    assert list(BoardPost.objects.values_list("text", flat=True)) == ["a\nb"]
