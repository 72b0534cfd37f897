"""Latvian and Estonian: pages render translated, the switcher works, and the committed
catalogs (locale/*/LC_MESSAGES/django.po and the compiled .mo beside them) are complete,
unfuzzy and safe: a translation whose placeholders differ from its msgid's would crash
the page that formats it. Keeping the catalogs up to date with the code is by hand:
README, "Translations" (make messages, translate, make compilemessages)."""

import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.factories import make_user

LOCALE = Path(settings.BASE_DIR) / "locale"
PLURAL_FORMS = {
    "lv": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2);",
    "et": "nplurals=2; plural=(n != 1);",
}
LANGS = sorted(PLURAL_FORMS)

# A few strings per language that the tests below expect on the pages.
LOGIN = {"lv": ("Aizmirsāt paroli?", "Izveidot kontu"), "et": ("Unustasid parooli?", "Loo konto")}
# A new user's home: what to do first (join, find or start a league), in their language.
HOME = {"lv": ("Iestājieties līgā",), "et": ("Liitu liigaga",)}
CHANGE = {"en": "Change language", "lv": "Mainīt valodu", "et": "Vaheta keelt"}


# --- a minimal .po reader (no polib: it is not a dependency) ---------------------------


def _unquote(text):
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: escapes[m.group(1)], text.strip()[1:-1])


