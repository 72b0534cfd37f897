"""{% countdown %}: the deadline as a countdown with a server-side fallback text."""

import datetime

import pytest
import time_machine
from django.template import Context, Template
from django.utils import translation

from rummy.clock.text import duration_text, time_left_text

NOW = datetime.datetime(2026, 3, 2, 10, 0, tzinfo=datetime.UTC)


def render(deadline):
    return Template("{% load clock_tags %}{% countdown deadline %}").render(
        Context({"deadline": deadline})
    )


@pytest.mark.parametrize(
    ("left", "text"),
    [
        (datetime.timedelta(hours=5, minutes=12, seconds=30), "in 5 h 12 min"),
        (datetime.timedelta(days=2, hours=3), "in 2 d 3 h"),
        (datetime.timedelta(days=7), "in 7 d"),
        (datetime.timedelta(hours=1), "in 1 h"),
        (datetime.timedelta(minutes=9, seconds=59), "in 9 min"),
        (datetime.timedelta(seconds=20), "in less than a minute"),
        (datetime.timedelta(0), "overdue"),
        (-datetime.timedelta(hours=3), "overdue"),
    ],
)
def test_time_left_text(left, text):
    assert time_left_text(NOW + left, NOW) == text


def test_duration_text_never_negative():
    assert duration_text(-5) == "less than a minute"


@time_machine.travel(NOW, tick=False)
def test_countdown_tag_renders_machine_and_human_times():
    html = render(NOW + datetime.timedelta(hours=5, minutes=12))
    assert html.startswith('<time class="countdown"')
    assert 'datetime="2026-03-02T15:12:00Z"' in html
    assert 'data-deadline="2026-03-02T15:12:00Z"' in html
    assert '<span class="countdown-left">in 5 h 12 min</span>' in html
    # The deadline itself, in the one style of a deadline (rummy.clock.text), in the
    # active zone (UTC here): the script leaves it as it is.
    assert "(Monday, March 2, 3:12 p.m. UTC)" in html
    assert 'data-overdue="overdue"' in html
    assert "style=" not in html


@time_machine.travel(NOW, tick=False)
def test_countdown_tag_converts_to_utc_and_says_overdue():
    riga = datetime.timezone(datetime.timedelta(hours=2))
    html = render(datetime.datetime(2026, 3, 2, 11, 30, tzinfo=riga))  # 09:30 UTC
    assert 'datetime="2026-03-02T09:30:00Z"' in html
    assert ">overdue<" in html


def test_countdown_is_made_once_per_minute_left_and_says_what_the_uncached_text_says():
    """A move's status lines (one per socket role) shared one countdown, not
    one each; and the element made once still says what ``time_left_text`` says at
    the second of every later render (it depends on the whole minutes left only)."""
    from rummy.clock import countdown as clock_tags

    clock_tags._countdown.cache_clear()
    deadline = NOW + datetime.timedelta(hours=3, minutes=7, seconds=30)
    seconds = [0, 10, 29, 31, 50, 89, 90, 91, 11_249, 11_250, 11_251, 20_000]
    for second in seconds:
        now = NOW + datetime.timedelta(seconds=second)
        with time_machine.travel(now, tick=False):
            html = render(deadline)
        left = time_left_text(deadline, now)
        assert f'<span class="countdown-left">{left}</span>' in html, second
    # 3 h 7 min (0-29 s), 3 h 6 min (31-90), 3 h 5 min (91), less than a minute
    # (11,249), overdue (the rest): one element each
    assert clock_tags._countdown.cache_info().misses == 5
    with translation.override("lv"), time_machine.travel(NOW, tick=False):
        render(deadline)  # another language: made again
    assert clock_tags._countdown.cache_info().misses == 6


