"""Rule ids (R1 … R10, R5.2 a …, as in the rule book) and their anchors on the guide.

Every id here has a section (or paragraph) with ``id=anchor(rule_id)`` on the page in
every language (checked by tests/rummy/guide); ``rule_links`` links only these ids, so a
typo or a future id without a section stays plain text instead of a dead link.
"""

import re

from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

# The rule book's ids in its order: each chapter, its rules, and R5.2's four conditions.
RULE_IDS = (
    "R1", "R1.1", "R1.2", "R1.3",
    "R2", "R2.1", "R2.2", "R2.3",
    "R3", "R3.1", "R3.2", "R3.3", "R3.4",
    "R4", "R4.1", "R4.2", "R4.3", "R4.4",
    "R5", "R5.1", "R5.2", "R5.2 a", "R5.2 b", "R5.2 c", "R5.2 d", "R5.3",
    "R6", "R6.1", "R6.2",
    "R7", "R7.1", "R7.2", "R7.3", "R7.4", "R7.5", "R7.6",
    "R8", "R8.1", "R8.2", "R8.3",
    "R9", "R9.1", "R9.2", "R9.3",
    "R10",
)  # fmt: skip
_KNOWN = frozenset(RULE_IDS)

# "R5.2 b" (a condition), "R5.2", "R5"; not inside a word or a longer number ("R10" is not
# "R1", "XR4" and "R4x" are not ids). The letter is tried first and kept only when that
# condition exists: after R6.1 the word "a" stays a word of the sentence.
RULE_ID = re.compile(r"(?<![\w.])R(\d+)(?:\.(\d+))?(?![\w])(?:[ \u00a0]([a-d])(?![\w]))?")


def anchor(rule_id):
    """The element id of a rule's section: "R5.2 b" -> "R5-2-b" (no dots or spaces, so
    ``#R5-2-b`` needs no escaping in CSS or a URL)."""
    return rule_id.replace(".", "-").replace(" ", "-").replace("\u00a0", "-")


def guide_url(rule_id=None):
    url = reverse("how_to_play")
    return f"{url}#{anchor(rule_id)}" if rule_id else url


def _link(rule_id, text):
    return format_html('<a class="rule-link in-text" href="{}">{}</a>', guide_url(rule_id), text)


def rule_links(text) -> SafeString:
    """``text`` escaped (unless already safe HTML), with every known rule id in it a link
    to its section. Only our own ``<a>`` tags are marked safe."""
    escaped = str(conditional_escape(text))
    out, last = [], 0
    for match in RULE_ID.finditer(escaped):
        chapter, rule, letter = match.groups()
        base = f"R{chapter}.{rule}" if rule else f"R{chapter}"
        if letter and f"{base} {letter}" in _KNOWN:
            rule_id, end = f"{base} {letter}", match.end()
        elif base in _KNOWN:
            rule_id, end = base, match.end(2) if rule else match.end(1)
        else:
            continue
        out.append(escaped[last : match.start()])
        # The link text is the matched id as written (digits, dots, a space, a letter),
        # taken from the already escaped text.
        out.append(_link(rule_id, mark_safe(escaped[match.start() : end])))
        last = end
    out.append(escaped[last:])
    # Every piece is escaped text or format_html's output.
    return mark_safe("".join(out))
