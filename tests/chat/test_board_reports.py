"""Reporting a board post, as a table message is reported: any reader reports it with a
reason from the same list and optional words; the league's admins see the reports on
their moderation page, hide the post (or show it again) and mute its author; every
action is recorded. The permission matrix of each action, on both lanes, and hostile
input answered in words, never with a 500."""

import pytest
from django.urls import reverse

from chat import board, services
from chat.models import BoardPost, BoardReport, ModerationAction, Mute
from leagues.models import League
from tests.chat.conftest import BOARD_MODERATE, BOARD_READ, ROLES, client_for, outcome


def post_by(world, name, text="See you on Monday", **fields):
    return BoardPost.objects.create(
        league=world["league"], author=world["cast"][name], text=text, token=text[:8], **fields
    )


def post_url(found):
    return reverse("chat:board_post", args=[found.league.slug, found.pk])


def moderation_url(world):
    return reverse("chat:league", args=[world["league"].slug])


@pytest.mark.parametrize("role", ROLES)
def test_a_posts_page(world, role):
    found = post_by(world, "hank")
    response = client_for(world, role).get(post_url(found))
    assert outcome(response, b"See you on Monday" in response.content) == BOARD_READ[role]


@pytest.mark.parametrize("role", ROLES)
def test_reporting(world, role):
    found = post_by(world, "hank" if role != "spectator" else "carol")
    response = client_for(world, role).post(
        post_url(found), {"action": "report", "reason": "spam", "words": "an advert"}
    )
    assert outcome(response, BoardReport.objects.exists()) == BOARD_READ[role]


@pytest.mark.parametrize("role", ROLES)
def test_hiding(world, role):
    found = post_by(world, "gus")
    response = client_for(world, role).post(post_url(found), {"action": "hide", "reason": "rude"})
    found.refresh_from_db()
    assert outcome(response, found.hidden) == BOARD_MODERATE[role]
    assert ModerationAction.objects.filter(action="post_hidden").exists() is found.hidden


@pytest.mark.parametrize("role", ROLES)
def test_showing_again(world, role):
    found = post_by(world, "gus", hidden=True)
    response = client_for(world, role).post(post_url(found), {"action": "show"})
    found.refresh_from_db()
    # A hidden post is not there at all for those who do not moderate the board.
    expected = BOARD_MODERATE[role] if BOARD_MODERATE[role] != 403 else 404
    assert outcome(response, not found.hidden) == expected


@pytest.mark.parametrize("role", ROLES)
def test_muting_the_author(world, role):
    found = post_by(world, "hank" if role != "spectator" else "carol")
    response = client_for(world, role).post(
        post_url(found), {"action": "mute", "days": "2", "reason": "spam"}
    )
    changed = Mute.objects.filter(user=found.author).exists()
    assert outcome(response, changed) == BOARD_MODERATE[role]


@pytest.mark.parametrize("role", ROLES)
def test_the_moderation_page_lists_board_reports(world, role):
    found = post_by(world, "gus", "Buy cheap cards")
    BoardReport.objects.create(post=found, reporter=world["cast"]["carol"], reason="spam")
    response = client_for(world, role).get(moderation_url(world))
    assert outcome(response, b"Buy cheap cards" in response.content) == BOARD_MODERATE[role]


@pytest.mark.parametrize("role", ROLES)
def test_closing_a_board_report(world, role):
    found = post_by(world, "gus")
    report = BoardReport.objects.create(post=found, reporter=world["cast"]["carol"], reason="spam")
    response = client_for(world, role).post(
        moderation_url(world), {"action": "close_board_report", "report": report.pk}
    )
    report.refresh_from_db()
    assert outcome(response, report.closed) == BOARD_MODERATE[role]


def test_the_report_flow(world):
    """Carol reports Gus's post; Bob sees it, hides it (the report is closed, the post
    unpinned and gone from the board for the members, still there for the admins) and
    shows it again; each step is recorded with who and why."""
    league, cast = world["league"], world["cast"]
    found = post_by(world, "gus", "Buy cheap cards", pinned=True)
    hank = client_for(world, "spectator")
    assert hank.get(post_url(found)).status_code == 200
    hank.post(post_url(found), {"action": "report", "reason": "spam", "words": "an advert"})
    hank.post(post_url(found), {"action": "report", "reason": "rude"})  # once is enough
    (report,) = BoardReport.objects.all()
    assert (report.reporter, report.reason, report.words) == (cast["hank"], "spam", "an advert")
    bob = client_for(world, "admin")
    page = bob.get(moderation_url(world)).content.decode()
    assert "Buy cheap cards" in page and "Spam or advertising" in page and "an advert" in page
    bob.post(post_url(found), {"action": "hide", "reason": "advertising"})
    found.refresh_from_db()
    report.refresh_from_db()
    assert found.hidden and not found.pinned and report.closed
    board_url = reverse("chat:board", args=[league.slug])
    assert b"Buy cheap cards" not in hank.get(board_url).content
    assert hank.get(post_url(found)).status_code == 404
    admin_board = bob.get(board_url).content.decode()
    assert "Buy cheap cards" in admin_board and "hidden by an admin" in admin_board
    moderation = bob.get(moderation_url(world)).content.decode()
    open_reports = moderation.split("Open reports of board posts")[1].split("Muted members")[0]
    assert "Buy cheap cards" not in open_reports
    bob.post(post_url(found), {"action": "show", "reason": "a mistake"})
    found.refresh_from_db()
    assert not found.hidden
    assert b"Buy cheap cards" in hank.get(board_url).content
    record = list(ModerationAction.objects.values_list("action", "actor_name", "reason"))
    assert record == [("post_shown", "Bob", "a mistake"), ("post_hidden", "Bob", "advertising")]


