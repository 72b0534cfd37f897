"""One bad email never stops the others: a league name with a line break (stored before
names were checked, or through the admin) cannot break a Subject header, and any failure
while building or sending one email is logged, its claim released for the next pass,
and the pass goes on to the other users and games."""

import pytest
from django.core import mail

from leagues.models import League
from rummy import engine
from rummy.models import Notice
from rummy.notifications import emails
from tests.factories import make_league, make_user, started_game

pytestmark = pytest.mark.django_db

STOCK = "9H 5D 6D 7C 8C 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"


def game_for(mover, other, league):
    state = engine.position(hands=["2C 3D", "KS QS"], stock=STOCK, turn=0)
    return started_game([mover, other], league=league, state=state)


def sent_to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


def test_subject_text_collapses_line_breaks_and_control_characters():
    assert emails.subject_text("Your move in Evil\r\nBcc: x@y") == "Your move in Evil Bcc: x@y"
    assert emails.subject_text("a\u2028b\u2029c\x00d\x85e\tf  g") == "a b c d e f g"


def test_a_line_break_in_a_stored_league_name_stops_no_email():
    # The bad league's player comes first, so that without the fix their failure
    # aborts the pass before the other player's email.
    first, second, opponent = (make_user(email_verified=True) for _ in range(3))
    bad = make_league(first, members=[opponent])
    League.objects.filter(pk=bad.pk).update(name="Evil\r\nBcc: victim@example.com")
    bad.refresh_from_db()
    good = make_league(second, members=[opponent])
    game_for(first, opponent, bad)
    game_for(second, opponent, good)

    emails.clock_pass()

    assert len(sent_to(second)) == 1
    (message,) = sent_to(first)
    assert message.subject == "Your move in Evil Bcc: victim@example.com"
    assert "\n" not in str(message.message()["Subject"]).replace("\n ", " ")
    assert message.bcc == []
    assert Notice.objects.filter(kind=Notice.Kind.YOUR_MOVE).count() == 2


def test_a_failing_email_is_released_for_the_next_pass_and_the_others_go_out(monkeypatch):
    first, second, opponent = (make_user(email_verified=True) for _ in range(3))
    game_for(first, opponent, make_league(first, members=[opponent]))
    game_for(second, opponent, make_league(second, members=[opponent]))
    real_render = emails.render_to_string

    def broken_for_first(template, context, *args, **kwargs):
        if context.get("user") == first:
            raise ValueError("a template that cannot render")
        return real_render(template, context, *args, **kwargs)

    monkeypatch.setattr(emails, "render_to_string", broken_for_first)
    emails.clock_pass()
    assert sent_to(first) == [] and len(sent_to(second)) == 1
    # The failed email's claim was released: the next pass sends it.
    assert not Notice.objects.filter(user=first).exists()
    monkeypatch.setattr(emails, "render_to_string", real_render)
    emails.clock_pass()
    assert len(sent_to(first)) == 1 and len(sent_to(second)) == 1


def test_a_failing_result_email_is_released_and_the_other_players_get_theirs(monkeypatch):
    from django.utils import timezone

    from rummy.models import Game

    winner, loser = (make_user(email_verified=True) for _ in range(2))
    league = make_league(winner, members=[loser])
    League.objects.filter(pk=league.pk).update(name="Line\nbreak")
    game = game_for(winner, loser, league)
    game.seats.filter(user=winner).update(final_score=150, is_winner=True)
    game.seats.filter(user=loser).update(final_score=20)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, finished_at=timezone.now(), to_move=None
    )
    real_send = emails.EmailMultiAlternatives.send

    def refuse_the_winner(message, *args, **kwargs):
        if message.to == [winner.email]:
            raise RuntimeError("something no one expected")
        return real_send(message, *args, **kwargs)

    monkeypatch.setattr(emails.EmailMultiAlternatives, "send", refuse_the_winner)
    emails.clock_pass()
    (result,) = [m for m in sent_to(loser) if "Game over" in m.subject]
    assert result.subject == "Game over in Line break"
    assert not Notice.objects.filter(user=winner, kind=Notice.Kind.RESULT).exists()
    monkeypatch.setattr(emails.EmailMultiAlternatives, "send", real_send)
    emails.clock_pass()
    assert [m.subject for m in sent_to(winner) if "won" in m.subject] == ["You won in Line break!"]
