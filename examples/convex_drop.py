#!/usr/bin/python3
"""Convex bodies dropped into a bin, stepped with simdccd's convex pipeline.

    PYTHONPATH=build/python /usr/bin/python3 examples/convex_drop.py [OUT.png] [--bodies N] [--steps N] [--seed S]

Spheres, boxes, capsules, cylinders and random polytopes fall into a bin of
five static boxes. Each step of 1/60 s:
  1. gravity; the broad phase (simdccd.PersistentSap, kept between steps) on
     each body's swept box (its bounding sphere at the start and end of the
     step, plus a skin) gives the candidate pairs;
  2. speculative contacts: gjk's distance and normal of every candidate
     pair; impulses let a pair close only to half the skin within the step;
  3. the swept boxes again with the velocities the impulses left, and
     simdccd.time_of_impact on those candidate pairs from every body's pose to
     its end pose (velocity and spin): if any pair would still touch (the spin
     is not in the impulses; an impulse may throw a body at a third), the
     whole step is cut at 0.8 of the earliest toi. Every pair that can meet in
     the step is a candidate (a body stays within its swept box), so each
     accepted step is certified free of contact: nothing passes through
     anything.
At the end gjk checks every pair of bodies once more (exit 1 if any
intersect). Prints progress and timings, draws a side view into OUT.png.
"""
import argparse
import math
import time

import matplotlib
import numpy as np

import simdccd

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (after choosing the file backend)

S = simdccd.Shape
GRAVITY = np.array([0.0, -9.8, 0.0])
DT = 1 / 60        # seconds a step
SKIN = 0.01        # speculative contacts keep pairs about half this apart
RESTITUTION = 0.2  # share of the approach speed a contact gives back
SPIN_DAMPING = 0.98  # a step's loss of spin to the air, so free bodies settle
CUT = 0.8          # a cut step moves this fraction of the earliest toi
HALF_WIDTH = 5.0   # the bin's inside: x and z in [-5, 5], floor at y = 0


def bin_walls():
    """Floor and four walls: (shape, reach, center) of static boxes."""
    walls = [([HALF_WIDTH, 0.5, HALF_WIDTH], (0, -0.5, 0)),
             ([0.5, 4, HALF_WIDTH], (-HALF_WIDTH - 0.5, 3.5, 0)),
             ([0.5, 4, HALF_WIDTH], (HALF_WIDTH + 0.5, 3.5, 0)),
             ([HALF_WIDTH, 4, 0.5], (0, 3.5, -HALF_WIDTH - 0.5)),
             ([HALF_WIDTH, 4, 0.5], (0, 3.5, HALF_WIDTH + 0.5))]
    return [(S.box(half), float(np.linalg.norm(half)), center) for half, center in walls]


def random_body(rng, k):
    """A body of kind k % 5 and its reach (largest distance from its origin)."""
    kind = k % 5
    if kind == 0:
        r = rng.uniform(0.25, 0.45)
        return S.sphere(r), r
    if kind == 1:
        half = rng.uniform(0.15, 0.4, 3)
        return S.box(half), float(np.linalg.norm(half))
    if kind == 2:
        r, h = rng.uniform(0.12, 0.25), rng.uniform(0.15, 0.35)
        return S.capsule(r, h), r + h
    if kind == 3:
        r, h = rng.uniform(0.2, 0.35), rng.uniform(0.15, 0.3)
        return S.cylinder(r, h), math.hypot(r, h)
    points = rng.normal(size=(rng.integers(6, 13), 3))
    points *= rng.uniform(0.25, 0.45) / np.linalg.norm(points, axis=1, keepdims=True)
    return S.polytope(points), float(np.linalg.norm(points, axis=1).max())


def rotation(q):
    """The rotation matrices of unit quaternions (n, 4) as (w, x, y, z)."""
    w, x, y, z = q.T
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
                     np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
                     np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1)], -2)


