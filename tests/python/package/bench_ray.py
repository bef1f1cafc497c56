"""Benchmark: a campaign on Ray (one machine, a local 2-CPU cluster started once, as a running cluster would be)
against the local engine (`mjhand.run_campaign`, 2 threads) on the same campaign, interleaved over repetitions; ratio
of median wall times (issue target <= 1.10). Then the per-task overhead: the same with rollouts of one step.

Usage: .venv/bin/python tests/python/package/bench_ray.py [--repetitions 3] [--rollouts 12] [--duration 1.0]
"""
import argparse
import os
import shutil
import statistics
import tempfile
import time

import ray

import mjhand
from mjhand import ray_batch

SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
p = argparse.ArgumentParser()
p.add_argument("--repetitions", type=int, default=3)
p.add_argument("--rollouts", type=int, default=12)
p.add_argument("--duration", type=float, default=1.0)
a = p.parse_args()
tmp = tempfile.mkdtemp()


def campaign(name, duration, n):
    path = os.path.join(tmp, f"{name}.yaml")
    with open(path, "w") as f:
        f.write(f"name: {name}\noutput: {tmp}/out\nduration: {duration}\nsample_period: 0.02\nscenarios:\n"
                f"  - name: ball\n    model: {SOURCE}/models/campaigns/egrasp_scene_param.xml\n    object: ball\n"
                f"grid:\n  density: [{', '.join(str(100 + 50 * i) for i in range(n))}]\n  gravity_z: [-9.81]\n")
    return path


def clean():
    shutil.rmtree(os.path.join(tmp, "out"), ignore_errors=True)


def local(path):
    clean()
    t = time.perf_counter()
    r = mjhand.run_campaign(mjhand.load_campaign(path), threads=2)
    assert r["ok"] == r["selected"]
    return time.perf_counter() - t


def on_ray(path):
    clean()
    t = time.perf_counter()
    r = ray_batch.run(path, progress=False)
    assert r["ok"] == r["selected"]
    return time.perf_counter() - t


ray.init(num_cpus=2, log_to_driver=False, logging_level="ERROR", include_dashboard=False)
try:
    work = campaign("work", a.duration, a.rollouts)
    tiny = campaign("tiny", 0.002, a.rollouts)  # one step per rollout: what is left is per-task cost
    on_ray(work)  # warm-up: worker processes started, mjhand imported on them
    results = {"local": [], "ray": [], "local_tiny": [], "ray_tiny": []}
    for k in range(a.repetitions):
        for name, fn, path in (("local", local, work), ("ray", on_ray, work)) if k % 2 == 0 else \
                (("ray", on_ray, work), ("local", local, work)):
            results[name].append(fn(path))
        results["local_tiny"].append(local(tiny))
        results["ray_tiny"].append(on_ray(tiny))
    med = {k: statistics.median(v) for k, v in results.items()}
    print(f"campaign: {a.rollouts} rollouts x {a.duration} s simulated, e_GRASP scene, 2 CPUs")
    print(f"local engine (2 threads): {med['local']:.3f} s   Ray (local 2-CPU cluster): {med['ray']:.3f} s   "
          f"ratio {med['ray'] / med['local']:.3f}")
    per_task = (med["ray_tiny"] - med["local_tiny"]) / a.rollouts
    print(f"per-task overhead (1-step rollouts): {per_task * 1e3:.1f} ms per rollout on 2 workers "
          f"(local {med['local_tiny']:.3f} s, Ray {med['ray_tiny']:.3f} s for {a.rollouts})")
finally:
    ray.shutdown()
    shutil.rmtree(tmp, ignore_errors=True)
