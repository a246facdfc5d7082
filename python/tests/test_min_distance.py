# Minimum separation (min_distance) through ccd, exact_ccd and step, and
# whole steps in the space-time model (step(model='spacetime')).
import math

import numpy as np
import pytest

import simdccd
from conftest import DATA

S = simdccd.Status


def falling_vertex(x, y):
    """A static face (0,0,0), (1,0,0), (0,1,0) and a vertex moving from
    (x, y, 1) to (x, y, -1): 1 - 2t above the face's plane at time t."""
    face = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
    return np.array([[x, y, 1], *face, [x, y, -1], *face], dtype=np.float64)


def test_hand_cases():
    # Onto the face's interior: within 1/4 from 1 - 2t = 1/4, t = 3/8.
    onto = falling_vertex(0.25, 0.25)
    r = simdccd.exact_ccd(onto, type="vf", min_distance=0.25)
    assert r.hit and r.toi_lo == r.toi_hi == 0.375
    # Past the corner (0,0,0) at (-3/8, -1/2): 5/8 away at t = 1/2 (3-4-5).
    corner = falling_vertex(-0.375, -0.5)
    assert simdccd.exact_ccd(corner, type="vf", min_distance=0.625).toi_lo == 0.5
    assert not simdccd.exact_ccd(corner, type="vf", min_distance=0.625 - 2**-30).hit
    points = np.stack([onto, corner])
    for mode in ("exact", "conservative"):
        hit, toi, status = simdccd.ccd(points, type="vf", mode=mode, min_distance=0.25)
        assert hit.tolist() == [True, False]
        assert 0.375 - 1e-9 <= toi[0] <= 0.375 and toi[1] == math.inf
    # Starting within the distance: toi 0.
    hit, toi, _ = simdccd.ccd(points, type="vf", min_distance=2.0)
    assert hit.all() and (toi == 0).all()


@pytest.mark.parametrize("kind", ["vf", "ee"])
def test_exact_mode_equals_the_oracle(kind):
    rng = np.random.default_rng(3)
    points = rng.random((600, 8, 3))
    hit, toi, status = simdccd.ccd(points, type=kind, min_distance=0.02)
    oracle = [simdccd.exact_ccd(p, type=kind, min_distance=0.02) for p in points]
    assert hit.tolist() == [r.hit for r in oracle]
    assert sum(hit) > 20
    for h, t, r in zip(hit, toi, oracle):
        if h:
            assert r.toi_lo - 1e-9 - 2**-52 <= t <= r.toi_hi
    # Contact is within any distance.
    contact, _, _ = simdccd.ccd(points, type=kind)
    assert not (contact & ~hit).any()


@pytest.mark.parametrize("bad", [-1e-3, math.nan, math.inf, 2.0**61])
def test_invalid_distances_raise(bad):
    points = falling_vertex(0.25, 0.25)
    with pytest.raises(ValueError, match="min_distance"):
        simdccd.ccd(points[None], min_distance=bad)
    with pytest.raises(ValueError, match="min_distance"):
        simdccd.exact_ccd(points, min_distance=bad)


def test_distance_needs_the_linear_model():
    points = falling_vertex(0.25, 0.25)
    with pytest.raises(ValueError, match="linear"):
        simdccd.ccd(points[None], model="spacetime", min_distance=0.1)
    x0 = np.zeros((3, 3))
    with pytest.raises(ValueError, match="linear"):
        simdccd.step(x0, x0, np.array([[0, 1, 2]]), model="spacetime", min_distance=0.1)


def cloth_funnel():
    frames = DATA / "simulation" / "cloth-funnel" / "frames"
    return simdccd.read_mesh(str(frames / "227.ply"), str(frames / "228.ply"))


def test_step_with_a_distance_keeps_every_contact():
    x0, x1, faces = cloth_funnel()
    contact = simdccd.step(x0, x1, faces)
    near = simdccd.step(x0, x1, faces, min_distance=1e-3)
    assert near.stats["vf_candidates"] > contact.stats["vf_candidates"]  # the boxes widened
    for kind in ("vf", "ee"):
        found = {tuple(p) for p in getattr(near, kind)}
        assert {tuple(p) for p in getattr(contact, kind)} <= found
    assert near.earliest_toi <= contact.earliest_toi


def test_spacetime_step_pairs_are_confirmed_by_its_oracle():
    x0, x1, faces = cloth_funnel()
    r = simdccd.step(x0, x1, faces, model="spacetime")
    assert len(r.vf) + len(r.ee) > 0
    for (v, f), toi in zip(r.vf[:40], r.vf_toi[:40]):
        ids = [v, *faces[f]]
        points = np.concatenate([x0[ids], x1[ids]])
        o = simdccd.exact_ccd(points, type="vf", model="spacetime", ids=ids)
        assert o.hit and toi <= o.toi_hi
    for (a, b), toi in zip(r.ee[:40], r.ee_toi[:40]):
        ids = [*r.edges[a], *r.edges[b]]
        points = np.concatenate([x0[ids], x1[ids]])
        o = simdccd.exact_ccd(points, type="ee", model="spacetime", ids=ids)
        assert o.hit and toi <= o.toi_hi
