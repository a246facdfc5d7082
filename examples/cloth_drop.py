#!/usr/bin/python3
"""A cloth dropped onto a sphere, with simdccd as the solver's collision guard.

    PYTHONPATH=build/python /usr/bin/python3 examples/cloth_drop.py [OUT.png] [--steps N] [--size N]

Each time step, a small position-based solver (gravity, edge lengths, a smooth
sphere with friction, contact constraints) proposes new positions, and
simdccd.step checks the motion of the whole mesh, cloth and sphere, from the
current to the proposed positions. If anything collides, the step is cut the
way an IPC line search cuts it: every vertex moves 0.8 * earliest_toi of the
way, before anything has touched. The colliding pairs become contact
constraints that keep their two sides apart in later proposals; without
them the same pair would cut every later step shorter and shorter and the
cloth would freeze.

At the end every accepted motion is checked again, exactly and independently
of the floating-point kernels: simdccd.step with mode="oracle" (the exact
broad phase, then rational arithmetic on every candidate pair). No vertex may
touch a triangle and no edge another edge at any time of any accepted step;
the start must be free of contact too, so no crossing ever happened. Then it
prints timings and draws the drop (matplotlib) into OUT.png.
"""
import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor

import matplotlib
import numpy as np

import simdccd

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (after choosing the file backend)
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402

GRAVITY = np.array([0.0, 0.0, -9.8])
DT = 1 / 100            # seconds a step
RADIUS = 0.5            # of the sphere, centred at the origin
SPHERE_GAP = 0.01       # cloth vertices stay this far outside the smooth sphere
FRICTION = 0.5          # share of tangential motion lost on the sphere
CONTACT_GAP = 0.004     # pairs that collided are kept this far apart...
CONTACT_STEPS = 40      # ...for this many steps after their last collision
ITERATIONS = 12         # constraint projections a step
CUT = 0.8               # a cut step moves this fraction of the earliest toi

# A contact is 4 vertices: VF (v, f0, f1, f2) or EE (a0, a1, b0, b1). Its
# normal is (p[B] - p[A]) x (p[D] - p[C]), its signed distance n . (p[0] - p[E]),
# and the coefficients share a correction among the 4 vertices.
KINDS = {
    "vf": ((1, 2, 1, 3), 1, np.array([1, -1 / 3, -1 / 3, -1 / 3])),
    "ee": ((0, 1, 2, 3), 2, np.array([0.5, 0.5, -0.5, -0.5])),
}


