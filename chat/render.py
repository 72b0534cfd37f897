"""The chat as each reader sees it: HTML from templates, values in, never a query of
its own beyond what the caller passes."""

from django.template.loader import render_to_string

from chat.phrases import words


def message_context(message, reader_id, moderate):
    return {
        "m": message,
        "words": words(message.phrase) if message.phrase else message.text,
        "mine": message.author_id == reader_id,
        "moderate": moderate,
    }


def message_html(message, reader_id, moderate, oob=""):
    context = message_context(message, reader_id, moderate)
    context["oob"] = oob
    return render_to_string("chat/_message.html", context)


def appended(messages, reader_id, moderate):
    """New messages, added at the end of the page's thread."""
    if not messages:
        return ""
    items = [message_context(m, reader_id, moderate) for m in messages]
    return render_to_string("chat/_appended.html", {"items": items})


def flash(words_shown):
    return render_to_string("chat/_flash.html", {"chat_flash": words_shown, "oob": True})
