"""Rendered fragments shared between viewers, per server process, with keys that cannot
miss what the fragment shows.

After a move every open socket re-renders its view, and most parts look the same to
many viewers (the table, the controls, the final scores, the revealed hands of the last
round): each is made once per what it shows, language and time zone
(``memory.fragments``) and shared. A fragment's key is never listed by hand:

- ``fragment(template, ctx)``: the key is every value the template reads from ``ctx``
  (``reads``: each variable of the template and of the templates it includes, found in
  its compiled nodes, resolved against ``ctx``), so a variable added to a template is
  in its key with nothing else to change;
- ``fragment_from(template, context_of, key)``: the context is ``context_of(*key)``,
  made from the key alone;
- ``made(name, key, make)``: HTML built in Python (``rummy.table.html``) from exactly
  ``key``'s values.
"""

from collections.abc import Callable, Hashable
from typing import Any

from django.template import Node, Variable, VariableDoesNotExist
from django.template.base import FilterExpression
from django.template.loader import get_template, render_to_string
from django.template.loader_tags import IncludeNode
from django.utils import timezone, translation

from config import caches
from rummy.table import memory

Here = tuple[str, str]


def where() -> Here:
    """(language, time zone name) of the render: what every fragment is keyed by."""
    return translation.get_language(), timezone.get_current_timezone_name()


def made(name: str, key: Hashable, make: Callable[[], Any], here: Here | None = None):
    """What ``make()`` returns, made once per ``name``, ``key``, language and time zone
    in this process. ``here``: ``where()``, when the caller has read it for this render."""
    full_key = (name, *(here or where()), key)
    html = memory.fragments.get(full_key)
    if html is None:
        html = make()
        memory.fragments.put(full_key, html)
    return html


def fragment_from(template: str, context_of: Callable, key: tuple, here: Here | None = None):
    """``template`` rendered with ``context_of(*key)``, once per ``key``."""
    return made(template, key, lambda: render_to_string(template, context_of(*key)), here)


def fragment(template: str, ctx: dict, here: Here | None = None):
    """``template`` rendered with ``ctx``, once per what it reads of ``ctx``."""
    key = tuple(_value(variable, ctx) for variable in reads(template))
    return made(template, key, lambda: render_to_string(template, ctx), here)


MISSING = object()


def _value(variable: Variable, ctx: dict) -> Hashable:
    # A plain name whose value is no callable is the context's value itself: what
    # ``resolve`` would return, without its lookup machinery (this runs for every
    # variable of every shared part of every view).
    lookups = variable.lookups
    if lookups is not None and len(lookups) == 1 and not variable.translate:
        value = ctx.get(lookups[0], MISSING)
        if value is not MISSING and not callable(value):
            return frozen(value)
    try:
        value = variable.resolve(ctx)
    except VariableDoesNotExist:
        # A loop's or a {% with %}'s own name, or a value the context does not have.
        return MISSING
    return frozen(value)


def frozen(value: Any) -> Hashable:
    """``value`` as a key: lists and tuples as tuples, sets as frozensets, dicts as their
    sorted items, each element frozen too."""
    if isinstance(value, list | tuple):
        return tuple(frozen(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, frozen(v)) for k, v in value.items()))
    if isinstance(value, set | frozenset):
        return frozenset(frozen(v) for v in value)
    return value


@caches.memo()
def reads(template: str) -> tuple[Variable, ...]:
    """Every variable ``template`` and the templates it includes read (each dotted path
    once, in the order found): from its compiled nodes, once per process."""
    found: dict[str, Variable] = {}
    _scan(get_template(template).template.nodelist, found, set())  # type: ignore[attr-defined]
    return tuple(found.values())


def _scan(obj: Any, found: dict[str, Variable], seen: set[int]) -> None:
    if id(obj) in seen or isinstance(obj, str | int | float | bool | type(None)):
        return
    seen.add(id(obj))
    if isinstance(obj, FilterExpression):
        _scan(obj.var, found, seen)
        for _func, args in obj.filters:
            for lookup, arg in args:
                if lookup:
                    _scan(arg, found, seen)
        return
    if isinstance(obj, Variable):
        if obj.lookups is not None:
            found.setdefault(str(obj.var), obj)
        return
    if isinstance(obj, IncludeNode):
        # A name in quotes is a literal: FilterExpression.var is the string itself.
        name = getattr(obj.template, "var", None)
        if not isinstance(name, str):
            raise ValueError(f"an included template is named by a variable: {obj.template}")
        _scan(get_template(name).template.nodelist, found, seen)  # type: ignore[attr-defined]
        _scan(obj.extra_context, found, seen)
        return
    if isinstance(obj, list | tuple | set):
        for item in obj:
            _scan(item, found, seen)
        return
    if isinstance(obj, dict):
        for item in obj.values():
            _scan(item, found, seen)
        return
    if isinstance(obj, Node) or type(obj).__module__.startswith("django.template"):
        for name, value in vars(obj).items():
            if name not in ("origin", "token", "source"):
                _scan(value, found, seen)
