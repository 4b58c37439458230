"""Clients generated from the served OpenAPI document call a real server for every operation (issue 35).

An app developer's path: fetch /v1/openapi.json from a running server (uvicorn on loopback), generate a
Python client with openapi-python-client (PyPI, the test extra) and TypeScript types with openapi-typescript
(npm, tests/peers) used through openapi-fetch and type-checked by tsc, then call every operation through them.
References: the generators themselves (independent projects), and the server's own bytes for the same query
sent without the client's defaults.  Before issue 35 the Python package did not import (`events[].night` had
no type), every generated prayer-times call was a 400 (the client sends `calendar=moonsighting`, its declared
default) and /hijri maps parsed as empty objects.

The generators run once per module (the slow part, ~10 s); each operation is then one request per client.
"""
from __future__ import annotations

import datetime
import enum
import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import typing
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

PEERS = Path(__file__).resolve().parent / "peers"
PACKAGE = "shia_times_client"
# One call per GET operation of the endpoints: its query, values typed as a client passes them.
CALLS = {
    "getPrayerTimes": {"lat": 35.69, "lng": 51.39, "date": "2026-03-20", "tz": "Asia/Tehran", "nightThirds": 1},
    "getPrayerTimesCsv": {"city": "karbala", "year": 2026, "month": 3},
    "getMethods": {},
    "getQibla": {"lat": 51.5, "lng": -0.12},
    "getCities": {"q": "karbala"},
    "getMosques": {},
    "getHijri": {"year": 2026, "month": 3},
    "getMoonVisibility": {"hy": 1447, "hm": 9},
    "getMoonVisibilitySvg": {"hy": 1447, "hm": 9},
    "getEvents": {"hy": 1447},
    "getEclipses": {},
    "getDayStatus": {"date": "2026-03-20"},
    "getOpenapiJson": {},
    "getEventsIcs": {},
    "getPrayerTimesIcs": {"city": "karbala"},
    "getFastingIcs": {},
    "getNightIcs": {"city": "karbala"},
}
# More answers of the same operations whose shapes differ (several methods; the Hijri maps and one day).
MORE_CALLS = [
    ("getPrayerTimes", {"city": "london", "date": "2026-11-28", "method": "Jafari,Tehran"}),
    ("getHijri", {"hy": 1447, "hm": 9}),
    ("getHijri", {"date": "2026-03-20"}),
    ("getHijri", {"year": 2026}),
]


_UTC_SUFFIX = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(Z|\+00:00)")


