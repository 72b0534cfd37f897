"""Every HTTP route of the site, found by walking the URL resolver, so that a test over
"every route" also covers the routes added after it was written."""

import re
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver

PARAM_RE = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


@dataclass(frozen=True)
class Route:
    name: str  # "namespace:name", or the route itself when unnamed
    route: str  # the full route with <converter:name> parameters

    def url(self, **values):
        def fill(match):
            name = match.group("name")
            if name not in values:
                raise KeyError(f"no sample value for <{name}> in {self.route}")
            return str(values[name])

        return "/" + PARAM_RE.sub(fill, self.route)


def _route_text(pattern):
    # RoutePattern keeps the route; RegexPattern (rare here) keeps its regex.
    return getattr(pattern, "_route", None) or str(pattern)


def all_routes(resolver=None, prefix="", namespace=""):
    """Each URLPattern as a Route. The admin site is one entry ("admin"): it guards
    every page of its own with the staff check, tested once as a whole."""
    resolver = resolver or get_resolver()
    routes = []
    for entry in resolver.url_patterns:
        text = prefix + _route_text(entry.pattern)
        if isinstance(entry, URLResolver):
            if entry.app_name == "admin":
                routes.append(Route("admin", text))
                continue
            ns = entry.namespace
            child_ns = f"{namespace}{ns}:" if ns else namespace
            routes.extend(all_routes(entry, text, child_ns))
        elif isinstance(entry, URLPattern):
            name = f"{namespace}{entry.name}" if entry.name else text
            routes.append(Route(name, text))
    return routes
