"""The Kubernetes manifests (deploy/k8s) are complete and consistent: no
cluster runs here, so they are parsed and checked -- a Deployment each for web,
worker and beat with readiness and liveness probes on /health (web) or on the
heartbeats /health reads (worker, beat), one beat that never overlaps itself,
a Service and an Ingress for the web pods, the migration Job, and config that
settings actually read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
ENTRYPOINT = (ROOT / "docker" / "entrypoint.sh").read_text()
# read by docker/gunicorn.conf.py, not by settings
WEB_PROCESS_VARS = {"WEB_WORKERS", "FORWARDED_ALLOW_IPS"}


def docs(name: str) -> list[dict]:
    return [d for d in yaml.safe_load_all((K8S / name).read_text()) if d]


@pytest.fixture(scope="module")
def objects() -> dict[tuple[str, str], dict]:
    kustomization = docs("kustomization.yaml")[0]
    out = {}
    for res in kustomization["resources"]:
        assert (K8S / res).exists(), res
        for d in docs(res):
            assert {"apiVersion", "kind", "metadata"} <= set(d), res
            out[(d["kind"], d["metadata"]["name"])] = d
    return out


def container(deployment: dict) -> dict:
    (c,) = deployment["spec"]["template"]["spec"]["containers"]
    return c


def test_every_manifest_file_is_in_the_kustomization():
    listed = set(docs("kustomization.yaml")[0]["resources"])
    on_disk = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml", "secret.example.yaml"}
    assert listed == on_disk


@pytest.mark.parametrize(
    "name,shortcut", [("sengoku-web", "web"), ("sengoku-worker", "worker"), ("sengoku-beat", "beat")]
)
def test_deployments_run_the_image_shortcuts_with_both_probes(objects, name, shortcut):
    d = objects[("Deployment", name)]
    spec = d["spec"]
    assert spec["selector"]["matchLabels"].items() <= spec["template"]["metadata"]["labels"].items()
    c = container(d)
    assert c["image"].startswith("sengoku") and c["args"] == [shortcut]
    assert f"  {shortcut})" in ENTRYPOINT, "the entrypoint must know the shortcut"
    refs = {next(iter(e.values()))["name"] for e in c["envFrom"]}
    assert refs == {"sengoku-config", "sengoku-secrets"}
    assert spec["template"]["spec"]["securityContext"]["runAsNonRoot"] is True
    for probe in ("readinessProbe", "livenessProbe"):
        assert probe in c, f"{name} lacks a {probe}"


def test_web_probes_are_on_health_and_the_service_and_ingress_reach_it(objects):
    web = objects[("Deployment", "sengoku-web")]
    c = container(web)
    port_names = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert port_names == {"http": 8000}
    ready, live = c["readinessProbe"]["httpGet"], c["livenessProbe"]["httpGet"]
    assert ready["path"] == "/api/v1/health?probe=ready" and ready["port"] == "http"
    assert live["path"] == "/api/v1/health?probe=live" and live["port"] == "http"
    svc = objects[("Service", "sengoku-web")]
    assert svc["spec"]["selector"].items() <= web["spec"]["template"]["metadata"]["labels"].items()
    assert svc["spec"]["ports"][0]["targetPort"] == "http"
    ing = objects[("Ingress", "sengoku")]
    backend = ing["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == "sengoku-web" and backend["port"]["name"] == svc["spec"]["ports"][0]["name"]
    assert ing["metadata"]["annotations"]["nginx.ingress.kubernetes.io/proxy-buffering"] == "off"
    assert web["spec"]["replicas"] >= 2


def test_the_probe_modes_exist_in_the_health_view_and_the_probe_script():
    view = (ROOT / "api" / "views" / "meta.py").read_text()
    assert '"live"' in view and '"ready"' in view
    script = (ROOT / "docker" / "healthcheck.py").read_text()
    for mode in ("worker", "scheduler", "ready"):
        assert f'"{mode}"' in script


@pytest.mark.parametrize("name,role", [("sengoku-worker", "worker"), ("sengoku-beat", "scheduler")])
def test_worker_and_beat_are_probed_by_their_heartbeats(objects, name, role):
    c = container(objects[("Deployment", name)])
    for probe in ("readinessProbe", "livenessProbe"):
        assert c[probe]["exec"]["command"] == ["python", "docker/healthcheck.py", role]


def test_one_beat_that_never_overlaps_itself(objects):
    beat = objects[("Deployment", "sengoku-beat")]
    assert beat["spec"]["replicas"] == 1 and beat["spec"]["strategy"]["type"] == "Recreate"


def test_migrations_run_as_a_job(objects):
    job = objects[("Job", "sengoku-migrate")]
    c = job["spec"]["template"]["spec"]["containers"][0]
    assert c["args"] == ["migrate"] and "migrate --noinput" in ENTRYPOINT
    assert job["spec"]["template"]["spec"]["restartPolicy"] in ("OnFailure", "Never")


def test_config_and_secret_keys_are_settings_that_exist(objects):
    settings = (ROOT / "config" / "settings.py").read_text()
    keys = set(objects[("ConfigMap", "sengoku-config")]["data"])
    keys |= set(docs("secret.example.yaml")[0]["stringData"])
    unknown = [k for k in keys if k not in WEB_PROCESS_VARS and f'"{k}"' not in settings]
    assert not unknown, f"keys no setting reads: {unknown}"
    secret = docs("secret.example.yaml")[0]["stringData"]
    assert {"SECRET_KEY", "DATABASE_URL", "REDIS_URL"} <= set(secret)
    assert objects[("ConfigMap", "sengoku-config")]["data"]["SENGOKU_PRODUCTION"] == "true"
    assert re.match(r"^postgres://", secret["DATABASE_URL"])