def test_closing_a_report_leaves_the_post_and_records_it(world):
    found = post_by(world, "gus")
    report = BoardReport.objects.create(post=found, reporter=world["cast"]["carol"], reason="spam")
    board.close_report(world["cast"]["alice"], world["league"], report.pk)
    report.refresh_from_db()
    found.refresh_from_db()
    assert report.closed and not found.hidden
    (entry,) = ModerationAction.objects.all()
    assert (entry.action, entry.actor_name, entry.subject) == ("report_closed", "Alice", "Gus")


def test_a_muted_member_is_shown_why_on_the_board(world):
    found = post_by(world, "hank")
    bob = client_for(world, "admin")
    bob.post(post_url(found), {"action": "mute", "days": "3", "reason": "Too many adverts"})
    hank = client_for(world, "spectator")
    page = hank.get(reverse("chat:board", args=[world["league"].slug])).content.decode()
    assert "Too many adverts" in page and 'id="board-form"' not in page


def test_a_member_cannot_report_their_own_post(world):
    found = post_by(world, "carol")
    with pytest.raises(services.ChatRefused, match="your own post"):
        board.report(world["cast"]["carol"], found.pk, "spam")
    response = client_for(world, "member").post(
        post_url(found), {"action": "report", "reason": "spam"}
    )
    assert response.status_code == 400 and b"your own post" in response.content
    assert not BoardReport.objects.exists()


HOSTILE = [
    ({"action": "report", "reason": "nonsense"}, 400, "Choose a reason from the list."),
    ({"action": "report"}, 400, "Choose a reason from the list."),
    ({"action": "report", "reason": "spam", "words": "w" * 301}, 400, "at most 300"),
    ({"action": "report", "reason": "spam", "words": "w" * 100_000}, 400, "at most 300"),
    ({"action": "report", "reason": "spam", "words": "a\x00b"}, 400, "control characters"),
    ({"action": "report", "reason": "spam", "words": "a\u202eb"}, 400, "invisible characters"),
    ({"action": "report", "reason": "<script>alert(1)</script>"}, 400, "Choose a reason"),
    ({"action": "report", "reason": "spam\x00"}, 400, "Choose a reason"),
    ({"action": "mute", "days": "-1", "reason": "x"}, 400, "from 1 to 365 days"),
    ({"action": "mute", "days": "99999999999", "reason": "x"}, 400, "from 1 to 365 days"),
    ({"action": "mute", "days": "2", "reason": ""}, 400, "Say why"),
    ({"action": "hide", "reason": "r" * 201}, 400, "at most 200"),
    ({"action": "explode"}, 400, "could not be read"),
    ({}, 400, "could not be read"),
]


@pytest.mark.parametrize(("data", "status", "words"), HOSTILE)
def test_hostile_input_is_refused_in_words(world, data, status, words):
    found = post_by(world, "hank")
    response = client_for(world, "admin").post(post_url(found), data)
    assert response.status_code == status
    assert words.lower() in response.content.decode().lower()
    found.refresh_from_db()
    assert not BoardReport.objects.exists() and not found.hidden
    assert not Mute.objects.filter(user=found.author).exists()


def test_post_ids_that_are_not_there(world, cast):
    found = post_by(world, "hank")
    carol = client_for(world, "member")
    slug = world["league"].slug
    for path in (
        f"/leagues/{slug}/board/0/",
        f"/leagues/{slug}/board/{found.pk + 1000}/",
        f"/leagues/{slug}/board/99999999999999999999/",
        f"/leagues/{slug}/board/abc/",
        f"/leagues/no-such-league/board/{found.pk}/",
    ):
        assert carol.get(path).status_code == 404, path
        assert carol.post(path, {"action": "report", "reason": "spam"}).status_code == 404
    # A post of another league, asked for under this league's address.
    other = League.objects.create(name="Other club", slug="other-club")
    elsewhere = BoardPost.objects.create(league=other, author=cast["carol"], text="x", token="x")
    response = carol.get(f"/leagues/{slug}/board/{elsewhere.pk}/")
    assert response.status_code == 404
    response = client_for(world, "admin").post(
        moderation_url(world), {"action": "close_board_report", "report": "junk"}
    )
    assert response.status_code == 302 and not BoardReport.objects.exists()
    assert not BoardReport.objects.exists()
