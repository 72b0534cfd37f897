"""Deleting an account (``leagues.erasure``): from the settings with the password, or by
staff from the admin. Afterwards nothing the site makes for anyone holds the person's
email address or names, while their seats stay in every game under a neutral name and
every game's log still replays."""

import json
import logging
import random
from datetime import timedelta
from io import StringIO

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone, translation

from leagues import erasure
from leagues.models import AdminAction, Membership, Season, User
from leagues.ratings.models import Rating, RatingChange
from rummy import play
from rummy.background import notify_pass
from rummy.clock import bots as bot_turns
from rummy.engine import bots
from rummy.models import Game, Move, Notice, NotificationPrefs, PushNotice, PushSubscription, Seat
from rummy.notifications.emails import notify_result, notify_user_turns
from rummy.table.live import render_view
from tests.cast import PASSWORD

# What named Carol before: none of it may appear in anything made afterwards.
CAROL = ("carol", "Carol", "carol@example.com")


def holds_carol(text):
    lowered = text.casefold()
    return [word for word in CAROL if word.casefold() in lowered]


def logged_in(client, user):
    client.force_login(user)
    return client


def delete_carol(client, cast):
    logged_in(client, cast.carol)
    return client.post(reverse("delete_account"), {"password": PASSWORD})


def test_the_settings_page_links_download_and_delete(client, cast):
    page = logged_in(client, cast.carol).get(reverse("notifications:settings")).content.decode()
    assert reverse("delete_account") in page and reverse("download_data") in page


def test_a_wrong_password_changes_nothing_and_says_so(client, cast, world):
    logged_in(client, cast.carol)
    response = client.post(reverse("delete_account"), {"password": "not-it"})
    assert response.status_code == 200
    assert "That is not your password. Nothing was deleted." in response.content.decode()
    carol = User.objects.get(pk=cast.carol.pk)
    assert carol.deleted_at is None and carol.email == "carol@example.com"
    assert carol.is_active and carol.check_password(PASSWORD)
    assert PushSubscription.objects.filter(user=carol).exists()
    assert client.get(reverse("notifications:settings")).status_code == 200  # still logged in


def test_an_empty_or_huge_password_is_a_message_never_a_500(client, cast):
    logged_in(client, cast.carol)
    for password in ["", "x" * 100_000, "\x00"]:
        response = client.post(reverse("delete_account"), {"password": password})
        assert response.status_code == 200
        assert response.context["form"].errors
    assert User.objects.get(pk=cast.carol.pk).deleted_at is None


def test_deleting_anonymises_the_row_and_removes_what_reached_the_person(client, cast, world):
    other_session = logged_in(type(client)(), cast.carol).session.session_key
    response = delete_carol(client, cast)
    assert response.status_code == 302 and response["Location"] == reverse("home")
    carol = User.objects.get(pk=cast.carol.pk)
    assert carol.deleted_at is not None and not carol.is_active
    assert not carol.has_usable_password()
    assert carol.username == f"~deleted-{carol.pk}" and not holds_carol(carol.email)
    assert (carol.display_name, carol.first_name, carol.last_name) == ("", "", "")
    assert carol.name == f"Deleted player {carol.pk}"
    # Sessions (this browser's and another's), devices, ledgers, settings, memberships.
    assert not Session.objects.filter(session_key=other_session).exists()
    assert not any(s.get_decoded().get(SESSION_KEY) == str(carol.pk) for s in Session.objects.all())
    assert SESSION_KEY not in client.session
    assert not PushSubscription.objects.filter(user=carol).exists()
    assert not PushNotice.objects.exists()
    assert not Notice.objects.filter(user=carol).exists()
    assert not NotificationPrefs.objects.filter(user=carol).exists()
    assert not Membership.objects.filter(user=carol).exists()
    # The seats, moves, results and ratings stay.
    assert Seat.objects.filter(user=carol).count() == 2
    assert Move.objects.filter(user=carol).exists()
    assert RatingChange.objects.filter(user=carol).exists()
    assert Rating.objects.filter(user=carol).exists()
    # The record no longer names her: not as the actor, not as the subject.
    for entry in AdminAction.objects.all():
        assert not holds_carol(f"{entry.actor_name} {entry.subject}")
    # Her log-in is refused.
    assert not client.login(username="carol", password=PASSWORD)


