"""Benchmark: G + J_H + sigma_min from Python against the same C++ call, in one process (issue: <= 2x).

The C++ side is GraspAnalysis._time_cpp (compute_grasp + grasp_sigma_min in a C++ loop, timed in C++); the Python
side calls GraspAnalysis.compute(data) and reads .sigma_min in a Python loop. Both on the settled 4-contact grasp of
models/grasp_sensor_scene.xml, interleaved over repetitions; the ratio of medians is printed. Also shown: the
one-line convenience path mjhand.grasp(...).sigma_min(), which allocates its result arrays.

Usage: .venv/bin/python tests/python/package/bench_overhead.py [--n 20000] [--repetitions 7]
"""
import argparse
import statistics
import time

import mujoco

import mjhand

p = argparse.ArgumentParser()
p.add_argument("--n", type=int, default=20000)
p.add_argument("--repetitions", type=int, default=7)
a = p.parse_args()

m = mujoco.MjModel.from_xml_path(mjhand.model_path("grasp_sensor_scene.xml"))
d = mujoco.MjData(m)
for _ in range(1000):
    mujoco.mj_step(m, d)
mujoco.mj_forward(m, d)
ga = mjhand.GraspAnalysis(m, mjhand.hand(m, "ball"))
assert ga.compute(d) == 4


def python_loop(n):
    compute = ga.compute
    t0 = time.perf_counter()
    for _ in range(n):
        compute(d)
        ga.sigma_min
    return time.perf_counter() - t0


def convenience(n):
    t0 = time.perf_counter()
    for _ in range(n):
        mjhand.grasp(m, d, object="ball").sigma_min()
    return time.perf_counter() - t0


cpp, py, conv = [], [], []
python_loop(1000)
ga._time_cpp(d, 1000)
for r in range(a.repetitions):
    cpp.append(ga._time_cpp(d, a.n)[0])
    py.append(python_loop(a.n))
    conv.append(convenience(a.n // 10) * 10)
us = lambda xs: statistics.median(xs) / a.n * 1e6
print(f"C++ compute_grasp + sigma_min:        {us(cpp):7.3f} us/call")
print(f"Python GraspAnalysis.compute + sigma: {us(py):7.3f} us/call   ratio {statistics.median(py) / statistics.median(cpp):.3f}")
print(f"Python mjhand.grasp(...).sigma_min(): {us(conv):7.3f} us/call   ratio {statistics.median(conv) / statistics.median(cpp):.3f}")
