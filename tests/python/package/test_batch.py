"""Campaigns from Python: the same engine and files as `mjhand batch`, single rollouts for programs that distribute
them (a Ray driver, say), resumability and errors."""
import os
import subprocess
import sys

import pytest

import mjhand
from conftest import SOURCE


def campaign_file(tmp_path, out):
    path = tmp_path / "c.yaml"
    path.write_text(f"""name: small
output: {out}
duration: 0.2
sample_period: 0.02
scenarios:
  - name: ball
    model: {os.path.join(SOURCE, "models", "campaigns", "egrasp_scene_param.xml")}
    object: ball
grid:
  density: [160, 2300, 19250]
  gravity_z: [-9.81]
""")
    return str(path)


def rollout_files(results_dir):
    d = os.path.join(results_dir, "rollouts")
    return {f: open(os.path.join(d, f), "rb").read() for f in sorted(os.listdir(d))}


def test_python_campaign_equals_mjhand_batch_byte_for_byte(tmp_path):
    c = mjhand.load_campaign(campaign_file(tmp_path, tmp_path / "py"))
    assert len(c) == 3
    report = mjhand.run_campaign(c, threads=2)
    assert report["ok"] == 3 and report["failed"] == 0 and report["io_error"] == ""
    (tmp_path / "cli").mkdir()
    cli_yaml = tmp_path / "cli" / "c.yaml"
    cli_yaml.write_text(open(c.file).read().replace(str(tmp_path / "py"), str(tmp_path / "cli")))
    subprocess.run([sys.executable, "-m", "mjhand", "batch", str(cli_yaml), "--threads", "1"], check=True,
                   capture_output=True, timeout=600)
    py_files = rollout_files(c.results_dir)
    cli_files = rollout_files(str(tmp_path / "cli" / "small"))
    assert py_files.keys() == cli_files.keys() and len(py_files) == 3
    for name in py_files:
        assert py_files[name] == cli_files[name], name  # 2 threads here, 1 there: deterministic rollouts


def test_single_rollouts_write_resumable_results(tmp_path):
    c = mjhand.load_campaign(campaign_file(tmp_path, tmp_path / "out"))
    assert [done for _, done in mjhand.plan_campaign(c)] == [False, False, False]
    r = mjhand.run_rollout(c, 1)
    assert r["status"] == "ok" and r["id"] == c.rollout_id(1) and r["steps"] > 0
    path = mjhand.write_rollout(c, 1, r["file_text"])
    assert path == r["path"] and open(path).read() == r["file_text"]
    assert [done for _, done in mjhand.plan_campaign(c)] == [False, True, False]
    report = mjhand.run_campaign(c, threads=1)
    assert report["skipped"] == 1 and report["ok"] == 2  # the rollout written above is not recomputed
    assert open(path).read() == r["file_text"]
    summary = mjhand.write_summary(c)
    assert summary["ok"] == 3 and summary["missing"] == 0
    rows = open(summary["path"]).read().splitlines()
    assert len(rows) == 4 and rows[2] == r["summary_row"]


def test_campaign_errors(tmp_path):
    c = mjhand.load_campaign(campaign_file(tmp_path, tmp_path / "out"))
    with pytest.raises(IndexError, match="rollout index 3 is not in 0..2"):
        mjhand.run_rollout(c, 3)
    with pytest.raises(ValueError, match="shard"):
        mjhand.plan_campaign(c, 2, 2)
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nduration: -1\n")
    with pytest.raises(mjhand.SpecError, match="bad.yaml:2"):
        mjhand.load_campaign(str(bad))