def test_the_running_game_goes_on_with_a_bot_standing_in(client, cast, world):
    delete_carol(client, cast)
    seat = Seat.objects.get(game=world["running"], user=cast.carol)
    assert seat.is_absent and seat.stand_in
    gone = Move.objects.filter(game=world["running"], kind=Move.Kind.CLOCK).last()
    assert gone is not None and gone.payload == {"gone": seat.number}
    # The others play on; at her turns the bot plays for her seat.
    game, rng = world["running"], random.Random(3)
    for _ in range(80):
        game = Game.objects.get(pk=game.pk)
        state = game.engine_state()
        if game.status != Game.Status.ACTIVE:
            break
        if state.turn == seat.number:
            assert game.bot_due_at is not None
            assert bot_turns.play_bot_step(game.pk, rng=rng, version=game.version)
            continue
        user = game.seats.get(number=state.turn).user
        play.act(game.pk, user, game.version, bots.choose_action(state, state.turn, rng))
    played = Move.objects.filter(game=game, seat=seat.number).exclude(bot_level="")
    assert played.exists() and not played.filter(user__isnull=True).exists()


def test_without_a_stand_in_the_clock_times_out_her_turns_at_once(client, cast, world):
    Season.objects.filter(pk=world["current"].pk).update(bot_stands_in=False)
    game = world["running"]
    carol_seat = Seat.objects.get(game=game, user=cast.carol).number
    delete_carol(client, cast)
    seat = Seat.objects.get(game=game, user=cast.carol)
    assert seat.is_absent and not seat.stand_in
    # Play on with the others; every one of her turns is due the moment it begins.
    rng = random.Random(5)
    timeouts = 0
    for _ in range(60):
        game = Game.objects.get(pk=game.pk)
        state = game.engine_state()
        if game.status != Game.Status.ACTIVE:
            break
        if state.turn == carol_seat:
            assert game.turn_deadline <= timezone.now()
            play.timeout(game.pk, game.version)
            timeouts += 1
            continue
        user = game.seats.get(number=state.turn).user
        play.act(game.pk, user, game.version, bots.choose_action(state, state.turn, rng))
    assert timeouts >= 1


def test_every_game_still_replays_after_deletion(client, cast, world):
    delete_carol(client, cast)
    out = StringIO()
    call_command("verify_games", stdout=out)
    assert "0 differ" in out.getvalue()


def test_nothing_made_afterwards_names_her(client, cast, world, caplog, mailoutbox, settings):
    settings.SITE_URL = "http://testserver"
    # Addresses confirmed: only those are emailed, and the emails must be made.
    User.objects.filter(pk__in=[cast.alice.pk, cast.bob.pk]).update(email_verified=True)
    delete_carol(client, cast)
    caplog.set_level(logging.DEBUG)
    mailoutbox.clear()
    league, finished, running = world["league"], world["finished"], world["running"]
    made = []
    for viewer in (cast.alice, cast.bob):
        logged_in(client, viewer)
        for url in (
            reverse("rummy:table", args=[running.pk]),
            reverse("rummy:record", args=[finished.pk]),
            reverse("rummy:replay", args=[finished.pk]),
            reverse("rummy:record_json", args=[finished.pk]),
            reverse("rummy:season_games", args=[world["old"].pk]),
            reverse("rummy:season_results", args=[world["old"].pk]),
            reverse("leagues:detail", args=[league.slug]),
            reverse("leagues:members", args=[league.slug]),
            reverse("leagues:season", args=[league.slug, world["old"].pk]),
            reverse("leagues:season", args=[league.slug, world["current"].pk]),
            reverse("leagues:seasons", args=[league.slug]),
            reverse("leagues:admin_record", args=[league.slug]),
            reverse("profile", args=[viewer.username]),
            reverse("home"),
            reverse("download_data"),
            reverse("chat:thread", args=[running.pk]),
            reverse("chat:league", args=[league.slug]),
            reverse("chat:board", args=[league.slug]),
        ):
            response = client.get(url)
            assert response.status_code in (200, 403), url
            body = b"".join(response) if response.streaming else response.content
            made.append((url, body.decode()))
        # What a socket sends: the game page's parts.
        made.append(("frame", render_view(viewer, running.pk, "suit").html))
    # The background pass's emails and pushes, and emails that list her seat: Bob's
    # move in the running game (with its players) and the finished game's result (its
    # scores); and every log line.
    notify_pass()
    for viewer in User.objects.filter(pk__in=[cast.alice.pk, cast.bob.pk]):
        notify_user_turns(viewer, now=timezone.now() + timedelta(hours=1))
    notify_result(Game.objects.get(pk=finished.pk))
    mails = [f"{m.to} {m.subject} {m.body}" for m in mailoutbox]
    assert len(mails) >= 2
    assert all(f"Deleted player {cast.carol.pk}" in mail for mail in mails)
    made += [("mail", mail) for mail in mails]
    made += [("log", r.getMessage()) for r in caplog.records]
    found = [(where, holds_carol(text)) for where, text in made if holds_carol(text)]
    assert found == []
    assert any(f"Deleted player {cast.carol.pk}" in text for _where, text in made)
    # Her own profile is gone (asked last: the 404 is logged with the address asked).
    assert client.get(reverse("profile", args=["carol"])).status_code == 404


