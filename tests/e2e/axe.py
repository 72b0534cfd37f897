"""axe-core in the browser tests, from a pinned package: no npm and no network.

The axe-core script (MPL-2.0) is the ``axe.min.js`` shipped inside the
``axe-playwright-python`` wheel (pinned in requirements-e2e.in; 0.1.8 bundles axe-core
4.12.1). Only that file is used: it is evaluated in the page over the DevTools protocol,
which the site's Content-Security-Policy (script-src 'self') does not apply to, and axe
is run there directly.

    from tests.e2e.axe import serious_violations, describe
    found = serious_violations(page)
    assert not found, describe(found)
"""

from functools import cache
from importlib.resources import files

AXE_PACKAGE = "axe_playwright_python"
# The impacts that fail a test: axe's "minor" and "moderate" are reported, not enforced.
SERIOUS = ("serious", "critical")
# WCAG 2.0-2.2 A and AA rules plus axe's best practices.
DEFAULT_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice")
# Rules whose "needs review" (incomplete) answer is a failure on a rendered page: axe
# holds back on an aria-describedby naming an id that is not there (a script might add
# it later), but on a page that has loaded nothing will.
STRICT_INCOMPLETE = ("aria-valid-attr-value",)


@cache
def axe_source():
    """The text of the pinned axe.min.js (read once per test process)."""
    return (files(AXE_PACKAGE) / "axe.min.js").read_text(encoding="utf-8")


def axe_version(page):
    inject(page)
    return page.evaluate("() => window.axe.version")


def inject(page):
    """Make ``window.axe`` exist in the page's current document (after each navigation)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())


def run_axe(page, context=None, tags=DEFAULT_TAGS):
    """axe's full result object for the page (or the ``context`` selector) as a dict."""
    inject(page)
    return page.evaluate(
        """([context, tags]) => window.axe.run(context || document, {
            runOnly: {type: "tag", values: tags},
            resultTypes: ["violations", "incomplete"],
        })""",
        [context, list(tags)],
    )


def serious_violations(page, context=None, impacts=SERIOUS, tags=DEFAULT_TAGS):
    """The violations of impact "serious" or "critical", each a dict: ``id``, ``impact``,
    ``help``, ``helpUrl`` and ``nodes`` (each node: ``target`` selectors, ``html``,
    ``summary``, as axe gives them); the incomplete results of ``STRICT_INCOMPLETE``
    count as violations. An empty list is a pass."""
    results = run_axe(page, context=context, tags=tags)
    found = results["violations"] + [
        v for v in results["incomplete"] if v["id"] in STRICT_INCOMPLETE
    ]
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "helpUrl": v["helpUrl"],
            "nodes": [
                {
                    "target": node["target"],
                    "html": node["html"],
                    "summary": node.get("failureSummary", ""),
                }
                for node in v["nodes"]
            ],
        }
        for v in found
        if v["impact"] in impacts
    ]


def describe(violations, where=""):
    """A readable report of ``serious_violations`` for an assertion message."""
    lines = [f"axe found {len(violations)} serious or critical problem(s){where}:"]
    for v in violations:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:10]:
            lines.append(f"    {' '.join(map(str, node['target']))}: {node['html'][:160]}")
            for line in node["summary"].splitlines():
                lines.append(f"      {line}")
    return "\n".join(lines)
