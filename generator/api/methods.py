"""GET /v1/methods: the sixteen calculation methods."""
from __future__ import annotations

from generator.api.endpoint import Canonical, Endpoint, Params, register
from generator.methods import METHODS
from generator.query import Query


def parse(query: Query, now_unix_s: float) -> Canonical:
    query.finish()
    return Canonical({})


def build(params: Params) -> dict:
    return {
        "methods": [
            {
                "id": m.id,
                "label": dict(m.label),
                "description": m.description,
                "source": m.source,
                "default": m.default,
            }
            for m in METHODS.values()
        ]
    }


ENDPOINT = register(Endpoint("methods", parse, build))
