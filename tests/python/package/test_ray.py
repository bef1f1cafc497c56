"""Campaigns on a real multi-node Ray cluster on localhost (ray.cluster_utils.Cluster: a head node and worker nodes
as separate raylet processes, started and stopped here): files byte for byte those of a local run, a node killed
mid-campaign, resumption, a diverging rollout. Bounded: the whole module takes about a minute on 2 cores."""
import os
import re
import threading

import pytest

ray = pytest.importorskip("ray") if os.environ.get("MJHAND_REQUIRE_TEST_DEPS") != "1" else __import__("ray")
from ray.cluster_utils import Cluster  # noqa: E402

import mjhand  # noqa: E402
from mjhand import ray_batch  # noqa: E402
from conftest import SOURCE  # noqa: E402

MODEL = os.path.join(SOURCE, "models", "campaigns", "egrasp_scene_param.xml")


def campaign(tmp_path, out, densities=(160, 700, 2300, 7860, 19250, 500), duration=0.6, name="c"):
    p = tmp_path / f"{name}.yaml"
    p.write_text(f"""name: {name}
output: {out}
duration: {duration}
sample_period: 0.02
scenarios:
  - name: ball
    model: {MODEL}
    object: ball
grid:
  density: [{", ".join(str(d) for d in densities)}]
  gravity_z: [-9.81]
""")
    return str(p)


def files(results_dir):
    d = os.path.join(results_dir, "rollouts")
    return {f: open(os.path.join(d, f), "rb").read() for f in sorted(os.listdir(d))}


@pytest.fixture(scope="module")
def cluster():
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    worker = c.add_node(num_cpus=1)
    ray.init(address=c.address, log_to_driver=False, logging_level="ERROR")
    yield c, worker
    ray.shutdown()
    c.shutdown()


def test_ray_results_equal_a_local_run(tmp_path, cluster):
    local = mjhand.load_campaign(campaign(tmp_path, tmp_path / "local"))
    assert mjhand.run_campaign(local, threads=2)["ok"] == len(local)
    r = ray_batch.run(campaign(tmp_path, tmp_path / "ray"), progress=False)
    assert r["nodes"] >= 2 and r["ok"] == len(local) and r["failed"] == 0 and r["skipped"] == 0
    assert files(str(tmp_path / "ray" / "c")) == files(local.results_dir)
    assert open(str(tmp_path / "ray" / "c" / "summary.csv")).read() == open(
        os.path.join(local.results_dir, "summary.csv")).read()


def test_a_killed_node_loses_and_duplicates_nothing(tmp_path, cluster):
    c, _ = cluster
    extra = c.add_node(num_cpus=1)  # the node to kill
    path = campaign(tmp_path, tmp_path / "ray", densities=range(100, 1300, 100), duration=0.8)
    written = []
    killed = threading.Event()

    def on_result(index, status):
        written.append(index)
        if len(written) == 2 and not killed.is_set():
            killed.set()
            c.remove_node(extra, allow_graceful=False)  # SIGKILL of its raylet and workers, tasks in flight lost

    r = ray_batch.run(path, progress=False, on_result=on_result)
    assert killed.is_set()
    campaign_ = mjhand.load_campaign(path)
    assert sorted(written) == list(range(len(campaign_)))  # every rollout written exactly once
    assert r["ok"] == len(campaign_) and r["failed"] == 0
    local = mjhand.load_campaign(campaign(tmp_path, tmp_path / "local", densities=range(100, 1300, 100),
                                          duration=0.8))
    mjhand.run_campaign(local, threads=2)
    assert files(str(tmp_path / "ray" / "c")) == files(local.results_dir)


def test_an_interrupted_run_resumes_without_recomputing(tmp_path, cluster):
    path = campaign(tmp_path, tmp_path / "ray")

    def stop_after_two(index, status, seen=[]):
        seen.append(index)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ray_batch.run(path, progress=False, on_result=stop_after_two)
    done = [i for i, d in mjhand.plan_campaign(mjhand.load_campaign(path)) if d]
    assert len(done) == 2
    results = mjhand.load_campaign(path).results_dir
    stamps = {f: os.stat(os.path.join(results, "rollouts", f)).st_mtime_ns for f in os.listdir(os.path.join(results, "rollouts"))}
    r = ray_batch.run(path, progress=False)
    assert r["skipped"] == 2 and r["ok"] == len(mjhand.load_campaign(path)) - 2
    for f, t in stamps.items():  # the two finished files were not rewritten
        assert os.stat(os.path.join(results, "rollouts", f)).st_mtime_ns == t


def test_a_diverging_rollout_is_a_failed_result_as_locally(tmp_path, cluster):
    # gravity 1e12 m/s^2 makes the e_GRASP scene diverge (MuJoCo's qacc warning ends the rollout), as in test_batch.cc.
    def write(out, name):
        p = tmp_path / f"{name}.yaml"
        p.write_text(open(campaign(tmp_path, out, densities=(700,), name=name)).read()
                     .replace("gravity_z: [-9.81]", "gravity_z: [-9.81, -1e12]"))
        return str(p)
    r = ray_batch.run(write(tmp_path / "ray", "div"), progress=False)
    local = mjhand.load_campaign(write(tmp_path / "local", "div"))
    mjhand.run_campaign(local, threads=1)
    assert r["failed"] == 1 and r["ok"] == 1
    assert files(str(tmp_path / "ray" / "div")) == files(local.results_dir)
    summary = open(str(tmp_path / "ray" / "div" / "summary.csv")).read()
    assert "diverged" in summary


def test_the_cli_runs_a_campaign_on_ray(tmp_path):
    """`mjhand batch CAMPAIGN --ray local` (the C++ CLI hands over to this Python's mjhand package), and the same
    through `python -m mjhand`; a rerun skips what is done."""
    import subprocess
    import sys
    cli = os.environ.get("MJHAND_CLI", os.path.join(SOURCE, "build", "bin", "mjhand"))
    if not os.path.exists(cli):
        pytest.fail(f"needs the build's mjhand CLI at {cli} (scripts/test.sh builds it first)")
    path = campaign(tmp_path, tmp_path / "out", densities=(160, 700))
    r = subprocess.run([cli, "batch", path, "--ray", "local", "--quiet"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    # "on N node(s)": N depends on which cluster ray.init finds (RAY_ADDRESS of another test's cluster, else local)
    assert re.search(r"2 ok, 0 failed, 0 already done of 2 \(on [1-9][0-9]* node\(s\)\)", r.stdout), r.stdout
    r = subprocess.run([sys.executable, "-m", "mjhand", "batch", path, "--ray", "local", "--quiet"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 ok, 0 failed, 2 already done of 2 (nothing left to run, no cluster started)" in r.stdout, r.stdout
    r = subprocess.run([sys.executable, "-m", "mjhand", "batch", str(tmp_path / "nope.yaml"), "--ray", "local"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "nope.yaml" in r.stderr
