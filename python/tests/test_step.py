# simdccd.step and simdccd.read_mesh: whole steps against the simulation data
# set's truth, edges against their definition, small hand-made meshes.
import json

import numpy as np
import pytest

import simdccd
from conftest import DATA

S = simdccd.Status
SCENES = [("cloth-funnel", "227.ply", "228.ply", "227"), ("rod-twist", "3036.ply", "3037.ply", "3036")]


def true_pairs(scene, step, nv, ne):
    """The data set's colliding pairs in mesh indices (its README: vertex i has
    id i, edge k id nV + k, face j id nV + nE + j)."""
    out = {}
    for kind, offset in (("vf", nv + ne), ("ee", nv)):
        pairs = json.loads((DATA / "simulation" / scene / "boxes" / f"{step}{kind}.json").read_text())
        truth = json.loads((DATA / "simulation" / scene / "mma_bool" / f"{step}{kind}_mma_bool.json").read_text())
        if kind == "vf":
            out[kind] = {(a, b - offset) for (a, b), t in zip(pairs, truth) if t}
        else:
            out[kind] = {tuple(sorted((a - offset, b - offset))) for (a, b), t in zip(pairs, truth) if t}
    return out


def edges_of(faces):
    """Unique undirected edges (a, b), a < b, sorted by (b, a): the data set's numbering."""
    e = np.sort(np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]]), axis=1)
    e = np.unique(e, axis=0)
    return e[np.lexsort((e[:, 0], e[:, 1]))]


@pytest.mark.parametrize("scene,frame0,frame1,step", SCENES)
def test_step_equals_the_truth(scene, frame0, frame1, step):
    frames = DATA / "simulation" / scene / "frames"
    x0, x1, faces = simdccd.read_mesh(str(frames / frame0), str(frames / frame1))
    assert x0.shape == x1.shape and faces.shape[1] == 3 and faces.dtype == np.int32
    r = simdccd.step(x0, x1, faces)
    np.testing.assert_array_equal(r.edges, edges_of(faces))
    truth = true_pairs(scene, step, len(x0), len(r.edges))
    assert set(map(tuple, r.vf.tolist())) == truth["vf"]
    assert set(map(tuple, r.ee.tolist())) == truth["ee"]
    assert len(r.vf) == len(r.vf_toi) == len(r.vf_status) and len(r.ee) == len(r.ee_toi)
    assert r.earliest_toi == min(r.vf_toi.min(), r.ee_toi.min())
    assert r.stats["vf"]["hits"] == len(r.vf) and r.stats["ee"]["hits"] == len(r.ee)
    assert r.stats["vf"]["queries"] == r.stats["vf_candidates"] > 0
    # Conservative mode: every true pair, at a toi no later than exact mode's.
    c = simdccd.step(x0, x1, faces, mode="conservative", threads=1)
    conservative = dict(zip(map(tuple, c.vf.tolist()), c.vf_toi))
    assert all(conservative[p] <= t for p, t in zip(map(tuple, r.vf.tolist()), r.vf_toi))
    assert truth["ee"] <= set(map(tuple, c.ee.tolist()))
    assert c.stats["ee_candidates"] == r.stats["ee_candidates"]