def _instants_alike(value):
    """The JSON with every UTC instant spelt one way: a date-time the client parsed comes back from to_dict() as
    Python's isoformat writes it (…+00:00 for …Z, the same instant)."""
    if isinstance(value, dict):
        return {k: _instants_alike(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_instants_alike(v) for v in value]
    if isinstance(value, str):
        return _UTC_SUFFIX.sub(r"\1Z", value)
    return value


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def _get(base: str, path: str, query: dict) -> tuple[int, bytes]:
    with urllib.request.urlopen(f"{base}{path}?{urllib.parse.urlencode(query)}", timeout=30) as response:
        return response.status, response.read()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app under uvicorn on a free loopback port (empty static root: every answer rendered)."""
    from deploy import local_stack

    with local_stack.app_on_loopback(tmp_path_factory.mktemp("static"),
                                     extra_env={"MOSQUE_DB_PATH": str(tmp_path_factory.mktemp("db") / "m.sqlite3")}) as base:
        yield base


@pytest.fixture(scope="module")
def document(server) -> dict:
    status, body = _get(server, "/v1/openapi.json", {})
    assert status == 200
    return json.loads(body)


def _operations(document: dict) -> dict[str, tuple[str, str]]:
    return {op["operationId"]: (method, path) for path, item in document["paths"].items()
            for method, op in item.items()}


def test_every_operation_has_an_id_and_its_statuses_and_headers(document):
    """Generators name methods by operationId; each GET documents 304 and the error statuses with their headers."""
    operations = _operations(document)
    assert len(operations) == sum(len(item) for item in document["paths"].values())  # unique and present
    from generator.api import ENDPOINTS, mosque_edits

    endpoint_ops = {op for op, (method, path) in operations.items() if path not in mosque_edits.PATHS or method == "get"
                    and path == "/mosques"}
    assert endpoint_ops == set(CALLS) and len(CALLS) == len(ENDPOINTS)
    for op_id in CALLS:
        _, path = operations[op_id]
        responses = document["paths"][path]["get"]["responses"]
        assert {"200", "304", "400", "404", "429", "503"} <= set(responses), op_id
        assert {"ETag", "Cache-Control"} <= set(responses["200"]["headers"]) <= set(document["components"]["headers"])
        assert "Retry-After" in responses["429"]["headers"] and "Retry-After" in responses["503"]["headers"]
    assert {"Day", "PrayerTimes", "HijriDate", "Event", "Error"} <= set(document["components"]["schemas"])
    assert document["components"]["schemas"]["Event"]["properties"]["night"]["type"] == "boolean"


@pytest.fixture(scope="module")
def python_client(document, tmp_path_factory):
    """openapi-python-client's package generated from the served document, imported."""
    out = tmp_path_factory.mktemp("python-client")
    spec, config = out / "openapi.json", out / "config.yml"
    spec.write_text(json.dumps(document), encoding="utf-8")
    # No formatter run (post_hooks), and the SVG map read as text (the generator knows only some media types).
    config.write_text(f"project_name_override: {PACKAGE}\npackage_name_override: {PACKAGE}\npost_hooks: []\n"
                      "content_type_overrides:\n  image/svg+xml: text/plain\n", encoding="utf-8")
    if importlib.util.find_spec("openapi_python_client") is None:
        pytest.fail("openapi-python-client missing: install requirements-test.lock (make setup-test)")
    subprocess.run([sys.executable, "-m", "openapi_python_client", "generate", "--path", str(spec), "--config",
                    str(config), "--meta", "none", "--output-path", str(out / PACKAGE)],
                   check=True, capture_output=True, timeout=120)
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _python_call(package, server: str, op_id: str, query: dict):
    """Call operation ``op_id`` through the generated client: values converted to the types its signature asks."""
    module = importlib.import_module(f"{PACKAGE}.api.default.{_snake(op_id)}")
    hints = typing.get_type_hints(module.sync_detailed)
    kwargs = {}
    for name, value in query.items():
        wanted = next(t for t in typing.get_args(hints[_snake(name)]) if t.__name__ != "Unset")
        if isinstance(wanted, type) and issubclass(wanted, enum.Enum):
            value = wanted(value)
        elif wanted is datetime.date:
            value = datetime.date.fromisoformat(value)
        kwargs[_snake(name)] = value
    with package.Client(base_url=f"{server}/v1", raise_on_unexpected_status=True, timeout=30.0) as client:
        return module.sync_detailed(client=client, **kwargs)


def test_the_python_client_calls_every_operation_and_parses_each_answer(python_client, server, document):
    """Every call is a 200 (the client sends every declared default); a JSON answer parses into the generated
    models and their to_dict() is the JSON itself (nothing dropped: the Hijri maps too); the body is the
    server's own for the query without the client's defaults."""
    operations = _operations(document)
    for op_id, query in [*CALLS.items(), *MORE_CALLS]:
        response = _python_call(python_client, server, op_id, query)
        assert response.status_code == 200, (op_id, response.content[:200])
        path = operations[op_id][1]
        assert response.content == _get(server, f"/v1{path}", query)[1], op_id
        if path.endswith((".csv", ".ics", ".svg")):
            continue
        parsed = response.parsed
        assert parsed is not None and type(parsed).__name__ != "Error", op_id
        assert _instants_alike(parsed.to_dict()) == _instants_alike(json.loads(response.content)), op_id


def test_the_python_client_publishes_reads_and_edits_a_hosted_mosque(python_client, server):
    """The write operations (issue 27) through the same client: publish, read, replace with If-Match and the
    secret, list versions, read one, restore, the SalahAPI views, delete."""
    from shia_times_client.api.default import (delete_mosque, get_mosque, get_mosque_salah_api_csv,
                                               get_mosque_salah_api_json, get_mosque_version,
                                               list_mosque_versions, publish_mosque, replace_mosque,
                                               restore_mosque_version)
    from shia_times_client.models.publish_mosque_body import PublishMosqueBody
    from shia_times_client.models.replace_mosque_body import ReplaceMosqueBody

    profile = {"names": {"en": "Generated Client Centre"}, "place": {"city": "london"},
               "times": {"method": "Jafari"}, "reckoning": "moonsighting", "languages": ["en"],
               "sources": [{"about": "A test of the generated client", "read": "2026-11-28"}]}
    with python_client.Client(base_url=f"{server}/v1", timeout=30.0) as client:
        created = publish_mosque.sync_detailed(client=client, body=PublishMosqueBody.from_dict(profile))
        assert created.status_code == 201, created.content[:300]
        mosque_id, secret = created.parsed.id, created.parsed.edit
        assert get_mosque.sync_detailed(mosque_id, client=client).parsed.to_dict()["names"] == profile["names"]
        assert get_mosque_salah_api_json.sync_detailed(mosque_id, client=client).status_code == 200
        assert get_mosque_salah_api_csv.sync_detailed(mosque_id, client=client).status_code == 200
    renamed = {**profile, "names": {"en": "Generated Client Centre (renamed)"}}
    with python_client.AuthenticatedClient(base_url=f"{server}/v1", token=secret, timeout=30.0) as authed:
        saved = replace_mosque.sync_detailed(mosque_id, client=authed, body=ReplaceMosqueBody.from_dict(renamed),
                                             if_match='"1"')
        assert saved.status_code == 200 and saved.parsed.version == 2, saved.content[:300]
        versions = list_mosque_versions.sync_detailed(mosque_id, client=authed).parsed
        assert [v.version for v in versions.versions] == [1, 2]
        assert get_mosque_version.sync_detailed(mosque_id, 1, client=authed).status_code == 200
        restored = restore_mosque_version.sync_detailed(mosque_id, 1, client=authed, if_match='"2"')
        assert restored.status_code == 200 and restored.parsed.version == 3
        assert delete_mosque.sync_detailed(mosque_id, client=authed, if_match='"3"').status_code == 200


def _typescript_program(document: dict) -> str:
    """One typed call per operation through openapi-fetch; each answer printed as JSON (text bodies as text)."""
    operations = _operations(document)
    lines = ['import createClient from "openapi-fetch";', 'import type { paths } from "./api.js";',
             "declare const process: { argv: string[] };  // node's, without @types/node",
             "const client = createClient<paths>({ baseUrl: process.argv[2] });",
             "const out: Record<string, unknown> = {};"]
    for k, (op_id, query) in enumerate([*CALLS.items(), *MORE_CALLS]):
        path = operations[op_id][1]
        text = ' parseAs: "text"' if path.endswith((".csv", ".ics", ".svg")) else ""
        params = f"params: {{ query: {json.dumps(query)} }}," if query else ""  # no parameters: none to give
        lines.append(f'{{ const {{ data, error, response }} = await client.GET("{path}", '
                     f"{{ {params}{text} }}); "
                     f'out["{k}"] = {{ status: response.status, data, error }}; }}')
    # Typed reads: a prayer-times day's lastThird and a Hijri month map's days, narrowed as an app would.
    lines.append('{ const { data } = await client.GET("/prayer-times", { params: { query: { lat: 35.69, lng: 51.39, '
                 'date: "2026-03-20", nightThirds: 1 } } }); '
                 'if (data && "days" in data) { const day = data.days[0]; out.lastThird = day.lastThird; } }')
    lines.append('{ const { data } = await client.GET("/hijri", { params: { query: { hy: 1447, hm: 9 } } }); '
                 'if (data && "monthLength" in data && "start" in data) { out.monthStart = data.start; } }')
    lines.append("console.log(JSON.stringify(out));")
    return "\n".join(lines) + "\n"


def test_the_typescript_client_type_checks_and_calls_every_operation(document, server, tmp_path):
    """openapi-typescript's types of the served document, used through openapi-fetch in a program that tsc
    type-checks (parameter names and value types, narrowing the answers' unions), then run by node: every call a
    200 whose data is the server's own answer."""
    node = shutil.which("node")
    if node is None or not (PEERS / "node_modules" / "openapi-typescript").is_dir():
        pytest.fail("openapi-typescript peer missing: run `make peers` (node 20 and npm ci in tests/peers)")
    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(document), encoding="utf-8")
    modules = PEERS / "node_modules"
    subprocess.run([node, str(modules / "openapi-typescript" / "bin" / "cli.js"), str(spec), "-o",
                    str(tmp_path / "api.d.ts")], check=True, capture_output=True, timeout=120)
    (tmp_path / "main.mts").write_text(_typescript_program(document), encoding="utf-8")
    (tmp_path / "node_modules").symlink_to(modules)  # openapi-fetch, resolved from the program's folder
    checked = subprocess.run([node, str(modules / "typescript" / "bin" / "tsc"), "--strict", "--target", "es2022",
                              "--module", "nodenext", "--moduleResolution", "nodenext", "--skipLibCheck",
                              str(tmp_path / "main.mts")],
                             capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout[-3000:]
    ran = subprocess.run([node, str(tmp_path / "main.mjs"), f"{server}/v1"], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "TZ": "UTC"}, check=True)
    out = json.loads(ran.stdout)
    operations = _operations(document)
    for k, (op_id, query) in enumerate([*CALLS.items(), *MORE_CALLS]):
        path = operations[op_id][1]
        answer = out[str(k)]
        assert answer["status"] == 200 and answer.get("error") is None, (op_id, answer)
        body = _get(server, f"/v1{path}", query)[1]
        expected = body.decode() if path.endswith((".csv", ".ics", ".svg")) else json.loads(body)
        assert answer["data"] == expected, op_id
    assert re.fullmatch(r"2026-03-2[01]T\d\d:\d\d:00Z", out["lastThird"]) and out["monthStart"] == "2026-02-19"


def test_every_declared_default_sent_as_such_gives_the_answer_without_it():
    """A generated client sends each parameter's declared default; for every endpoint and every parameter with a
    default, the answer to an otherwise valid query (tests/test_parameters.py's) plus that default is the answer
    without it, byte for byte (before issue 35, calendar=moonsighting alone was a 400 on prayer-times, its CSV
    and its feed)."""
    from conftest import call
    from test_parameters import BASE

    from generator.api import ENDPOINTS

    now = datetime.datetime(2026, 11, 28, 12, tzinfo=datetime.timezone.utc).timestamp()
    checked = 0
    for endpoint in ENDPOINTS:
        base = BASE[endpoint.name]
        plain = call(endpoint.name, now, **base)
        for parameter in endpoint.parameters:
            if parameter.default is None or parameter.name in base:
                continue
            assert call(endpoint.name, now, **base, **{parameter.name: parameter.default}) == plain, \
                (endpoint.name, parameter.name)
            checked += 1
    assert checked >= 30, checked
