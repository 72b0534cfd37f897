"""A small world for the security tests: users in every role around one league, a
season and a started two-player game, and an HTML scan for inline code."""

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from leagues.models import League, Membership
from rummy import play
from rummy.models import Game
from tests.factories import make_season, make_user


@dataclass
class World:
    owner: object  # league owner, seat 0 of the game
    player: object  # member, seat 1 of the game
    member: object  # member, not seated
    outsider: object  # no membership
    league: League
    season: object
    game: Game


def make_world():
    owner = make_user("olga")
    player = make_user("pete")
    member = make_user("mona")
    outsider = make_user("otto")
    league = League.objects.create(name="Club", slug="club", visibility=League.Visibility.INVITE)
    Membership.objects.create(league=league, user=owner, role=Membership.Role.OWNER)
    Membership.objects.create(league=league, user=player, role=Membership.Role.MEMBER)
    Membership.objects.create(league=league, user=member, role=Membership.Role.MEMBER)
    season = make_season(league)
    game = play.open_table(league, owner, max_seats=2)
    play.take_seat(game.pk, player)  # a full table starts by itself
    game.refresh_from_db()
    return World(owner, player, member, outsider, league, season, game)


class InlineCodeFinder(HTMLParser):
    """Collects what a strict CSP (no 'unsafe-inline') would block: a <script> with a
    body, a style= attribute, an on*= handler, a <style> element, javascript: URLs."""

    def __init__(self):
        super().__init__()
        self.problems = []
        self._in_script = None

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "style":
                self.problems.append(f"<{tag} style={value!r}>")
            elif name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
            elif name in {"href", "src", "action"} and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.problems.append(f"<{tag} {name}=javascript:...>")
        if tag == "script":
            self._in_script = dict(attrs)
        elif tag == "style":
            self.problems.append("<style> element")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = None

    def handle_data(self, data):
        if self._in_script is not None and data.strip():
            self.problems.append(f"inline <script>: {data.strip()[:60]!r}")


def inline_code(html):
    finder = InlineCodeFinder()
    finder.feed(html)
    return finder.problems


CSP_RE = re.compile(r"script-src ([^;]*)")
