"""``string.Template`` helpers that Python 3.10 lacks."""

from __future__ import annotations

import string


def template_fields(t: string.Template) -> set[str]:
    """The ``$name`` and ``${name}`` fields of ``t`` (``Template.get_identifiers`` is 3.11+).

    >>> sorted(template_fields(string.Template("$home/a ${url}/x $$5")))
    ['home', 'url']
    """
    found = (m.group("named") or m.group("braced") for m in t.pattern.finditer(t.template))
    return {f for f in found if f}