def test_the_neutral_name_is_translated(client, cast, world):
    delete_carol(client, cast)
    logged_in(client, cast.bob)
    page = client.get(
        reverse("rummy:record", args=[world["finished"].pk]), HTTP_ACCEPT_LANGUAGE="lv"
    ).content.decode()
    assert f"Dzēsts spēlētājs {cast.carol.pk}" in page
    # Also in a closed season's frozen standings, stored in the site's language.
    season = client.get(
        reverse("leagues:season", args=[world["league"].slug, world["old"].pk]),
        HTTP_ACCEPT_LANGUAGE="et",
    ).content.decode()
    assert f"Kustutatud mängija {cast.carol.pk}" in season
    # And on the league admins' record, where she acted.
    record = logged_in(client, cast.alice).get(
        reverse("leagues:admin_record", args=[world["league"].slug]), HTTP_ACCEPT_LANGUAGE="lv"
    )
    entries = record.content.decode().split('class="list admin-record"')[1]
    assert f"Dzēsts spēlētājs {cast.carol.pk}" in entries
    # Both where she acted and where she was acted on (her role changed).
    assert entries.count(f"Dzēsts spēlētājs {cast.carol.pk}") == 2
    assert "Deleted player" not in entries and "~deleted" not in entries


def test_a_leagues_only_owner_is_told_to_hand_it_over_first(client, cast, world):
    logged_in(client, cast.alice)
    page = client.get(reverse("delete_account")).content.decode()
    assert "You are the only owner of" in page
    response = client.post(reverse("delete_account"), {"password": PASSWORD})
    assert response.status_code == 200
    assert "Make another member an owner there" in response.content.decode()
    alice = User.objects.get(pk=cast.alice.pk)
    assert alice.deleted_at is None and alice.is_active
    # Once Bob is an owner too, Alice may go.
    Membership.objects.filter(user=cast.bob).update(role=Membership.Role.OWNER)
    response = client.post(reverse("delete_account"), {"password": PASSWORD})
    assert response.status_code == 302
    assert User.objects.get(pk=cast.alice.pk).deleted_at is not None


def test_many_deletes_from_many_browsers_are_never_a_500(client, cast, world):
    browsers = [logged_in(type(client)(), cast.carol) for _ in range(6)]
    answers = [b.post(reverse("delete_account"), {"password": PASSWORD}) for b in browsers]
    answers += [browsers[0].post(reverse("delete_account"), {"password": PASSWORD})]
    # The first deletes; every other browser's session went with it: the log-in page.
    assert answers[0]["Location"] == reverse("home")
    assert all(a.status_code == 302 for a in answers)
    assert all(a["Location"].startswith(reverse("login")) for a in answers[1:])
    # The service itself, called again on a deleted account, changes nothing.
    again = erasure.delete_account(cast.carol)
    assert again.deleted_at == User.objects.get(pk=cast.carol.pk).deleted_at
    assert Seat.objects.filter(user=cast.carol).count() == 2


