"""The download of a player's data (``leagues.data_export``) holds what
docs/data-export.md says it holds: every documented key, and no other."""

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from leagues.data_export import FORMAT, export
from leagues.models import Vacation

DOC = Path(settings.BASE_DIR) / "docs" / "data-export.md"
HEADING = re.compile(r"^#{2,3} `([a-z_.]+)`$|^## The document$")
ROW = re.compile(r"^\| `([a-z_]+)` \|")


def documented():
    """{path: [keys]} from the page's tables: "" for the document, else the section
    (``ratings.history``), in the page's order."""
    tables: dict[str, list[str]] = {}
    current = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        heading = HEADING.match(line)
        if heading:
            current = heading.group(1) or ""
            continue
        row = ROW.match(line)
        if row and current is not None:
            tables.setdefault(current, []).append(row.group(1))
    return tables


def at(document, path):
    value = document
    for part in path.split("."):
        value = value[part]
    return value


@pytest.fixture
def carol_data(world, cast):
    Vacation.objects.create(
        user=cast.carol,
        season=world["current"],
        starts_at=timezone.now() + timedelta(days=3),
        ends_at=timezone.now() + timedelta(days=5),
        days=2,
    )
    return json.loads(json.dumps(export(cast.carol)))


def test_the_page_documents_every_section():
    tables = documented()
    assert "" in tables and "account" in tables and "ratings.history" in tables


def test_the_document_has_exactly_the_documented_sections(carol_data):
    assert list(carol_data) == documented()[""]
    assert carol_data["format"] == FORMAT


def test_every_documented_record_has_exactly_the_documented_keys(carol_data):
    checked = []
    for path, keys in documented().items():
        if not path:
            continue
        value = at(carol_data, path)
        items = value if isinstance(value, list) else [value]
        assert items, f"{path}: the test's player has none, so nothing is checked"
        for item in items:
            assert sorted(item) == sorted(keys), path
        checked.append(path)
    assert len(checked) >= 15


def test_the_export_is_the_players_own(carol_data, cast, world):
    assert carol_data["account"]["email"] == "carol@example.com"
    assert carol_data["account"]["display_name"] == "Carol"
    assert carol_data["settings"]["notifications"]["results"] is False
    assert {m["slug"] for m in carol_data["memberships"]} == {world["league"].slug}
    assert {s["game"] for s in carol_data["seats"]} == {world["finished"].pk, world["running"].pk}
    assert carol_data["push_devices"][0]["device"] == "Firefox on Android"
    assert carol_data["ratings"]["history"]
    # Her chat (``chat.personal``): her own messages, posts, blocks, mutes and reports.
    assert [(m["text"], m["phrase"]) for m in carol_data["chat_messages"]] == [
        ("Carol here", None),
        ("", "thanks"),
    ]
    assert [p["text"] for p in carol_data["board_posts"]] == ["Carol's cake on Monday"]
    assert [b["blocked"] for b in carol_data["chat_blocks"]] == ["Bob"]
    assert [m["reason"] for m in carol_data["chat_mutes"]] == ["calm"]
    assert [r["reason"] for r in carol_data["chat_reports"]] == ["rude"]
    assert [r["reason"] for r in carol_data["board_reports"]] == ["spam"]
    assert [a["reason"] for a in carol_data["chat_moderation"]] == ["quiet hours"]
    assert [(m["game"], m["league"]) for m in carol_data["read_marks"]] == [
        (world["running"].pk, None),
        (None, world["league"].slug),
    ]
    assert [a["league"] for a in carol_data["announcements_emailed"]] == [world["league"].slug]
    # Only finished games come as records; the running one would show others' hands.
    assert [g["game"] for g in carol_data["games"]] == [world["finished"].pk]
    assert carol_data["games"][0]["record"]["format"] == "carousel-vectors/1"
    # Only the moves at her own seats.
    seat_of = {s["game"]: s["seat"] for s in carol_data["seats"]}
    assert carol_data["moves"] and all(m["seat"] == seat_of[m["game"]] for m in carol_data["moves"])


def test_the_download_is_one_json_file_for_the_logged_in_player(client, cast, world):
    client.force_login(cast.carol)
    response = client.get(reverse("download_data"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert (
        response["Content-Disposition"]
        == f'attachment; filename="carousel-data-{cast.carol.pk}.json"'
    )
    assert "no-cache" in response["Cache-Control"] or "no-store" in response["Cache-Control"]
    assert json.loads(response.content)["account"]["username"] == "carol"


def test_nobody_else_downloads_it(client, cast):
    response = client.get(reverse("download_data"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert client.post(reverse("download_data")).status_code in (302, 405)


def test_the_download_holds_what_the_privacy_page_says_is_stored(client, carol_data):
    """Each section of the privacy page names the download's sections that hold what it
    lists (``data-download``): together they are every section of the download, and
    each section it names is one."""
    page = client.get(reverse("privacy")).content.decode()
    named = re.findall(
        r'<section class="panel" aria-labelledby="([a-z-]+)"(?: data-download="([a-z_ ]+)")?', page
    )
    claimed = {section for _id, sections in named for section in sections.split()}
    assert {"privacy-account", "privacy-games", "privacy-notices", "privacy-chat"} <= {
        section_id for section_id, sections in named if sections
    }
    assert claimed == set(carol_data) - {"format", "exported_at"}
