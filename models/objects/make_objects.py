#!/usr/bin/env python3
"""Writes the two mesh objects mjhand ships (no downloads): peanut.obj, a closed surface of revolution with two lobes
(a capsule-ish "peanut" 60 mm long), and wedge.stl, a binary-STL triangular prism (MuJoCo reads binary STL only).
Units: metres. Rerun after editing: `python3 models/objects/make_objects.py` (standard library only; the output is
deterministic, so a rerun without edits changes no bytes)."""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def peanut(path, rings=24, segments=24, length=0.06, r_lobe=0.018, r_waist=0.013):
    # Radius along z in [-L/2, L/2]: two cosine lobes, pinched at the waist, closed at the poles.
    def radius(t):  # t in [0, 1] from pole to pole
        envelope = math.sin(math.pi * t)  # 0 at the poles
        lobes = r_waist + (r_lobe - r_waist) * (0.5 - 0.5 * math.cos(4 * math.pi * t))
        return lobes * envelope ** 0.5
    verts = [(0.0, 0.0, -length / 2)]
    for i in range(1, rings):
        t = i / rings
        z = -length / 2 + t * length
        r = radius(t)
        for j in range(segments):
            a = 2 * math.pi * j / segments
            verts.append((r * math.cos(a), r * math.sin(a), z))
    verts.append((0.0, 0.0, length / 2))
    top = len(verts) - 1
    faces = []
    ring = lambda i, j: 1 + (i - 1) * segments + (j % segments)  # noqa: E731
    for j in range(segments):
        faces.append((0, ring(1, j + 1), ring(1, j)))
    for i in range(1, rings - 1):
        for j in range(segments):
            a, b, c, d = ring(i, j), ring(i, j + 1), ring(i + 1, j + 1), ring(i + 1, j)
            faces.append((a, b, c))
            faces.append((a, c, d))
    for j in range(segments):
        faces.append((top, ring(rings - 1, j), ring(rings - 1, j + 1)))
    with open(path, "w") as f:
        f.write("# peanut: two-lobed surface of revolution about z, 60 mm long, written by make_objects.py\n")
        for v in verts:
            f.write("v %.6f %.6f %.6f\n" % v)
        for a, b, c in faces:
            f.write("f %d %d %d\n" % (a + 1, b + 1, c + 1))


def wedge(path, base=0.05, height=0.035, depth=0.04):
    # Triangular prism: triangle (-b/2,0) (b/2,0) (0,h) in xz, extruded along y from -d/2 to d/2, centred on its box.
    p = [(-base / 2, -depth / 2, -height / 2), (base / 2, -depth / 2, -height / 2), (0.0, -depth / 2, height / 2),
         (-base / 2, depth / 2, -height / 2), (base / 2, depth / 2, -height / 2), (0.0, depth / 2, height / 2)]
    tris = [(0, 1, 2), (3, 5, 4),            # end caps, outward normals -y and +y (counter-clockwise seen from outside)
            (0, 4, 1), (0, 3, 4),            # bottom (-z)
            (1, 4, 5), (1, 5, 2),            # right slope (+x, +z)
            (2, 3, 0), (2, 5, 3)]            # left slope (-x, +z)
    with open(path, "wb") as f:
        f.write(b"mjhand wedge prism (binary STL) written by make_objects.py".ljust(80, b" "))
        f.write(struct.pack("<I", len(tris)))
        for t in tris:
            a, b, c = (p[i] for i in t)
            u = [b[k] - a[k] for k in range(3)]
            v = [c[k] - a[k] for k in range(3)]
            n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
            ln = math.sqrt(sum(x * x for x in n))
            n = [x / ln for x in n]
            f.write(struct.pack("<12fH", *n, *a, *b, *c, 0))


if __name__ == "__main__":
    peanut(os.path.join(HERE, "peanut.obj"))
    wedge(os.path.join(HERE, "wedge.stl"))
