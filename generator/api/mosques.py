"""``mosque=<id>``: a mosque profile (`generator.prayer.mosques`) standing for the query it describes.

Declared once here and read by /v1/prayer-times, its CSV, /v1/prayer-times.ics, /v1/night.ics
and the screen and widget (through /v1/prayer-times' own parse).  `fill` turns the profile into
the parameters a person would otherwise give (place, method and options, jamaat rules, the
reckoning as ``calendar``; the feed's ``name`` in the feed's language), read by the same readers
as a query's, so ``mosque=<id>`` answers exactly the bytes of that explicit query (the canonical
parameters hold no ``mosque``: the same key, the same static file).

Which parameters a request may add (docs/decisions.md "Mosque profiles"): those that choose what
to show and how (``date``/``year``/``month``, ``lang``, ``clock``, ``days``, ``name``, and the
feed options ``prayers``, ``duration``, ``busy``, ``alarm``, ``ramadan``).  Those that make the
mosque's times (`OWNED`: place, zone, method and its options, jamaat rules, ``calendar``, and
``offsets``, the older jamaat rule) are the mosque's, and refused beside ``mosque``.  A profile
option that moves nothing an answer shows (``imsak`` in a feed without an imsak event, a
``tune`` of a time the night feed lacks) is left out, where in a query it is refused.
"""
from __future__ import annotations

from typing import Sequence

from generator.prayer import mosques
from generator.api import params as P
from generator.errors import QueryError
from generator.query import Query

OWNED = frozenset((*(k for keys in mosques.PLACE_KEYS for k in keys), *mosques.TIMES_KEYS, *mosques.JAMAAT_KEYS,
                   "calendar", "offsets"))


def _read_id(query: Query, name: str) -> str | None:
    value = query.string(name, max_chars=mosques.MAX_ID_CHARS)
    if value is None:
        return None
    if mosques.find(value) is None:
        listed = ", ".join(list(mosques.by_id())[:20])
        raise QueryError(name, f"unknown mosque id; one of {listed} (/v1/mosques lists them)" if listed
                         else "unknown mosque id (/v1/mosques lists them)")
    return value


MOSQUE = P.custom(
    "mosque", {"type": "string", "maxLength": mosques.MAX_ID_CHARS, "pattern": f"^{mosques.ID.pattern}$"}, _read_id,
    "A mosque id of /v1/mosques: its place, method and options, jamaat rules and reckoning, as if given (the same "
    "answer as that explicit query). Those parameters may then not be given; date, language and display options may.",
    keep_default=False, example="jaffari-toronto")


def fill(values: P.Values, parameters: Sequence[P.Param]) -> P.Values:
    """Return ``values`` with the profile of ``mosque`` filled in (``values`` itself without one).

    Only the endpoint's own ``parameters`` are filled; a parameter of `OWNED` in the query is a
    QueryError naming it.  The filled names are in ``given`` (as if the query had them) and in
    ``supplied``.
    """
    mosque_id = values.get(MOSQUE.name)
    if mosque_id is None:
        return values
    for name in sorted(values.given & OWNED):
        raise QueryError(name, f"set by the profile of mosque={mosque_id} (see /v1/mosques); leave {name} out, "
                               f"or ask without mosque to choose it")
    profile = mosques.find(mosque_id)
    if profile is None:  # a hosted profile deleted since its id was read
        raise QueryError(MOSQUE.name, "unknown mosque id (/v1/mosques lists them)")
    declared = {p.name: p for p in parameters}
    items = {name: value for name, value in profile.parameters.items() if name in declared}
    if "name" in declared and "name" not in values.given:  # the feed's title: the mosque's name in its language
        items["name"] = profile.name(values.get("lang") or mosques.DEFAULT_LANGUAGE)
    found = P.read(Query.of(items), [declared[name] for name in items])
    merged = {**values, **{name: found[name] for name in found.given}}
    return P.Values(merged, (values.given - {MOSQUE.name}) | found.given, found.given)
