"""The "How to play" page: one long-form content template per language."""

from django.shortcuts import render
from django.template.loader import select_template
from django.utils import translation
from django.views.decorators.http import require_safe

# The languages with their own written guide; any other falls back to English.
WRITTEN_IN = ("en", "lv", "et")


def content_template(language):
    language = (language or "en").split("-")[0]
    names = [f"guide/how_to_play_{language}.html"] if language in WRITTEN_IN else []
    return select_template([*names, "guide/how_to_play_en.html"])


@require_safe
def how_to_play(request):
    """Open to everyone, signed in or not: the rule book is no secret."""
    return render(
        request,
        "guide/how_to_play.html",
        {"content_template": content_template(translation.get_language()).template.name},
    )
