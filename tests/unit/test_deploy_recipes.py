"""The deployment recipes of deploy/ hold together (docs/deployment.md).

No Docker daemon runs here, so the compose files are checked structurally: the services
each recipe needs, a health check on every one, start-up ordered on health, named volumes
for every stateful part, and every secret an environment reference that must be set
(``${NAME:?...}``), never a literal. The LangGraph configuration is checked by
``langgraph validate`` and ``langgraph dockerfile`` (langgraph-cli, a dev dependency).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO_ROOT

DEPLOY = REPO_ROOT / "deploy"
LANGGRAPH_COMPOSE = DEPLOY / "langgraph" / "compose.yaml"
WORKERS_COMPOSE = DEPLOY / "workers" / "compose.yaml"
SECRETS = ("POSTGRES_PASSWORD", "QDRANT_API_KEY", "FINAGENT_API_TOKENS")
SECRET_KEYS = re.compile(r"(PASSWORD|API_KEY|TOKENS|LICENSE_KEY)$")
CREDENTIALS = re.compile(r"://[^/@:]*:(?P<password>[^/@]*)@")  # user:password@ in a URL
REQUIRED_REF = re.compile(r"\$\{(\w+):\?[^}]*\}")
ANY_REF = re.compile(r"\$\{(\w+)(:?[-?][^}]*)?\}")


def compose(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("path", "services"),
    [
        (LANGGRAPH_COMPOSE, {"langgraph-api", "langgraph-postgres", "langgraph-redis", "qdrant"}),
        (WORKERS_COMPOSE, {"gateway", "finagent", "postgres", "qdrant"}),
    ],
)
def test_recipe_services_health_volumes_and_secrets(path: Path, services: set[str]) -> None:
    data = compose(path)
    assert set(data["services"]) == services
    for name, service in data["services"].items():
        check = service.get("healthcheck", {})
        assert check.get("test"), f"{name} has no health check"
        for dependency, condition in service.get("depends_on", {}).items():
            assert dependency in services
            assert condition == {"condition": "service_healthy"}, (name, dependency)
        for mount in service.get("volumes", []):
            source = mount.split(":", 1)[0]
            assert source.startswith("./") or source in data["volumes"], (name, mount)
        for key, value in service.get("environment", {}).items():
            if SECRET_KEYS.search(key):
                assert ANY_REF.fullmatch(str(value)), f"{name}.{key} is a literal secret"
            if found := CREDENTIALS.search(str(value)):
                assert ANY_REF.fullmatch(found["password"]), f"{name}.{key}: literal password"
    text = path.read_text(encoding="utf-8")
    assert set(SECRETS) - {"FINAGENT_API_TOKENS"} <= set(REQUIRED_REF.findall(text))
    assert "FINAGENT_API_TOKENS" in REQUIRED_REF.findall(text)  # no anonymous service
    # every stateful part keeps its data in a named volume
    stateful = {"postgres": "/var/lib/postgresql/data", "qdrant": "/qdrant/storage"}
    for name, service in data["services"].items():
        for kind, target in stateful.items():
            if kind in name:
                assert any(v.endswith(":" + target) for v in service["volumes"]), name


def test_the_app_services_share_postgres_and_a_qdrant_server() -> None:
    api = compose(LANGGRAPH_COMPOSE)["services"]["langgraph-api"]["environment"]
    assert api["FINAGENT_QDRANT_URL"] == "http://qdrant:6333"
    assert "@langgraph-postgres:5432/" in api["DATABASE_URI"]
    assert api["REDIS_URI"] == "redis://langgraph-redis:6379"
    workers = compose(WORKERS_COMPOSE)["services"]["finagent"]
    assert workers["environment"]["FINAGENT_QDRANT_URL"] == "http://qdrant:6333"
    assert "@postgres:5432/" in workers["environment"]["FINAGENT_POSTGRES_URL"]
    assert "FINAGENT_WORKERS" in str(workers["deploy"]["replicas"])


def test_the_gateway_balances_over_the_worker_service() -> None:
    conf = (DEPLOY / "workers" / "nginx.conf").read_text(encoding="utf-8")
    assert re.search(r"upstream finagent \{[^}]*server finagent:8000", conf)
    assert "proxy_buffering off" in conf  # SSE streams through
    gateway = compose(WORKERS_COMPOSE)["services"]["gateway"]
    assert "./nginx.conf:/etc/nginx/nginx.conf:ro" in gateway["volumes"]


def test_the_worker_image_installs_the_extras_it_runs() -> None:
    dockerfile = (DEPLOY / "workers" / "Dockerfile").read_text(encoding="utf-8")
    installed = re.search(r'pip install "\.\[([\w,-]+)\]"', dockerfile)
    assert installed is not None
    extras = set(installed.group(1).split(","))
    declared = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert extras == {"server", "postgres"} <= set(declared["project"]["optional-dependencies"])
    assert '"finagent", "serve", "--host", "0.0.0.0"' in dockerfile
    assert "/healthz" in dockerfile and "USER finagent" in dockerfile


def langgraph_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(Path(sys.executable).with_name("langgraph")), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO_ROOT,
    )


def test_the_langgraph_configuration_is_build_ready(tmp_path: Path) -> None:
    config = DEPLOY / "langgraph" / "langgraph.json"
    valid = langgraph_cli("validate", "-c", str(config))
    assert valid.returncode == 0, valid.stdout + valid.stderr
    assert "(2 graphs found)" in valid.stdout
    made = langgraph_cli("dockerfile", "-c", str(config), str(tmp_path / "Dockerfile"))
    assert made.returncode == 0, made.stdout + made.stderr
    dockerfile = (tmp_path / "Dockerfile").read_text(encoding="utf-8")
    assert "FROM langchain/langgraph-api:3.11" in dockerfile
    assert "finagent/graph/server.py:agent" in dockerfile
    assert "finagent/graph/server.py:research" in dockerfile
    assert "langgraph_auth.py:auth" in dockerfile and "langgraph_http.py:app" in dockerfile