def icosphere(subdivisions, radius):
    """Vertices and triangles of a subdivided icosahedron."""
    t = (1 + 5**0.5) / 2
    v = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
         (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
             (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5),
             (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    v = [np.array(p, dtype=float) / np.linalg.norm(p) for p in v]
    for _ in range(subdivisions):
        middle = {}

        def mid(a, b):
            if (a, b) not in middle:
                p = v[a] + v[b]
                v.append(p / np.linalg.norm(p))
                middle[a, b] = middle[b, a] = len(v) - 1
            return middle[a, b]

        faces = [f for a, b, c in faces for ab, bc, ca in [(mid(a, b), mid(b, c), mid(c, a))]
                 for f in ((a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca))]
    return radius * np.array(v), np.array(faces)


def cloth(n, side, height):
    """An n x n grid, two triangles a square, a little off the sphere's axis."""
    s = np.linspace(-side / 2, side / 2, n)
    x, y = np.meshgrid(s + 0.07, s + 0.04, indexing="ij")
    vertices = np.stack([x.ravel(), y.ravel(), np.full(n * n, height)], axis=1)
    i = np.arange(n * n).reshape(n, n)
    a, b, c, d = i[:-1, :-1].ravel(), i[1:, :-1].ravel(), i[:-1, 1:].ravel(), i[1:, 1:].ravel()
    return vertices, np.concatenate([np.stack([a, b, d], 1), np.stack([a, d, c], 1)])


def normals_and_distances(p, quads, kind):
    (a, b, c, d), e, _ = KINDS[kind]
    n = np.cross(p[quads[:, b]] - p[quads[:, a]], p[quads[:, d]] - p[quads[:, c]])
    n /= np.maximum(np.linalg.norm(n, axis=1), 1e-300)[:, None]
    return n, np.einsum("ij,ij->i", n, p[quads[:, 0]] - p[quads[:, e]])


class Contacts:
    """Pairs that collided, each with the side it was on before the collision."""

    def __init__(self):
        self.pairs = {"vf": {}, "ee": {}}  # quad -> (side, step of the last collision)

    def add(self, kind, quads, x, step):
        _, distance = normals_and_distances(x, quads, kind)
        for quad, d in zip(map(tuple, quads), distance):
            if d != 0:  # on the plane or parallel: no side to keep
                self.pairs[kind][quad] = (np.sign(d), step)

    def expire(self, step):
        for kind in KINDS:
            self.pairs[kind] = {q: s for q, s in self.pairs[kind].items() if step - s[1] < CONTACT_STEPS}

    def project(self, p, inverse_mass):
        """Moves each pair's sides apart along its normal towards CONTACT_GAP."""
        for kind, pairs in self.pairs.items():
            if not pairs:
                continue
            quads = np.array(list(pairs))
            side = np.array([s for s, _ in pairs.values()])
            n, distance = normals_and_distances(p, quads, kind)
            # At most CONTACT_GAP an iteration: a line normal turns over as
            # edges pass parallel, and a far "wrong side" is no crossing.
            short = np.clip(side * distance - CONTACT_GAP, -CONTACT_GAP, 0.0)
            coefficients = KINDS[kind][2]
            w = inverse_mass[quads]
            scale = -short * side / np.maximum((w * coefficients**2).sum(axis=1), 1e-300)
            for k in range(4):
                np.add.at(p, quads[:, k], (scale * w[:, k] * coefficients[k])[:, None] * n)


def propose(x, v, edges, rest, contacts, inverse_mass):
    """Positions at the end of a step: gravity, then constraint projections."""
    moving = inverse_mass > 0
    p = x + moving[:, None] * (DT * v + DT * DT * GRAVITY)
    counts = np.maximum(np.bincount(edges.ravel(), minlength=len(x)), 1)[:, None]
    for _ in range(ITERATIONS):
        # Edge lengths, averaged per vertex (Jacobi) and over-relaxed.
        d = p[edges[:, 1]] - p[edges[:, 0]]
        length = np.linalg.norm(d, axis=1)
        correction = (0.5 * (length - rest) / length)[:, None] * d
        delta = np.zeros_like(p)
        np.add.at(delta, edges[:, 0], correction)
        np.add.at(delta, edges[:, 1], -correction)
        p += 1.5 * moving[:, None] * delta / counts
        contacts.project(p, inverse_mass)
        # The smooth sphere, a little larger than its mesh.
        r = np.linalg.norm(p, axis=1)
        inside = moving & (r < RADIUS + SPHERE_GAP)
        p[inside] *= ((RADIUS + SPHERE_GAP) / r[inside])[:, None]
    # Friction: cloth on the sphere keeps only part of its tangential motion.
    r = np.linalg.norm(p, axis=1)
    on = moving & (r < RADIUS + 1.5 * SPHERE_GAP)
    normal = p[on] / r[on][:, None]
    motion = p[on] - x[on]
    p[on] -= FRICTION * (motion - np.einsum("ij,ij->i", motion, normal)[:, None] * normal)
    return p


def draw(snapshots, faces, is_cloth_face, path, title):
    """One 3D view a snapshot, faces shaded by their normal; the cloth drawn
    after the sphere it covers (matplotlib sorts within a collection only)."""
    figure = plt.figure(figsize=(3.6 * len(snapshots), 4))
    for k, (t, x) in enumerate(snapshots):
        ax = figure.add_subplot(1, len(snapshots), k + 1, projection="3d")
        for part, colour in ((~is_cloth_face, "#b0b0b0"), (is_cloth_face, "#3b75af")):
            triangles = x[faces[part]]
            n = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
            n /= np.maximum(np.linalg.norm(n, axis=1), 1e-300)[:, None]
            light = 0.45 + 0.55 * np.abs(n @ np.array([0.3, -0.4, 0.87]))
            rgb = light[:, None] * np.array(matplotlib.colors.to_rgb(colour))
            ax.add_collection3d(Poly3DCollection(triangles, facecolors=rgb, edgecolors=(0, 0, 0, 0.12),
                                                 linewidths=0.2))
        ax.set(xlim=(-0.8, 0.8), ylim=(-0.8, 0.8), zlim=(-0.8, 0.8))
        ax.set_title(f"t = {t:.2f} s", fontsize=10)
        ax.set_box_aspect((1, 1, 1))
        ax.view_init(elev=20, azim=-60)
        ax.set_axis_off()
    figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=80)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", default="cloth_drop.png", help="picture to write")
    parser.add_argument("--steps", type=int, default=150, help="time steps of 1/100 s")
    parser.add_argument("--size", type=int, default=20, help="cloth vertices per side (>= 2)")
    args = parser.parse_args()
    if args.steps < 1 or args.size < 2:
        parser.error("--steps must be >= 1 and --size >= 2")

    cloth_x, cloth_faces = cloth(args.size, 1.6, RADIUS + 0.15)
    sphere_x, sphere_faces = icosphere(2, RADIUS)
    nc = len(cloth_x)
    x = np.concatenate([cloth_x, sphere_x])
    faces = np.concatenate([cloth_faces, sphere_faces + nc])
    is_cloth_face = np.arange(len(faces)) < len(cloth_faces)
    inverse_mass = (np.arange(len(x)) < nc).astype(float)  # the sphere does not move
    v = np.zeros_like(x)
    contacts = Contacts()

    start = simdccd.step(x, x, faces, mode="oracle")
    if len(start.vf) or len(start.ee):
        raise SystemExit("the cloth starts touching the sphere")
    edges = start.edges  # the mesh's edges, as step numbers them for EE pairs
    cloth_edges = edges[edges[:, 1] < nc]
    rest = np.linalg.norm(x[cloth_edges[:, 1]] - x[cloth_edges[:, 0]], axis=1)

    accepted = [x]  # positions after each step: step k moved accepted[k] -> accepted[k + 1]
    solver_seconds = ccd_seconds = 0.0
    candidates = cut_steps = 0
    smallest_toi = np.inf
    for k in range(args.steps):
        t0 = time.perf_counter()
        contacts.expire(k)
        p = propose(x, v, cloth_edges, rest, contacts, inverse_mass)
        t1 = time.perf_counter()
        r = simdccd.step(x, p, faces)  # exact mode, all cores
        t2 = time.perf_counter()
        solver_seconds += t1 - t0
        ccd_seconds += t2 - t1
        candidates += r.stats["vf_candidates"] + r.stats["ee_candidates"]
        # The proposal's velocity: a cut step loses time, not momentum...
        v = (p - x) / DT
        if r.earliest_toi < np.inf:  # something collides before the end: cut the step
            cut_steps += 1
            smallest_toi = min(smallest_toi, r.earliest_toi)
            vf = np.column_stack([r.vf[:, 0], faces[r.vf[:, 1]]])
            ee = np.column_stack([edges[r.ee[:, 0]], edges[r.ee[:, 1]]])
            contacts.add("vf", vf, x, k)
            contacts.add("ee", ee, x, k)
            v[np.concatenate([vf.ravel(), ee.ravel()])] = 0  # ...but colliding vertices stop
            p = x + CUT * r.earliest_toi * (p - x)
        x = p
        accepted.append(x)

    # The steps are independent here: Python threads check them side by side
    # (step releases the GIL), each on one core.
    def oracle_contacts(k):
        o = simdccd.step(accepted[k], accepted[k + 1], faces, mode="oracle", threads=1)
        return len(o.vf) + len(o.ee)

    t0 = time.perf_counter()
    with ThreadPoolExecutor(os.cpu_count()) as pool:
        found = list(pool.map(oracle_contacts, range(args.steps)))
    check_seconds = time.perf_counter() - t0
    if any(found):
        raise SystemExit(f"the exact oracle finds contacts in steps {np.nonzero(found)[0].tolist()}")

    total = solver_seconds + ccd_seconds
    print(f"cloth {args.size}x{args.size} ({nc} vertices, {len(cloth_faces)} triangles) onto a sphere "
          f"({len(sphere_x)} vertices, {len(sphere_faces)} triangles); {args.steps} steps of {DT} s; "
          f"target {simdccd.targets()['active']}")
    print(f"solver {solver_seconds:.2f} s, simdccd.step {ccd_seconds:.2f} s "
          f"({candidates / args.steps:.0f} candidate pairs a step, {candidates / max(ccd_seconds, 1e-9) / 1e6:.2f}M/s)"
          f": {total / args.steps * 1e3:.1f} ms a step")
    print(f"{cut_steps} steps cut by a collision (smallest earliest toi {smallest_toi:.3g}), "
          f"{sum(map(len, contacts.pairs.values()))} contacts still held")
    print(f"exact oracle on every accepted step: no contact in {args.steps} steps "
          f"({check_seconds:.2f} s, {os.cpu_count()} threads)")

    shown = sorted({0, args.steps // 3, 2 * args.steps // 3, args.steps})
    draw([(i * DT, accepted[i]) for i in shown], faces, is_cloth_face, args.out,
         f"{args.steps} steps, {cut_steps} cut by simdccd.step's earliest toi; "
         "the exact oracle finds no contact in any accepted step")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