def read_po(path):
    """The entries of a .po file as dicts: msgctxt, msgid, msgid_plural, msgstr (a list:
    one item, or one per plural form), flags. Obsolete (#~) entries are returned too,
    marked ``obsolete``."""
    entries, entry, key = [], None, None

    def flush():
        if entry and entry.get("msgid") is not None:
            entries.append(entry)

    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        obsolete = raw.startswith("#~")
        line = raw[2:].strip() if obsolete else raw.strip()
        if not line:
            flush()
            entry, key = None, None
            continue
        if entry is None:
            entry = {
                "flags": set(),
                "msgctxt": None,
                "msgid": None,
                "msgid_plural": None,
                "msgstr": {},
                "obsolete": False,
            }
        entry["obsolete"] |= obsolete
        if line.startswith("#,"):
            entry["flags"].update(f.strip() for f in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            if isinstance(key, int):
                entry["msgstr"][key] += _unquote(line)
            else:
                entry[key] += _unquote(line)
        else:
            match = re.match(r'(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(".*")$', line)
            assert match, f"{path}: cannot read {raw!r}"
            name, index, value = match.groups()
            if name == "msgstr":
                key = int(index or 0)
                entry["msgstr"][key] = _unquote(value)
            else:
                key = name
                entry[name] = _unquote(value)
    for entry in entries:
        entry["msgstr"] = [entry["msgstr"][i] for i in sorted(entry["msgstr"])]
    return entries


def catalog(lang):
    entries = read_po(LOCALE / lang / "LC_MESSAGES" / "django.po")
    header = next(e for e in entries if e["msgid"] == "" and e["msgctxt"] is None)
    return header, [e for e in entries if e is not header and not e["obsolete"]]


PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?([diouxXeEfFgGcrsa%])")


def placeholders(text):
    """The named %-placeholders of ``text`` (with their conversion), "%%" left out."""
    found = []
    for name, conversion in PLACEHOLDER.findall(text):
        if conversion == "%":
            continue
        assert name, f"positional placeholder in {text!r}: use %(name)s"
        found.append(name)
    return set(found)


class _Anything(dict):
    def __missing__(self, key):
        return 1


def _label(entry):
    return (entry["msgctxt"] + " | " if entry["msgctxt"] else "") + entry["msgid"]


# --- the catalogs -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_header(lang):
    header, entries = catalog(lang)
    assert entries, "empty catalog"
    assert "fuzzy" not in header["flags"]
    meta = dict(line.split(": ", 1) for line in header["msgstr"][0].splitlines() if ": " in line)
    assert meta["Language"] == lang
    assert meta["Plural-Forms"] == PLURAL_FORMS[lang]
    assert meta["Content-Type"] == "text/plain; charset=UTF-8"


@pytest.mark.parametrize("lang", LANGS)
def test_every_msgid_translated_and_none_fuzzy(lang):
    _header, entries = catalog(lang)
    nplurals = int(re.search(r"nplurals=(\d+)", PLURAL_FORMS[lang]).group(1))
    problems = []
    for entry in entries:
        if "fuzzy" in entry["flags"]:
            problems.append(f"fuzzy: {_label(entry)}")
        want = nplurals if entry["msgid_plural"] is not None else 1
        if len(entry["msgstr"]) != want or not all(s.strip() for s in entry["msgstr"]):
            problems.append(f"untranslated: {_label(entry)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_match(lang):
    """What msgfmt --check-format checks, plus: the translation formats without error.
    A singular msgstr has exactly its msgid's placeholders; every plural form uses only
    msgid_plural's, and the last ("many") form uses all of them."""
    _header, entries = catalog(lang)
    problems = []
    for entry in entries:
        if entry["msgid_plural"] is None:
            wanted = [(entry["msgstr"][0], placeholders(entry["msgid"]), True)]
        else:
            source = placeholders(entry["msgid_plural"])
            last = len(entry["msgstr"]) - 1
            wanted = [(text, source, i == last) for i, text in enumerate(entry["msgstr"])]
        for text, source, exact in wanted:
            got = placeholders(text)
            if (got != source) if exact else not got <= source:
                problems.append(f"{_label(entry)!r} -> {text!r}: {sorted(got)} vs {sorted(source)}")
            if "python-format" in entry["flags"]:
                try:
                    text % _Anything()
                except (TypeError, ValueError, KeyError) as error:
                    problems.append(f"{text!r} does not format: {error}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalog_matches_po(lang):
    """The committed .mo is compiled from the committed .po (a fresh machine needs no
    gettext at run time): every translation reads back from it."""
    mo = LOCALE / lang / "LC_MESSAGES" / "django.mo"
    assert mo.exists(), "run: make compilemessages"
    with mo.open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    _header, entries = catalog(lang)
    stale = []
    for entry in entries:
        if not all(entry["msgstr"]):
            continue  # untranslated: test_every_msgid_translated_and_none_fuzzy says so
        if entry["msgid_plural"] is not None:
            for n in (1, 2, 5, 11, 21):
                got = (
                    compiled.npgettext(entry["msgctxt"], entry["msgid"], entry["msgid_plural"], n)
                    if entry["msgctxt"]
                    else compiled.ngettext(entry["msgid"], entry["msgid_plural"], n)
                )
                if got not in entry["msgstr"]:
                    stale.append(_label(entry))
                    break
        else:
            got = (
                compiled.pgettext(entry["msgctxt"], entry["msgid"])
                if entry["msgctxt"]
                else compiled.gettext(entry["msgid"])
            )
            if got != entry["msgstr"][0]:
                stale.append(_label(entry))
    assert not stale, "stale .mo (run: make compilemessages):\n" + "\n".join(stale)


# --- pages ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_login_page_follows_language_cookie(client, db, lang):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    html = client.get(reverse("login")).content.decode()
    assert f'<html lang="{lang}">' in html
    for text in LOGIN[lang] + (CHANGE[lang],):
        assert text in html
    assert "Forgot your password?" not in html


@pytest.mark.parametrize("lang", LANGS)
def test_login_page_follows_accept_language(client, db, lang):
    html = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=f"{lang},en;q=0.5").content.decode()
    assert f'<html lang="{lang}">' in html
    for text in LOGIN[lang]:
        assert text in html


@pytest.mark.parametrize("lang", LANGS)
def test_home_page_signed_in(client, db, lang):
    client.force_login(make_user())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    for text in HOME[lang]:
        assert text in html
    assert "Waiting for others" not in html


def test_english_is_the_default(client, db):
    html = client.get(reverse("login")).content.decode()
    assert '<html lang="en">' in html
    assert "Forgot your password?" in html


def test_switcher_lists_languages_by_their_own_names(client, db):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "et"
    html = client.get(reverse("login")).content.decode()
    footer = re.search(r'<footer class="site-footer">.*?</footer>', html, re.S).group(0)
    assert f'action="{reverse("set_language")}"' in footer
    assert 'name="csrfmiddlewaretoken"' in footer
    assert f'name="next" value="{reverse("login")}"' in footer
    options = re.findall(r'<option value="(\w+)"[^>]*?( selected)?>([^<]+)</option>', footer)
    assert [(code, name) for code, _sel, name in options] == [
        ("en", "English"),
        ("lv", "Latviešu"),
        ("et", "Eesti"),
    ]
    assert [code for code, sel, _name in options if sel] == ["et"]
    # Strict CSP: no inline style or script in the switcher.
    assert "style=" not in footer and "<script" not in footer
    assert not re.search(r"\son\w+=", footer)


def test_set_language_switches(client, db):
    response = client.post(reverse("set_language"), {"language": "lv", "next": reverse("login")})
    assert response.status_code == 302
    assert response["Location"] == reverse("login")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "lv"
    assert "Aizmirsāt paroli?" in client.get(reverse("login")).content.decode()

    client.post(reverse("set_language"), {"language": "et", "next": reverse("login")})
    assert "Unustasid parooli?" in client.get(reverse("login")).content.decode()

    client.post(reverse("set_language"), {"language": "en", "next": reverse("login")})
    assert "Forgot your password?" in client.get(reverse("login")).content.decode()


def test_set_language_refuses_unknown_language_and_foreign_next(client, db):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "lv"
    response = client.post(
        reverse("set_language"), {"language": "xx", "next": "https://evil.example/"}
    )
    assert response.status_code == 302
    assert not response["Location"].startswith("https://evil.example")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "lv"
