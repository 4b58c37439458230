"""GET /v1/methods: the sixteen calculation methods."""
from __future__ import annotations

from generator.api import schemas
from generator.api.endpoint import Canonical, Endpoint, Params
from generator.methods import METHODS


def canonical(values, now_unix_s: float) -> Canonical:
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


ENDPOINT = Endpoint("methods", "The sixteen calculation methods", (), canonical, build, schemas.METHODS,
                    plan=lambda window: [{}])
