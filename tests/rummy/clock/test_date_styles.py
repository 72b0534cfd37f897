"""The site's date styles (rummy.clock.text, the ``dates`` template filters): one per
context, in the active language (en, lv, et) and time zone, and used by the pages that
show dates instead of ad-hoc formats ("Dec. 1, 2026" beside "12/01/2026" on one visit)."""

import datetime
import zoneinfo
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.utils import timezone, translation

from rummy.clock.text import day_text, deadline_text, moment_text, month_text

RIGA = zoneinfo.ZoneInfo("Europe/Riga")
# 05:26 UTC is 07:26 in Riga (EET, UTC+2, in December).
MOMENT = datetime.datetime(2026, 12, 2, 5, 26, tzinfo=datetime.UTC)

STYLES = {
    "en": {
        "day": "Dec. 2, 2026",
        "month": "December 2026",
        "moment": "Dec. 2, 2026, 7:26 a.m. EET",
        "deadline": "Wednesday, December 2, 7:26 a.m. EET",
    },
    "lv": {
        "day": "2026. gada 2. decembris",
        "month": "2026. g. decembris",
        "moment": "2026. gada 2. decembris, 07:26 EET",
        "deadline": "trešdiena, 2. decembris, 07:26 EET",
    },
    "et": {
        "day": "2. detsember 2026",
        "month": "detsember 2026",
        "moment": "2. detsember 2026, 7:26 EET",
        "deadline": "kolmapäev, 2. detsember, 7:26 EET",
    },
}
FUNCTIONS = {"day": day_text, "month": month_text, "moment": moment_text, "deadline": deadline_text}


@pytest.mark.parametrize("language", sorted(STYLES))
@pytest.mark.parametrize("style", sorted(FUNCTIONS))
def test_each_style_in_each_language_and_the_active_zone(language, style):
    with translation.override(language), timezone.override(RIGA):
        assert FUNCTIONS[style](MOMENT) == STYLES[language][style]


@pytest.mark.parametrize("language", sorted(STYLES))
def test_the_filters_say_the_same_as_the_functions(language):
    template = Template(
        "{% load dates %}{{ t|day }}|{{ t|month }}|{{ t|moment }}|{{ t|deadline }}|{{ none|day }}"
    )
    with translation.override(language), timezone.override(RIGA):
        html = template.render(Context({"t": MOMENT, "none": None}))
    expected = STYLES[language]
    assert html == "|".join(
        [expected["day"], expected["month"], expected["moment"], expected["deadline"], ""]
    )


def test_estonian_moments_are_not_american():
    # Django leaves DATETIME_FORMAT unset for Estonian: its fallback is the American
    # "dets. 2, 2026, 5:26 e.l.". A moment is made of the day and the time instead.
    with translation.override("et"):
        text = moment_text(MOMENT)
    assert text == "2. detsember 2026, 5:26 UTC"
    assert "e.l." not in text and "/" not in text


def test_a_day_is_the_same_whether_a_date_or_a_datetime():
    with translation.override("lv"), timezone.override(RIGA):
        assert day_text(MOMENT.date()) == day_text(MOMENT) == "2026. gada 2. decembris"


def test_a_datetime_takes_the_day_of_the_active_zone():
    late = datetime.datetime(2026, 12, 1, 23, 30, tzinfo=datetime.UTC)  # 01:30 on the 2nd, Riga
    with timezone.override(RIGA):
        assert day_text(late) == "Dec. 2, 2026"
    with timezone.override(datetime.UTC):
        assert day_text(late) == "Dec. 1, 2026"


# The modules that may format a date themselves, and why.
MAY_FORMAT = {
    "rummy/clock/text.py",  # the styles themselves
    "rummy/clock/countdown.py",  # the ISO value of <time datetime>, for machines
    "leagues/models.py",  # a season clash's days: date_format(), i.e. the day style
}


def test_no_template_or_module_formats_dates_its_own_way():
    """Dates go through the styles: no ``|date``, ``naturaltime`` or ``strftime`` /
    ``date_format`` of its own anywhere else."""
    base = Path(settings.BASE_DIR)
    offenders = []
    for path in (base / "templates").rglob("*"):
        if path.suffix in {".html", ".txt"}:
            text = path.read_text()
            if any(word in text for word in ("|date", "naturaltime", "naturalday")):
                offenders.append(str(path.relative_to(base)))
    for folder in ("rummy", "leagues", "config"):
        for path in (base / folder).rglob("*.py"):
            name = str(path.relative_to(base))
            if "migrations" in path.parts or name in MAY_FORMAT:
                continue
            text = path.read_text()
            if "strftime(" in text or "date_format(" in text:
                offenders.append(name)
    assert offenders == []


@pytest.mark.django_db
def test_season_pages_show_days_in_the_day_style(client):
    from tests.factories import make_league, make_season, make_user

    owner = make_user()
    league = make_league(owner)
    season = make_season(
        league, starts_on=datetime.date(2026, 12, 1), ends_on=datetime.date(2027, 2, 28)
    )
    client.force_login(owner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "lv"
    for url in (league.get_absolute_url(), season.get_absolute_url()):
        html = client.get(url).content.decode()
        assert "2026. gada 1. decembris – 2027. gada 28. februāris" in html, url
