"""Error reports to Sentry (sentry-sdk), only when ``SENTRY_DSN`` is set, and never with
anything of a hand, the stock order or a person in them.

A game's state holds every hand and the stock in order, and passes through the write
path's locals, the SQL of its queries and, in an engine error, an exception's message;
a request carries passwords, the session cookie and the CSRF token. So the SDK is told
to attach none of it (no local variables, no request bodies, no personal data), and
``scrub`` goes over every event before it leaves all the same, deny by default:

- the request keeps its method, its address without the query string, and a few
  harmless headers; no body, cookies, query string or environment;
- the user keeps their id only;
- stack frames keep the code, never the variables;
- breadcrumbs keep their category and (scrubbed) message, never their data; SQL ones
  are dropped whole (their parameters are the state);
- anywhere in what is left (extra, contexts, tags, log messages and their arguments),
  a key that names a secret or a game's hidden part (``SECRET_KEYS``) loses its value,
  and every string has email addresses and runs of cards in notation (``10H JD *``, a
  hand or the stock as the engine writes it) or in symbols (``8♠``) replaced.
"""

import re
from typing import Any

# Keys whose values never leave, at any depth (matched anywhere in the key, any case).
SECRET_KEYS = re.compile(
    r"hand|stock|state|deck|draft|payload|password|passwd|secret|token|key|email|"
    r"cookie|session|csrf|auth|signature|display_name|username|dsn",
    re.IGNORECASE,
)
FILTERED = "[Filtered]"
# Headers kept on a request: nothing in them belongs to a person or a game.
SAFE_HEADERS = {"content-type", "content-length", "host", "accept-language", "hx-request"}
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# A card in the engine's notation (rank, suit; a joker, declared or not) or in symbols.
CARD = r"(?:\*(?:10|[2-9AJQKT])[CDHS]|\*|(?:10|[2-9AJQKT])[CDHS])"
CARD_RUN = re.compile(rf"(?<![\w*]){CARD}(?:[\s,'\"\[\]]+{CARD})+(?![\w*])", re.IGNORECASE)
CARD_REPR = re.compile(r"Card\.parse\([^)]*\)")
CARD_SYMBOL = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")


def scrub_text(text: str) -> str:
    text = EMAIL.sub("[email]", text)
    text = CARD_REPR.sub("[card]", text)
    text = CARD_RUN.sub("[cards]", text)
    return CARD_SYMBOL.sub("[card]", text)


def scrub_value(value: Any, depth: int = 0) -> Any:
    """``value`` with secret keys emptied and every string scrubbed, at any depth."""
    if depth > 20:
        return FILTERED
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, dict):
        return {
            key: FILTERED
            if isinstance(key, str) and SECRET_KEYS.search(key)
            else scrub_value(item, depth + 1)
            for key, item in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [scrub_value(item, depth + 1) for item in value]
    return value


def _scrub_request(request: dict) -> dict:
    url = str(request.get("url", "")).split("?", 1)[0]
    headers = request.get("headers") or {}
    return {
        "method": request.get("method"),
        "url": scrub_text(url),
        "headers": {k: v for k, v in headers.items() if str(k).lower() in SAFE_HEADERS},
    }


def _scrub_frames(event: dict) -> None:
    containers = [*(event.get("exception") or {}).get("values", [])]
    containers += (event.get("threads") or {}).get("values", [])
    for container in containers:
        if isinstance(container.get("value"), str):
            container["value"] = scrub_text(container["value"])
        for frame in (container.get("stacktrace") or {}).get("frames", []):
            frame.pop("vars", None)


def _scrub_breadcrumbs(event: dict) -> None:
    crumbs = event.get("breadcrumbs")
    values = crumbs.get("values", []) if isinstance(crumbs, dict) else crumbs or []
    kept = []
    for crumb in values:
        if crumb.get("category") == "query" or crumb.get("type") == "query":
            continue
        crumb.pop("data", None)
        if isinstance(crumb.get("message"), str):
            crumb["message"] = scrub_text(crumb["message"])
        kept.append(crumb)
    if isinstance(crumbs, dict):
        crumbs["values"] = kept
    elif crumbs is not None:
        event["breadcrumbs"] = kept


def scrub(event: dict, hint: Any = None) -> dict:
    """Sentry's ``before_send``: the event as it may leave (see the module's docstring)."""
    if "request" in event:
        event["request"] = _scrub_request(event["request"])
    if "user" in event:
        user_id = (event.get("user") or {}).get("id")
        event["user"] = {"id": user_id} if user_id is not None else {}
    _scrub_frames(event)
    _scrub_breadcrumbs(event)
    for part in ("extra", "contexts", "tags", "logentry", "message", "modules_info"):
        if part in event:
            event[part] = scrub_value(event[part])
    event.pop("server_name", None)
    return event


def scrub_breadcrumb(crumb: dict, hint: Any = None) -> dict | None:
    """Sentry's ``before_breadcrumb``: the same rules, as each one is recorded."""
    if crumb.get("category") == "query" or crumb.get("type") == "query":
        return None
    crumb.pop("data", None)
    if isinstance(crumb.get("message"), str):
        crumb["message"] = scrub_text(crumb["message"])
    return crumb


def init(dsn: str, **options: Any) -> None:
    """Start reporting to ``dsn``. ``options`` override the settings above (the tests
    give a transport of their own, and attach everything the scrubber must remove)."""
    import sentry_sdk
    from sentry_sdk.integrations.django import DjangoIntegration

    settings: dict[str, Any] = {
        "integrations": [DjangoIntegration()],
        # send_default_pii stays at its default (off): the option is deprecated
        "include_local_variables": False,
        "max_request_body_size": "never",
        "traces_sample_rate": 0,
        "before_send": scrub,
        "before_breadcrumb": scrub_breadcrumb,
    }
    sentry_sdk.init(dsn=dsn, **{**settings, **options})
