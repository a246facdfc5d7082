# simdccd.exact_ccd: one query through the exact oracle of each model.
import numpy as np
import pytest

import simdccd
from conftest import TYPES, dataset

S = simdccd.Status

# A vertex falling straight through a still triangle in the plane z = 0:
# contact at t = 1/2 exactly, in both models (the triangle's prism is flat in time).
FALLING_VERTEX = np.array(
    [[0.25, 0.25, 1], [0, 0, 0], [1, 0, 0], [0, 1, 0],
     [0.25, 0.25, -1], [0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=np.float64)
# Edge a along x at z = 1 moving to z = -2, edge b still along y at z = 0:
# they cross at t = 1/3, which is no double.
CROSSING_EDGES = np.array(
    [[-1, 0, 1], [1, 0, 1], [0, -1, 0], [0, 1, 0],
     [-1, 0, -2], [1, 0, -2], [0, -1, 0], [0, 1, 0]], dtype=np.float64)


@pytest.mark.parametrize("model", ["linear", "spacetime"])
def test_hand_made_contacts(model):
    r = simdccd.exact_ccd(FALLING_VERTEX, "vf", model=model)
    assert r.hit and r.toi_lo == r.toi_hi == 0.5 and r.status == S.EXACT
    r = simdccd.exact_ccd(CROSSING_EDGES, "ee", model=model)
    # 1/3 is no double: the bracket is the two doubles around it.
    third = 1 / 3  # the double nearest 1/3
    assert r.hit and r.toi_lo < r.toi_hi and np.nextafter(r.toi_lo, 1) == r.toi_hi
    assert third in (r.toi_lo, r.toi_hi)
    # Moved aside by 2 in x, the vertex misses the triangle.
    missed = FALLING_VERTEX + np.array([2.0, 0, 0]) * np.array([1, 0, 0, 0, 1, 0, 0, 0])[:, None]
    r = simdccd.exact_ccd(missed, "vf", model=model)
    assert not r.hit and r.toi_lo == r.toi_hi == np.inf


def test_model_specific_fields():
    linear = simdccd.exact_ccd(FALLING_VERTEX, "vf")
    assert linear.contact_roots == 1 and linear.always_coplanar is False and linear.piece is None
    spacetime = simdccd.exact_ccd(FALLING_VERTEX, "vf", model="spacetime")
    assert spacetime.contact_roots is None and spacetime.always_coplanar is None
    assert spacetime.piece in (0, 1, 2)
    assert "hit=True" in repr(linear) and "Status.EXACT" in repr(linear)


@pytest.mark.parametrize("model", ["linear", "spacetime"])
@pytest.mark.parametrize("kind", TYPES)
def test_equals_the_batch_oracle_and_the_truth(model, kind):
    points, truth = dataset("sample-queries")[kind]
    points, truth = points[::7], truth[::7]  # a spread of the set, to stay quick
    hit, toi, _ = simdccd.ccd(points, kind, model=model, mode="oracle")
    for i, query in enumerate(points):
        r = simdccd.exact_ccd(query, kind, model=model)
        assert (r.hit, r.toi_lo) == (hit[i], toi[i]), i
        assert r.toi_lo <= r.toi_hi
    if model == "linear":
        np.testing.assert_array_equal(hit, truth)


def test_spacetime_ids_reorder_the_vertices():
    """ids [1, 0, 3, 2] reverse both edges: the same as listing them reversed."""
    points, _ = dataset("sample-queries")["ee"]
    differs = 0
    for query in points[2540:2620]:  # a stretch where the diagonals matter
        by_ids = simdccd.exact_ccd(query, "ee", model="spacetime", ids=[1, 0, 3, 2])
        by_order = simdccd.exact_ccd(query[[1, 0, 3, 2, 5, 4, 7, 6]], "ee", model="spacetime")
        assert (by_ids.hit, by_ids.toi_lo, by_ids.piece) == (by_order.hit, by_order.toi_lo, by_order.piece)
        default = simdccd.exact_ccd(query, "ee", model="spacetime")
        differs += (default.hit, default.toi_lo) != (by_ids.hit, by_ids.toi_lo)
    assert differs > 0


def test_layouts_and_invalid_input():
    query = np.asfortranarray(CROSSING_EDGES)
    expected = simdccd.exact_ccd(CROSSING_EDGES, "ee")
    for array in (query, CROSSING_EDGES.T.copy().T, CROSSING_EDGES.tolist()):
        r = simdccd.exact_ccd(array, "ee")
        assert (r.hit, r.toi_lo, r.toi_hi) == (expected.hit, expected.toi_lo, expected.toi_hi)
    bad = CROSSING_EDGES.copy()
    bad[6, 1] = np.nan
    r = simdccd.exact_ccd(bad, "ee")
    assert r.status == S.INVALID_INPUT and not r.hit
    # Magnitudes beyond the kernels' 2^60 are still exact here.
    huge = CROSSING_EDGES * 2.0**70
    r = simdccd.exact_ccd(huge, "ee")
    assert r.hit and (r.toi_lo, r.toi_hi) == (expected.toi_lo, expected.toi_hi)
