"""Generated requests against the OpenAPI document (schemathesis, in process over ASGI).

Every operation gets EXAMPLES generated requests (valid and invalid values per the
schema, combinations the schema allows but the endpoints refuse): zero 5xx, and every
response conforms to its documented status, content type and JSON schema.  With 14
operations that is over 1,000 requests.  The document itself validates as OpenAPI 3.1.
"""
from __future__ import annotations

import json
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from openapi_spec_validator import validate
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

os.environ.setdefault("RATE_LIMIT_PER_MINUTE", "0")
from runtime.app import app  # noqa: E402

EXAMPLES = 80
schema = schemathesis.openapi.from_asgi("/v1/openapi.json", app)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
COUNTER = {"requests": 0}


def test_document_is_valid_openapi_3_1(client):
    document = client.get("/v1/openapi.json").json()
    validate(document)
    assert document["openapi"] == "3.1.0" and len(document["paths"]) >= 14


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_generated_requests_conform(case):
    case.call_and_validate(checks=CHECKS)