def test_deadlines_in_one_minute_share_their_words_and_the_element_is_whole(monkeypatch):
    """Each new turn is a new deadline, so each process makes a countdown per
    turn; the deadline's words (most of its cost) are made once per minute they name,
    language and zone, and the element is still the whole one, to the byte."""
    from rummy.clock import countdown as clock_tags

    clock_tags._countdown.cache_clear()
    clock_tags._deadline_words.cache_clear()
    made = []
    words = clock_tags.deadline_text
    monkeypatch.setattr(clock_tags, "deadline_text", lambda d: made.append(d) or words(d))
    minute = NOW + datetime.timedelta(hours=5, minutes=12)
    with time_machine.travel(NOW, tick=False):
        first = render(minute + datetime.timedelta(seconds=4, microseconds=17))
        second = render(minute + datetime.timedelta(seconds=59))
        render(minute + datetime.timedelta(minutes=1))  # the next minute: new words
        with translation.override("lv"):
            render(minute)  # another language: new words
    assert made == [minute, minute + datetime.timedelta(minutes=1), minute]
    assert first == (
        '<time class="countdown" datetime="2026-03-02T15:12:04Z" '
        'data-deadline="2026-03-02T15:12:04Z" data-overdue="overdue" '
        'data-in="in %(time)s" data-units="d h min" data-less="less than a minute" '
        'title="Monday, March 2, 3:12 p.m. UTC"><span class="countdown-left">in 5 h 12 min'
        '</span> <span class="countdown-at muted">(Monday, March 2, 3:12 p.m. UTC)</span>'
        "</time>"
    )
    assert second == first.replace("15:12:04Z", "15:12:59Z")


def test_countdown_tag_without_deadline_renders_nothing():
    assert render(None) == ""


@time_machine.travel(NOW, tick=False)
def test_countdown_labels_are_translated():
    with translation.override("lv"):
        html = render(NOW + datetime.timedelta(hours=2))
    # Without a Latvian catalogue yet the English text is the fallback; the point is
    # that the tag renders under another active language without error.
    assert "countdown-left" in html


def test_countdown_script_is_served_and_has_no_eval():
    from pathlib import Path

    from django.conf import settings

    script = (Path(settings.BASE_DIR) / "static" / "js" / "countdown.js").read_text()
    # It keeps the time left current and never rewrites the deadline in a style of its
    # own (it used to: "Wed, Dec 2, 05:26 AM" beside the server's "Wed 2 Dec, 05:26 UTC").
    assert "Intl.DateTimeFormat" not in script and "countdown-at" not in script
    assert "eval(" not in script and "innerHTML" not in script


@pytest.mark.django_db
def test_base_template_loads_countdown_script(client):
    assert 'js/countdown.js" defer' in client.get("/").content.decode()


# --- The table page's clock: deadline, absent marks, "End game early" -----------------


@pytest.mark.django_db
def test_table_clock_marks_absent_players_and_offers_end_early_to_admins_only():
    from rummy import engine
    from rummy.clock.text import turn_clock
    from rummy.models import Seat
    from rummy.table.access import rights, viewable_game
    from tests.factories import make_league, make_user, started_game

    owner, admin, bob, watcher = (make_user() for _ in range(4))
    league = make_league(owner, members=[bob, watcher], admins=[admin])
    game = started_game(
        [owner, bob], league=league, state=engine.position(hands=["2C 3D", "KS QS"], stock="9H 5D")
    )

    def table_clock(game, user):
        return turn_clock(game, rights(user, game).is_admin)

    game = viewable_game(owner, game.pk)
    clock = table_clock(game, owner)
    assert clock["deadline"] == game.turn_deadline
    assert clock["absent"] == set() and clock["may_end_early"] is False
    Seat.objects.filter(game=game, user=bob).update(timeouts_in_row=Seat.ABSENT_AFTER)
    game = viewable_game(owner, game.pk)
    assert table_clock(game, owner)["absent"] == {1}
    assert table_clock(game, owner)["may_end_early"] is True
    assert table_clock(game, admin)["may_end_early"] is True
    assert table_clock(game, watcher)["may_end_early"] is False
    assert table_clock(game, bob)["may_end_early"] is False
