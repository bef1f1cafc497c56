"""Campaigns on a Ray cluster: ``python -m mjhand batch CAMPAIGN --ray ADDRESS`` (or ``mjhand batch ... --ray``) and
``mjhand.ray_batch.run(path, address)``. Each rollout not yet done is one Ray task running the same C++ rollout code as
``mjhand batch`` (``mjhand.run_rollout``); the driver alone writes the result files, atomically, as tasks finish, so a
rerun skips what finished (resumable) and the files are byte for byte those of a local run (deterministic rollouts,
any number of nodes). A task lost with its node is retried elsewhere by Ray (``max_retries``); a diverging rollout is a
failed result, as locally. docs/batch.md, "On a Ray cluster".

Every node needs the mjhand package (same version) and the campaign's files at the same paths (a shared file system, or
the checkout at the same place on each node); ``address`` is ``auto`` (the cluster this machine belongs to), an
address (``ray://host:10001`` or ``host:6379``) or ``local`` (a cluster started for this run on this machine).
"""
import os
import sys
import time

import mjhand

from ._extras import require

_campaigns = {}  # per worker process: the expanded campaign of (path, mtime), reused by every task it runs there


def _campaign(path):
    key = (path, os.stat(path).st_mtime_ns)
    if key not in _campaigns:
        _campaigns.clear()
        _campaigns[key] = mjhand.load_campaign(path)
    return _campaigns[key]


def _alive_nodes(ray):
    return sum(1 for n in ray.nodes() if n["Alive"])


def _rollout(path, cwd, index):
    """The Ray task: one rollout, returned as its file text (nothing is written on the worker)."""
    os.chdir(cwd)  # relative paths of the campaign resolve as on the driver
    r = mjhand.run_rollout(_campaign(path), index)
    return index, r["status"], r["steps"], r["file_text"]


class _Bar:
    """One status line on stderr: nodes, rollouts done/failed of this run, steps per second."""

    def __init__(self, total, enabled):
        self.total, self.enabled, self.t0, self.last = total, enabled and total > 0, time.monotonic(), 0.0

    def show(self, nodes, done, failed, steps, final=False):
        """nodes: a callable giving the alive node count (a query of the cluster: asked only when the line is drawn)."""
        now = time.monotonic()
        if not self.enabled or (not final and now - self.last < 0.5):
            return
        self.last = now
        nodes = nodes()
        rate = steps / max(now - self.t0, 1e-9)
        sys.stderr.write(f"\r[ray] {nodes} node(s) | {done}/{self.total} rollouts | {failed} failed | "
                         f"{rate:,.0f} steps/s" + ("\n" if final else ""))
        sys.stderr.flush()


def run(path, address="auto", shard_index=0, shard_count=1, max_retries=3, progress=True, on_result=None,
        num_cpus_per_task=1):
    """Runs the campaign file `path` on a Ray cluster; returns a report dict like mjhand.run_campaign's (total,
    selected, skipped, ok, failed, steps, nodes, summary). `on_result(index, status)` is called after each file is
    written (tests stop a run there). KeyboardInterrupt leaves every finished rollout written: rerun to resume."""
    ray = require("ray", "ray", "running a campaign on Ray (mjhand batch --ray)")
    path = os.path.abspath(path)
    c = mjhand.load_campaign(path)
    plan = mjhand.plan_campaign(c, shard_index, shard_count)
    todo = [i for i, done in plan if not done]
    report = {"total": len(c), "selected": len(plan), "skipped": len(plan) - len(todo), "ok": 0, "failed": 0,
              "steps": 0, "nodes": 0, "summary": ""}
    if not todo:  # nothing to run: no cluster needed
        report["summary"] = mjhand.write_summary(c)["path"]
        return report
    started_here = not ray.is_initialized()
    if started_here:
        if address == "local":  # a cluster of this machine only, for this run
            ray.init(log_to_driver=False, logging_level="ERROR", include_dashboard=False)
        else:
            ray.init(address=address, log_to_driver=False, logging_level="ERROR")
    pending = {}
    try:
        report["nodes"] = _alive_nodes(ray)
        task = ray.remote(num_cpus=num_cpus_per_task, max_retries=max_retries)(_rollout)
        pending = {task.remote(path, os.getcwd(), i): i for i in todo}
        bar = _Bar(len(todo), progress)
        done = 0
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            for ref in ready:
                del pending[ref]
                index, status, steps, text = ray.get(ref)
                mjhand.write_rollout(c, index, text)  # atomic; the driver is the only writer
                done += 1
                report["ok" if status == "ok" else "failed"] += 1
                report["steps"] += steps
                if on_result:
                    on_result(index, status)
            bar.show(lambda: _alive_nodes(ray), done, report["failed"], report["steps"], final=not pending)
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started_here:
            ray.shutdown()
    report["summary"] = mjhand.write_summary(c)["path"]
    return report


def main(argv):
    """``batch CAMPAIGN --ray ADDRESS [--shard I/N] [--quiet]`` (the CLI's batch with --ray)."""
    import argparse
    p = argparse.ArgumentParser(prog="mjhand batch", description="run a campaign's rollouts as Ray tasks")
    p.add_argument("campaign")
    p.add_argument("--ray", required=True, metavar="ADDRESS", help="auto, local, or the cluster's address")
    p.add_argument("--shard", default="0/1", metavar="I/N")
    p.add_argument("--max-retries", type=int, default=3, help="retries of a task lost with its node (default 3)")
    p.add_argument("--quiet", action="store_true")
    a = p.parse_args(argv)
    try:
        si, sn = (int(x) for x in a.shard.split("/"))
    except ValueError:
        p.error(f"--shard: expected I/N, got '{a.shard}'")
    try:
        r = run(a.campaign, a.ray, si, sn, a.max_retries, progress=not a.quiet)
    except KeyboardInterrupt:
        print("mjhand batch: interrupted; finished rollouts are written, rerun to resume", file=sys.stderr)
        return 3
    except ImportError as e:  # ray is an extra
        print(f"mjhand batch: {e}", file=sys.stderr)
        return 2
    except (ValueError, OSError, RuntimeError, ConnectionError) as e:  # bad campaign, unwritable output, no cluster
        print(f"mjhand batch: error: {e}", file=sys.stderr)
        return 1
    where = f"on {r['nodes']} node(s)" if r["nodes"] else "nothing left to run, no cluster started"
    print(f"{r['ok']} ok, {r['failed']} failed, {r['skipped']} already done of {r['selected']} ({where}); "
          f"summary: {r['summary']}")
    return 0  # as mjhand batch: every rollout has a result (failed ones included: see summary.csv)