def test_staff_delete_accounts_from_the_admin(client, cast, world):
    staff = User.objects.create_superuser("root", "root@example.com", PASSWORD)
    logged_in(client, staff)
    changelist = reverse("admin:leagues_user_changelist")
    response = client.post(
        changelist,
        {"action": "delete_accounts", "_selected_action": [cast.carol.pk, cast.alice.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert User.objects.get(pk=cast.carol.pk).deleted_at is not None
    # Alice is the league's only owner: refused, in words.
    assert User.objects.get(pk=cast.alice.pk).deleted_at is None
    assert "You are the only owner of" in response.content.decode()
    # No hard delete: it would take the seats of other players' games with it.
    assert "delete_selected" not in client.get(changelist).content.decode()


def test_the_export_of_a_deleted_account_holds_nothing_of_her(client, cast, world):
    delete_carol(client, cast)
    from leagues.data_export import export

    text = json.dumps(export(User.objects.get(pk=cast.carol.pk)))
    assert holds_carol(text) == []


def test_her_practice_game_is_voided_and_her_seat_at_an_open_table_freed(client, cast, league):
    practice = play.start_practice(cast.carol, 1, "steady")
    table = play.open_table(league, cast.bob, max_seats=3)
    play.take_seat(table.pk, cast.carol)
    hosted = play.open_table(league, cast.carol, max_seats=3)
    play.take_seat(hosted.pk, cast.bob)
    delete_carol(client, cast)
    assert Game.objects.get(pk=practice.pk).status == Game.Status.VOIDED
    assert not Seat.objects.filter(game=table, user=cast.carol).exists()
    # The table she opened goes on without her, with another host.
    assert Game.objects.get(pk=hosted.pk).host_id == cast.bob.pk


def test_pages_do_not_link_to_the_deleted_players_profile(client, cast, world):
    delete_carol(client, cast)
    gone = reverse("profile", args=[User.objects.get(pk=cast.carol.pk).username])
    logged_in(client, cast.bob)
    for url in (
        reverse("rummy:record", args=[world["finished"].pk]),
        reverse("leagues:detail", args=[world["league"].slug]),
        reverse("leagues:season", args=[world["league"].slug, world["old"].pk]),
    ):
        page = client.get(url).content.decode()
        assert f"Deleted player {cast.carol.pk}" in page and gone not in page, url


def test_other_parts_of_the_site_hear_of_the_deletion_inside_it(client, cast, world):
    heard = []

    def listener(sender, user, **kwargs):
        heard.append((user.pk, user.name, User.objects.get(pk=user.pk).deleted_at is not None))

    erasure.account_deleted.connect(listener)
    try:
        delete_carol(client, cast)
    finally:
        erasure.account_deleted.disconnect(listener)
    assert heard == [(cast.carol.pk, f"Deleted player {cast.carol.pk}", True)]


def test_her_chat_goes_with_her_account(client, cast, world):
    """The chat's part (``chat.personal``): her messages and posts, which may name her,
    her blocks, mutes, reports (of messages and of board posts), read marks and which
    announcements were emailed to her go; the moderation record that named her keeps
    its row under the neutral name; Bob's message and post stay."""
    from chat.models import (
        AnnouncementEmailed,
        Block,
        BoardPost,
        BoardReport,
        Message,
        ModerationAction,
        Mute,
        Report,
    )

    assert delete_carol(client, cast).status_code == 302
    carol = cast.carol
    assert not Message.objects.filter(author=carol).exists()
    assert not BoardPost.objects.filter(author=carol).exists()
    assert not Block.objects.filter(blocker=carol).exists()
    assert not Mute.objects.filter(user=carol).exists()
    assert not Report.objects.filter(reporter=carol).exists()
    assert not BoardReport.objects.filter(reporter=carol).exists()
    assert not AnnouncementEmailed.objects.filter(user=carol).exists()
    assert Message.objects.filter(author=cast.bob, text="hi").exists()
    assert BoardPost.objects.filter(author=cast.bob, text="Bob's news").exists()
    muted = ModerationAction.objects.get(action="muted")
    assert muted.subject == f"~deleted-{carol.pk}"
    # The moderation page words her for each reader.
    with translation.override("lv"):
        assert muted.about == f"Dzēsts spēlētājs {carol.pk}"


def test_her_seat_stays_under_the_neutral_name_everywhere_it_was_shown(client, cast, world):
    """Each place the issue names (pages, replays, records, exports, standings,
    ratings) still shows her seat, as "Deleted player N", to the player she played."""
    delete_carol(client, cast)
    gone = f"Deleted player {cast.carol.pk}"
    finished, old, league = world["finished"], world["old"], world["league"]
    logged_in(client, cast.bob)

    def text(url):
        response = client.get(url)
        assert response.status_code == 200, url
        body = b"".join(response) if response.streaming else response.content
        return body.decode()

    shown = {
        "table": text(reverse("rummy:table", args=[world["running"].pk])),
        "record": text(reverse("rummy:record", args=[finished.pk])),
        "replay": text(reverse("rummy:replay", args=[finished.pk])),
        "season games": text(reverse("rummy:season_games", args=[old.pk])),
        "season results": text(reverse("rummy:season_results", args=[old.pk])),
        "frozen standings": text(reverse("leagues:season", args=[league.slug, old.pk])),
        "ratings": text(reverse("leagues:detail", args=[league.slug])),
        "his download": text(reverse("download_data")),
    }
    assert [where for where, body in shown.items() if gone not in body] == []
    # The game's machine record (the conformance vectors' format) names no one: its
    # seats are numbers, so it holds the same seats as before, and nothing of hers.
    vectors = text(reverse("rummy:record_json", args=[finished.pk]))
    assert json.loads(vectors)["cases"] and holds_carol(vectors) == []