def test_pair_indices_mean_what_they_say():
    """A vertex falling through a still triangle, and an edge falling across
    another: one VF and one EE collision at known times, in the caller's indices."""
    x0 = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0],  # still triangle 0 in z = 0
                   [0.25, 0.25, 1],                  # vertex 3, falls through it at t = 1/2
                   [5, -1, 0], [5, 1, 0], [5, 0, -1],  # still triangle 1 in x = 5, below z = 0
                   [4, 0, 1], [6, 0, 1], [5, 0, 2]], dtype=np.float64)  # triangle 2 in y = 0
    x1 = x0.copy()
    x1[3, 2] = -1
    x1[7:, 2] -= 1.5  # edge 7-8 (z = 1 - 1.5 t) meets edge 4-5 at t = 2/3; vertex 9 stays above z = 0
    faces = np.array([[0, 1, 2], [4, 5, 6], [7, 8, 9]], dtype=np.int64)
    r = simdccd.step(x0, x1, faces)
    np.testing.assert_array_equal(r.vf, [[3, 0]])
    assert 0.5 - 1e-9 <= r.vf_toi[0] <= 0.5  # within the time tolerance below t*
    edges = [tuple(e) for e in r.edges.tolist()]
    crossing = sorted((edges.index((4, 5)), edges.index((7, 8))))
    np.testing.assert_array_equal(r.ee, [crossing])
    assert 2 / 3 - 1e-9 <= r.ee_toi[0] <= 2 / 3  # the double 2 / 3 is just below 2/3
    assert r.earliest_toi == r.vf_toi[0]
    # Oracle mode, other layouts and integer types: the same pairs.
    o = simdccd.step(np.asfortranarray(x0), x1.tolist(), faces.astype(np.uint16), mode="oracle")
    np.testing.assert_array_equal(o.vf, r.vf)
    np.testing.assert_array_equal(o.ee, r.ee)
    assert set(o.vf_status.tolist() + o.ee_status.tolist()) == {S.EXACT}
    assert (o.vf_toi[0], o.ee_toi[0]) == (0.5, 2 / 3)  # the largest doubles <= t*
    # Nothing moves: no collision.
    still = simdccd.step(x0, x0, faces)
    assert len(still.vf) == len(still.ee) == 0 and still.earliest_toi == np.inf


def test_non_finite_vertices_make_invalid_queries():
    x0 = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.25, 0.25, 1]], dtype=np.float64)
    x1 = x0.copy()
    x1[3] = [0.25, 0.25, np.nan]
    r = simdccd.step(x0, x1, [[0, 1, 2]])
    assert r.stats["vf"]["invalid"] == 1 and len(r.vf) == 0


def test_read_mesh_errors():
    frames = DATA / "simulation" / "cloth-funnel" / "frames"
    with pytest.raises(simdccd.ParseError, match="does-not-exist"):
        simdccd.read_mesh(str(frames / "does-not-exist.ply"), str(frames / "228.ply"))
    other = DATA / "simulation" / "rod-twist" / "frames" / "3036.ply"
    with pytest.raises(ValueError, match="vertex counts differ"):
        simdccd.read_mesh(str(frames / "227.ply"), str(other))
    assert issubclass(simdccd.ParseError, ValueError)
    # fopen() would stop at the NUL and open 228.ply itself.
    with pytest.raises(simdccd.ParseError, match="NUL byte"):
        simdccd.read_mesh(str(frames / "227.ply"), str(frames / "228.ply") + "\0.bak")


def test_a_face_that_repeats_a_vertex_has_a_point_edge():
    """Face 0 = (0, 0, 1) is degenerate, a segment: its edges are (0, 0), the
    point at vertex 0, and (0, 1). Edge 2-3 of face (2, 3, 4) sweeps along -y
    through vertex 0 at (0, 0, 0): it runs from (-1, 1, 0)-(1, 1, 0) to
    (-1, -1, 0)-(1, -1, 0), across the point at t = 1/2."""
    x0 = np.array([[0, 0, 0], [0, 0, 5], [-1, 1, 0], [1, 1, 0], [0, 1, -1]], dtype=np.float64)
    x1 = x0.copy()
    x1[2:, 1] -= 2
    r = simdccd.step(x0, x1, [[0, 0, 1], [2, 3, 4]], mode="oracle")
    edges = [tuple(e) for e in r.edges.tolist()]
    assert (0, 0) in edges and all(a <= b for a, b in edges)
    point, sweeping = edges.index((0, 0)), edges.index((2, 3))
    assert [min(point, sweeping), max(point, sweeping)] in r.ee.tolist()
    ee_toi = dict(zip(map(tuple, r.ee.tolist()), r.ee_toi.tolist()))
    assert ee_toi[(min(point, sweeping), max(point, sweeping))] == 0.5
    # Vertex 0 also meets face (2, 3, 4) on its edge 2-3.
    assert [0, 1] in r.vf.tolist()
