"""Learning the game: the "How to play" page in en, lv and et, a section for
every rule id the code cites, rule ids in messages linked to it (and escaped), the links
to the page, and card pictures that are right by the engine's own rules."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe

from rummy import engine
from rummy.guide import links
from rummy.guide.views import content_template
from rummy.templatetags.guide import rule_links
from tests.factories import make_league, make_user, started_game

ROOT = Path(__file__).resolve().parents[3]
RULES_MD = ROOT.parent / "shared" / "RULES.md"

# One sentence of each language's own prose (R4.1), and the words the others must not show.
PROSE = {
    "en": "A meld is a group or a sequence of",
    "lv": "Kombinācija ir grupa vai secība no",
    "et": "Kombinatsioon on rühm või jada, kus",
}

# A rule id as the code and the templates write it: "R4", "R5.2", "R5.2 b" (written
# independently of rummy.guide.links.RULE_ID, so that the two check each other).
CITED = re.compile(r"\bR(\d+)(?:\.(\d+))?\b(?: ([a-d])\b(?![-\w]))?")


def rule_ids_cited_in_code():
    """Every rule id in rummy/, leagues/ and templates/ (code, messages, docstrings)."""
    found = set()
    for folder in ("rummy", "leagues", "templates"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".html", ".txt"):
                continue
            for chapter, rule, letter in CITED.findall(path.read_text(encoding="utf-8")):
                base = f"R{chapter}.{rule}" if rule else f"R{chapter}"
                found.add(f"{base} {letter}" if letter else base)
    return found


def guide_html(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(reverse("how_to_play"))
    assert response.status_code == 200
    return response.content.decode()


def element_ids(html):
    return re.findall(r'\sid="([^"]+)"', html)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "lv", "et"])
def test_the_page_answers_in_each_language_with_its_own_prose(client, language):
    html = guide_html(client, language)

    assert f'<html lang="{language}">' in html
    assert PROSE[language] in html
    for other, sentence in PROSE.items():
        if other != language:
            assert sentence not in html
    # The pictures are the game page's cards, named for a screen reader.
    assert 'class="card' in html and 'role="img"' in html


def test_a_language_without_its_own_guide_gets_the_english_one():
    assert content_template("de").template.name == "guide/how_to_play_en.html"
    assert content_template("lv").template.name == "guide/how_to_play_lv.html"
    assert content_template(None).template.name == "guide/how_to_play_en.html"


def test_the_collector_finds_the_rule_ids_of_the_messages():
    cited = rule_ids_cited_in_code()
    # wording.py, the season form and the game page's templates cite these.
    assert {"R3.1", "R4", "R4.4", "R5.2 a", "R5.2 b", "R5.2 d", "R6.1", "R8", "R9.1"} <= cited


def test_every_rule_id_cited_in_the_code_is_a_known_rule():
    assert rule_ids_cited_in_code() <= set(links.RULE_IDS)


@pytest.mark.skipif(not RULES_MD.exists(), reason="the shared rule book is not beside the repo")
def test_the_known_rules_are_the_rule_books():
    text = RULES_MD.read_text(encoding="utf-8")
    book = set(re.findall(r"^## (R\d+)\b", text, re.M))
    book |= set(re.findall(r"\*\*(R\d+\.\d+)\*\*", text))
    book |= {f"R5.2 {letter}" for letter in re.findall(r"^  - \(([a-d])\)", text, re.M)}
    assert book == set(links.RULE_IDS)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "lv", "et"])
def test_every_rule_has_its_section_once_in_every_language(client, language):
    ids = element_ids(guide_html(client, language))

    for rule_id in sorted(set(links.RULE_IDS) | rule_ids_cited_in_code()):
        assert ids.count(links.anchor(rule_id)) == 1, rule_id
    assert len(ids) == len(set(ids)), "an element id appears twice"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "lv", "et"])
def test_every_link_inside_the_page_lands_on_an_element(client, language):
    html = guide_html(client, language)
    ids = set(element_ids(html))
    targets = set(re.findall(r'href="#([^"]+)"', html))

    assert targets and targets <= ids


def test_anchors_need_no_escaping():
    assert links.anchor("R5.2 b") == "R5-2-b"
    assert links.anchor("R10") == "R10"
    assert all(re.fullmatch(r"R[0-9-]+[a-d]?", links.anchor(r)) for r in links.RULE_IDS)


@pytest.mark.django_db
def test_rule_links_turns_each_rule_id_into_a_link_to_its_section():
    html = str(rule_links("Every card must stay on the table (R5.2 b). See R10; R9.2 and R4."))

    assert '(<a class="rule-link in-text" href="/how-to-play/#R5-2-b">R5.2 b</a>)' in html
    assert 'href="/how-to-play/#R10">R10</a>;' in html
    assert 'href="/how-to-play/#R9-2">R9.2</a> and' in html
    assert 'href="/how-to-play/#R4">R4</a>.' in html


@pytest.mark.django_db
def test_rule_links_escapes_the_message_and_marks_safe_only_its_own_links():
    attack = '<script>alert("x")</script><a href="javascript:evil()">R4</a> (R6.1)'
    html = str(rule_links(attack))

    assert "<script>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert "&lt;a href=&quot;javascript:evil()&quot;&gt;" in html
    # Two tags, both ours: R4 (inside the attacker's escaped tag) and R6.1.
    assert html.count("<a ") == html.count('<a class="rule-link in-text" href="/how-to-play/#') == 2
    assert 'href="/how-to-play/#R6-1">R6.1</a>)' in html


@pytest.mark.django_db
def test_rule_links_leaves_what_is_no_rule_id_alone():
    assert str(rule_links("R11, R5.9, XR4, R4x and R10b")) == "R11, R5.9, XR4, R4x and R10b"
    # A letter that is no condition of the rule is a word of the sentence.
    assert str(rule_links("R6.1 a knock")).endswith("R6.1</a> a knock")
    assert str(rule_links("R5.2 e")).endswith(">R5.2</a> e")
    assert str(rule_links(None)) == ""


@pytest.mark.django_db
def test_rule_links_keeps_html_that_is_already_safe():
    html = str(rule_links(mark_safe("<strong>Final lap</strong> (R8)")))
    link = '<a class="rule-link in-text" href="/how-to-play/#R8">R8</a>'
    assert html == f"<strong>Final lap</strong> ({link})"


@pytest.mark.django_db
def test_the_game_pages_refusal_links_its_rule_and_stays_escaped():
    html = render_to_string(
        "rummy/_flash.html", {"flash": "<img src=x onerror=alert(1)> Draw first (R3.1)."}
    )

    assert "<img" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert 'href="/how-to-play/#R3-1">R3.1</a>' in html


# -- the links to the page ----------------------------------------------------------------


@pytest.mark.django_db
def test_every_page_links_the_guide_from_its_footer(client):
    html = client.get(reverse("home")).content.decode()
    assert re.search(r'<footer[^>]*>.*href="/how-to-play/" id="footer-how-to-play"', html, re.S)


@pytest.mark.django_db
def test_the_game_page_links_the_guide(client):
    host, guest = make_user(), make_user()
    game = started_game([host, guest])
    client.force_login(host)

    html = client.get(game.get_absolute_url()).content.decode()

    assert 'href="/how-to-play/" id="game-how-to-play"' in html


@pytest.mark.django_db
def test_the_season_form_links_its_rule_ids_and_the_house_settings(client):
    owner = make_user()
    league = make_league(owner)
    client.force_login(owner)

    html = client.get(reverse("leagues:season_create", args=[league.slug])).content.decode()

    assert 'href="/how-to-play/#R9-1">R9.1</a>' in html  # target score
    assert 'href="/how-to-play/#R6-1">R6.1</a>' in html  # knock limit
    assert 'href="/how-to-play/#R10" id="season-how-to-play"' in html


# -- the pictures are right by the engine's rules ------------------------------------------


def card_rows(html):
    """The card codes of each drawn row of cards, in page order."""
    rows = re.findall(r'<div class="cards small example-cards"[^>]*>(.*?)</div>', html, re.S)
    return [" ".join(re.findall(r'data-card="([^"]+)"', row)) for row in rows]


@pytest.mark.parametrize("picture", ["group", "sequence", "joker"])
def test_each_example_meld_is_valid_exactly_when_the_picture_says_so(picture):
    html = render_to_string(f"guide/_pic_{picture}.html")
    rows = html.split('<div class="example-row">')[1:]
    assert rows
    for row in rows:
        (codes,) = card_rows(row)
        valid = engine.meld_problem(engine.parse_cards(codes)) is None
        assert valid == ('class="verdict ok"' in row), codes
        assert valid != ('class="verdict bad"' in row), codes


@pytest.mark.parametrize("picture", ["rearrange", "free_joker"])
def test_each_rearrangement_shown_is_a_legal_meld(picture):
    table, hand, *after = card_rows(render_to_string(f"guide/_pic_{picture}.html"))
    state = engine.position(
        hands=[f"{hand} 2H KD", "3C 4C 9C"], table=[table], stock="10H 10D 10S", drawn=1
    )

    played = engine.apply_action(state, 0, {"do": "meld", "table": after})

    assert [engine.format_cards(m) for m in played.table] == after
    assert played.turn == 1  # the meld ended the turn; the round goes on


@pytest.mark.parametrize("undercut", [False, True])
def test_the_knock_example_scores_as_the_engine_does(undercut):
    html = render_to_string("guide/_pic_knock.html", {"undercut": undercut})
    hands = [engine.parse_cards(codes) for codes in card_rows(html)]
    shown = [int(p) for p in re.findall(r"(\d+) points? this round", html)]
    counts = [int(c) for c in re.findall(r"count (\d+)", html)]

    points, winners = engine.score_round(hands, knocker=0)

    assert shown == points
    assert counts == [engine.hand_points(h) for h in hands]
    assert winners == ([1] if undercut else [0])
