# The bundled data sets (tests/data) read in Python, independently of the
# C++ readers, the C++ command-line tool when ctest names it, and random
# rotations for the convex tests.
import json
import os
import subprocess
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

DATA = Path(os.environ.get("SIMDCCD_TEST_DATA") or Path(__file__).resolve().parents[2] / "tests" / "data")
TYPES = ("vf", "ee")


def read_query_csv(path):
    """(points (n, 8, 3), truth column or None) of a rational query file: 8 rows
    a query, x_num,x_den,y_num,y_den,z_num,z_den[,truth]. Python's int / int
    rounds correctly, and the bundled numbers are doubles, so this is exact."""
    rows = [line.split(",") for line in path.read_text().splitlines() if line]
    coords = [[int(r[2 * k]) / int(r[2 * k + 1]) for k in range(3)] for r in rows]
    points = np.array(coords, dtype=np.float64).reshape(-1, 8, 3)
    truth = np.array([r[6] == "1" for r in rows[::8]]) if len(rows[0]) == 7 else None
    return points, truth


@lru_cache(maxsize=None)
def dataset(name):
    """{"vf": (points, truth), "ee": (points, truth)}, every file of the set
    ("sample-queries" or "simulation") in sorted order, as the CLI reads them."""
    parts = {t: ([], []) for t in TYPES}
    root = DATA / name
    for path in sorted(root.rglob("*.csv")):
        if name == "sample-queries":
            kind = "vf" if path.parent.name == "vertex-face" else "ee"
            points, truth = read_query_csv(path)
        else:
            kind = path.stem[-2:]
            points, _ = read_query_csv(path)
            mma = path.parent.parent / "mma_bool" / f"{path.stem}_mma_bool.json"
            truth = np.array(json.loads(mma.read_text()), dtype=bool)
        assert truth is not None and len(truth) == len(points), path
        parts[kind][0].append(points)
        parts[kind][1].append(truth)
    return {t: (np.concatenate(p), np.concatenate(tr)) for t, (p, tr) in parts.items() if p}


def run_cli(*args):
    """The last line of `simdccd ARGS --json` as a dict; skips without the tool."""
    cli = os.environ.get("SIMDCCD_CLI")
    if not cli:
        pytest.skip("SIMDCCD_CLI is not set (ctest sets it when the tool is built)")
    out = subprocess.run([cli, *args, "--json"], capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def random_rotations(rng, n):
    """n rotation matrices (n, 3, 3) of random unit quaternions (uniform over rotations)."""
    q = rng.normal(size=(n, 4))
    w, x, y, z = (q / np.linalg.norm(q, axis=1, keepdims=True)).T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], axis=1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], axis=1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], axis=1),
    ], axis=1)
