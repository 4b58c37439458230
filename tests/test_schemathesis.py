"""Generated requests against the OpenAPI document (schemathesis, in process over ASGI).

Each operation gets EXAMPLES generated requests (valid and invalid values per the schema,
and combinations the schema allows but the endpoints refuse): zero 5xx, and every response
conforms to its documented status, content type and JSON schema; over 1,000 requests in
all (hypothesis stops early only where an operation's parameter space is smaller).  The
document itself validates as OpenAPI 3.1.
"""
from __future__ import annotations

import os

import schemathesis
from hypothesis import HealthCheck, given, settings
from openapi_spec_validator import validate
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

os.environ.setdefault("RATE_LIMIT_PER_MINUTE", "0")
from runtime.app import app  # noqa: E402

EXAMPLES = 100
schema = schemathesis.openapi.from_asgi("/v1/openapi.json", app)
OPERATIONS = [result.ok() for result in schema.get_all_operations()]
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def test_document_is_valid_openapi_3_1(client):
    document = client.get("/v1/openapi.json").json()
    validate(document)
    assert document["openapi"] == "3.1.0" and len(document["paths"]) >= 14 and len(OPERATIONS) >= 13


def test_generated_requests_conform_for_every_operation():
    sent: dict[str, int] = {}
    for operation in OPERATIONS:
        count = []

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def send(case):
            case.call_and_validate(checks=CHECKS)
            count.append(1)

        send()
        sent[operation.path] = len(count)
    assert sum(sent.values()) >= 1000, sent
