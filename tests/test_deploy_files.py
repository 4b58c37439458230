"""The container files and service units are well-formed and say what docs/operations.md says (issue 34).

Nothing here starts a container (that is tests/test_containers.py, under `make container-check`): this reads
deploy/compose.yaml with a YAML parser (PyYAML, as Compose's own loader reads YAML 1.1 mappings) and
deploy/Dockerfile's instructions, and checks the promises a newcomer relies on, in milliseconds, on any machine.
Every environment variable the code reads is in the table of docs/operations.md (found here by reading the
source, not from a list in the code).
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def test_compose_runs_nginx_two_apps_and_postgresql():
    compose = yaml.safe_load((ROOT / "deploy/compose.yaml").read_text())
    services = compose["services"]
    assert {"db", "build", "app1", "app2", "front"} <= set(services)
    assert services["db"]["image"].startswith("postgres:") and "healthcheck" in services["db"]
    for name in ("app1", "app2"):
        app = services[name]
        assert app["image"] == "shia-times:latest" and app["read_only"] is True
        assert app["environment"]["RATE_LIMIT_PER_MINUTE"] == "0"  # nginx's limit is the one
        assert app["environment"]["MOSQUE_DB_URL"].startswith("postgresql://") and "@db:5432/" in app["environment"]["MOSQUE_DB_URL"]
        assert app["depends_on"]["db"]["condition"] == "service_healthy"
        assert int(app["stop_grace_period"].rstrip("s")) > 20  # above uvicorn's graceful shutdown
    command = services["build"]["command"]
    assert command[:2] == ["sh", "-c"] and len(command) == 3  # one shell line (a folded scalar once split it)
    assert "app1:8000,app2:8000 --access-log" in command[2] and "\n" not in command[2]
    assert services["front"]["image"].startswith("nginx:") and "/srv/site:ro" in " ".join(services["front"]["volumes"])


def test_the_image_runs_as_a_user_without_rights_with_the_tables_built_in():
    lines = [line.strip() for line in (ROOT / "deploy/Dockerfile").read_text().splitlines()]
    instructions = [line.split()[0] for line in lines if line and not line.startswith("#") and line.split()[0].isupper()
                    and not line.startswith("&&")]
    assert instructions[0] == "FROM" and "USER" in instructions and "CMD" in instructions
    user = next(line for line in lines if line.startswith("USER "))
    assert user.split()[1].split(":")[0] not in ("root", "0")
    assert instructions.index("USER") > max(i for i, word in enumerate(instructions) if word == "RUN")  # last RUN as root
    text = "\n".join(lines)
    assert "python build.py --tables-only" in text and "pip install --no-deps -r requirements.lock" in text
    assert "--timeout-graceful-shutdown" in text and "--no-proxy-headers" in text


def test_every_environment_variable_the_code_reads_is_in_the_operations_table():
    read = set()
    for path in [*ROOT.glob("runtime/*.py"), *ROOT.glob("generator/**/*.py"), *ROOT.glob("deploy/*.py"), *ROOT.glob("bench/*.py"),
                 *ROOT.glob("*.py")]:
        text = path.read_text(encoding="utf-8")
        read |= set(re.findall(r"environ(?:\.get)?[\[(]\s*\"([A-Z][A-Z0-9_]+)\"", text))
        read |= set(re.findall(r"os\.getenv\(\s*\"([A-Z][A-Z0-9_]+)\"", text))
    read |= {"PUBLIC_ORIGIN"}  # generator/site/urls.py reads it through a named constant
    # runtime/mosque_store.py Limits.from_env reads its caps from a table of (name, field, scale)
    store = (ROOT / "runtime/mosque_store.py").read_text(encoding="utf-8")
    read |= set(re.findall(r"\(\"(HOSTED_MAX_[A-Z_]+)\",", store))
    table = (ROOT / "docs/operations.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", table, re.MULTILINE))
    assert read - documented == set(), read - documented
    assert documented - read == set(), documented - read  # no variable the code does not read (issue 34: PROFILE_TTL_S was one)


def test_the_image_context_leaves_out_what_must_never_be_in_an_image():
    """.dockerignore (read by `docker build` at the context's root, the repository's): a development run's profiles
    and app keys (var/), its venvs and tables (the image makes its own), a build's output (986 MB).  The first real
    build (28 November 2026) had no .dockerignore and would have sent all of these."""
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {"var", ".venv", ".venv-test", "data/tables", "static_out", ".git", "deploy/compose.env"} <= ignored