def turned(q, omega, seconds):
    """q turned by the angular velocities omega (n, 3) for `seconds`, renormalized."""
    angle = np.linalg.norm(omega, axis=1) * seconds
    axis = omega / np.maximum(np.linalg.norm(omega, axis=1, keepdims=True), 1e-300)
    d = np.concatenate([np.cos(angle / 2)[:, None], axis * np.sin(angle / 2)[:, None]], axis=1)
    w1, v1 = d[:, :1], d[:, 1:]
    w2, v2 = q[:, :1], q[:, 1:]
    out = np.concatenate([w1 * w2 - np.sum(v1 * v2, axis=1, keepdims=True),
                          w1 * v2 + w2 * v1 + np.cross(v1, v2)], axis=1)
    return out / np.linalg.norm(out, axis=1, keepdims=True)


class Scene:
    def __init__(self, bodies, seed):
        rng = np.random.default_rng(seed)
        walls = bin_walls()
        made = [random_body(rng, k) for k in range(bodies)]
        self.statics = len(walls)
        self.shapes = simdccd.Shapes([s for s, _, _ in walls] + [s for s, _ in made])
        n = len(self.shapes)
        self.reach = np.array([r for _, r, _ in walls] + [r for _, r in made])
        self.x = np.zeros((n, 3))
        self.x[: self.statics] = [c for _, _, c in walls]
        # Dynamic bodies on a grid 1.8 apart (more than twice any reach), in layers.
        per_layer = 5
        for k in range(bodies):
            i, j, layer = k % per_layer, (k // per_layer) % per_layer, k // per_layer ** 2
            self.x[self.statics + k] = (-3.6 + 1.8 * i, 1.2 + 1.8 * layer, -3.6 + 1.8 * j)
        self.q = np.tile([1.0, 0, 0, 0], (n, 1))
        self.q[self.statics:] = rng.normal(size=(bodies, 4))
        self.q /= np.linalg.norm(self.q, axis=1, keepdims=True)
        self.v = np.zeros((n, 3))
        self.v[self.statics:] = rng.uniform(-1, 1, (bodies, 3)) * [1, 0, 1]
        self.omega = np.zeros((n, 3))
        self.omega[self.statics:] = rng.uniform(-2, 2, (bodies, 3))
        self.inverse_mass = np.r_[np.zeros(self.statics), np.ones(bodies)]
        self.sap = simdccd.PersistentSap()
        self.sap.insert(np.arange(n), self.swept_boxes(np.arange(n)))
        self.cuts = 0

    def swept_boxes(self, rows):
        """The boxes of the bounding spheres at the start and end of the step, plus the skin."""
        end = self.x[rows] + self.v[rows] * DT
        grow = (self.reach[rows] + SKIN)[:, None]
        return np.stack([np.minimum(self.x[rows], end) - grow, np.maximum(self.x[rows], end) + grow], axis=1)

    def candidates(self):
        """The pairs whose swept boxes overlap, the boxes of the current velocities."""
        dynamic = np.arange(self.statics, len(self.shapes))
        self.sap.update(dynamic, self.swept_boxes(dynamic))
        pairs = self.sap.pairs()
        pairs = pairs[pairs[:, 1] >= self.statics]  # walls never meet walls
        return pairs[:, 0], pairs[:, 1]

    def step(self):
        self.v[self.statics:] += GRAVITY * DT
        R = rotation(self.q)
        a, b = self.candidates()
        if len(a):
            self.speculative_impulses(a, b, R)
            a, b = self.candidates()  # the impulses changed the swept boxes
        q_end = turned(self.q, self.omega, DT)
        x_end = self.x + self.v * DT
        fraction = 1.0
        if len(a):
            R_end = rotation(q_end)
            t = simdccd.time_of_impact(self.shapes, a, b, R[a], self.x[a], R[b], self.x[b], R_end[a], x_end[a],
                                       R_end[b], x_end[b])
            if (t["status"] == simdccd.ToiStatus.INVALID_INPUT).any():
                raise RuntimeError("a pose went invalid")
            hit = t["status"] != simdccd.ToiStatus.SEPARATE
            if hit.any():
                fraction = CUT * t["toi"][hit].min()
                self.cuts += 1
        self.x += self.v * DT * fraction
        self.q = turned(self.q, self.omega, DT * fraction)
        self.omega *= SPIN_DAMPING
        return len(a)

    def speculative_impulses(self, a, b, R):
        g = simdccd.gjk(self.shapes, a, b, R[a], self.x[a], R[b], self.x[b])
        normal = g["separating_axis"]  # unit, from a to b, where the distance is certified
        certified = g["valid"] & ~g["intersecting"] & (g["lower_bound"] > 0)
        distance = g["distance"]
        w_a, w_b = self.inverse_mass[a], self.inverse_mass[b]
        share = np.where(certified, 1 / (w_a + w_b), 0.0)
        resting = certified & (distance < 2 * SKIN)  # friction stops their spin (not in the impulses)
        self.omega[a[resting]] = 0
        self.omega[b[resting]] = 0
        for _ in range(8):  # Gauss-Seidel over the pairs, a few sweeps
            for k in np.flatnonzero(certified):
                i, j, n = a[k], b[k], normal[k]
                closing = np.dot(self.v[j] - self.v[i], n)  # negative: approaching
                allowed = -(distance[k] - SKIN / 2) / DT
                if closing < allowed:
                    # Stop at half the skin; a pair already closer leaves at the
                    # speed that restores it, or bounces a little faster.
                    target = allowed if distance[k] > SKIN / 2 else max(allowed, -RESTITUTION * closing)
                    impulse = (target - closing) * share[k]
                    self.v[i] -= impulse * w_a[k] * n
                    self.v[j] += impulse * w_b[k] * n

    def overlapping_pairs(self):
        """Every pair of bodies (walls among them) that gjk finds intersecting."""
        n = len(self.shapes)
        a, b = np.triu_indices(n, 1)
        keep = b >= self.statics
        a, b = a[keep], b[keep]
        R = rotation(self.q)
        flags = simdccd.gjk_intersect(self.shapes, a, b, R[a], self.x[a], R[b], self.x[b])
        if (flags == simdccd.Overlap.INVALID).any():
            raise RuntimeError("a pose went invalid")
        hit = flags == simdccd.Overlap.INTERSECTING
        return list(zip(a[hit].tolist(), b[hit].tolist()))


def draw(scene, path):
    fig, ax = plt.subplots(figsize=(6, 4.5))
    colors = ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple"]
    for k in range(scene.statics, len(scene.shapes)):
        kind = (k - scene.statics) % 5
        ax.add_patch(plt.Circle((scene.x[k, 0], scene.x[k, 1]), scene.reach[k], color=colors[kind], alpha=0.5))
    ax.plot([-HALF_WIDTH, -HALF_WIDTH, HALF_WIDTH, HALF_WIDTH], [7.5, 0, 0, 7.5], color="black")
    ax.set_xlim(-HALF_WIDTH - 0.5, HALF_WIDTH + 0.5)
    ax.set_ylim(-0.5, 8)
    ax.set_aspect("equal")
    ax.set_title("convex bodies in a bin, side view (circles: bounding spheres)")
    fig.savefig(path, dpi=100)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", nargs="?", default="convex_drop.png")
    parser.add_argument("--bodies", type=int, default=60)
    parser.add_argument("--steps", type=int, default=240)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 1 <= args.bodies <= 500 or args.steps < 1:
        parser.error("--bodies must be 1 to 500 and --steps at least 1")
    scene = Scene(args.bodies, args.seed)
    if scene.overlapping_pairs():
        raise SystemExit("the start overlaps")
    start = time.perf_counter()
    for s in range(args.steps):
        pairs = scene.step()
        if s % 60 == 59 or s == args.steps - 1:
            print(f"step {s + 1}/{args.steps}: {pairs} candidate pairs, steps cut so far: {scene.cuts}, "
                  f"lowest body at y = {scene.x[scene.statics:, 1].min():.3f}", flush=True)
    seconds = time.perf_counter() - start
    overlaps = scene.overlapping_pairs()
    print(f"{args.steps} steps of {args.bodies} bodies in {seconds:.2f} s ({1e3 * seconds / args.steps:.1f} ms a step); "
          f"steps cut at a time of impact: {scene.cuts}; overlapping pairs at the end: {len(overlaps)}")
    draw(scene, args.out)
    print(f"wrote {args.out}")
    if overlaps:
        raise SystemExit(f"bodies overlap at the end: {overlaps[:5]}")


if __name__ == "__main__":
    main()
