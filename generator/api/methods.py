"""GET /v1/methods: the SPEC's sixteen calculation methods, then the extensions (``extension: true``).

A preset bound to printed tables (generator.prayer.timetables) lists them in ``tables``."""
from __future__ import annotations

from generator.api import schemas
from generator.api.endpoint import Canonical, Endpoint, Params
from generator.prayer import timetables
from generator.prayer.methods import METHODS, Method


def canonical(values, now_unix_s: float) -> Canonical:
    return Canonical({})


def build(params: Params) -> dict:
    return {"methods": [item(m) for m in METHODS.values()]}


def item(m: Method) -> dict:
    """One method as SPEC 2.2 lists it, plus ``extension`` and ``tables`` where they apply."""
    out = {"id": m.id, "label": dict(m.label), "description": m.description, "source": m.source, "default": m.default}
    if m.extension:
        out["extension"] = True
    tables = timetables.tables_of(m.id)
    if tables:
        out["tables"] = [t.id for t in tables]
    return out


ENDPOINT = Endpoint("methods", "The sixteen calculation methods of the SPEC, then the extensions", (), canonical, build, schemas.METHODS,
                    plan=lambda window: [{}])
