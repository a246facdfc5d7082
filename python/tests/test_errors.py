# Bad arguments raise Python exceptions with the library's messages.
from decimal import Decimal

import numpy as np
import pytest

import simdccd

POINTS = np.zeros((4, 8, 3))
MESH = (np.zeros((3, 3)), np.zeros((3, 3)), np.array([[0, 1, 2]]))


@pytest.mark.parametrize("call,error,message", [
    (lambda: simdccd.ccd(np.zeros((4, 8, 2))), ValueError, r"points must have shape \(n, 8, 3\), not \(4, 8, 2\)"),
    (lambda: simdccd.ccd(np.zeros((8, 3))), ValueError, r"shape \(n, 8, 3\)"),
    (lambda: simdccd.ccd(POINTS.astype(np.float32)), TypeError, "points must be float64, not float32"),
    (lambda: simdccd.ccd(POINTS.astype(">f8")), TypeError, "must be float64"),
    (lambda: simdccd.ccd("points"), TypeError, "points must hold integers or floats, not <U6"),
    (lambda: simdccd.ccd([[[0, 0, 0]] * 8, [[0, 0]]]), TypeError, "points is no array of numbers"),
    (lambda: simdccd.ccd(POINTS, type="fv"), ValueError, "type must be 'vf' or 'ee', not 'fv'"),
    (lambda: simdccd.ccd(POINTS, model="rigid"), ValueError, "model must be 'linear' or 'spacetime'"),
    (lambda: simdccd.ccd(POINTS, mode="fast"), ValueError, "mode must be 'exact', 'conservative' or 'oracle'"),
    (lambda: simdccd.ccd(POINTS, threads=-1), ValueError, "threads must be >= 0"),
    (lambda: simdccd.ccd(POINTS, threads=2**31), ValueError, "below 2\\^31, not 2147483648"),
    (lambda: simdccd.ccd(POINTS, min_distance=-1e-300), ValueError, r"\[0, 2\^60\], not -1e-300$"),
    # Nested lists hold numbers: no string, bytes, None or Decimal converted by numpy.
    (lambda: simdccd.ccd([[["0.5"] * 3] * 8]), TypeError, "points must hold integers or floats, not <U3"),
    (lambda: simdccd.ccd([[[b"1"] * 3] * 8]), TypeError, "points must hold integers or floats"),
    (lambda: simdccd.ccd([[[None, 0, 0]] + [[0, 0, 0]] * 7]), TypeError, "points must hold integers or floats, not object"),
    (lambda: simdccd.ccd([[[Decimal(1)] * 3] * 8]), TypeError, "not object"),
    (lambda: simdccd.Shape.box(["1", "1", "1"]), TypeError, "half_extents must hold integers or floats"),
    (lambda: simdccd.ContactCache().update(np.zeros((0, 6), dtype=int), fresh="7"), TypeError, "fresh must hold integers or floats"),
    (lambda: simdccd.ccd(POINTS, target="bogus"), ValueError, r"target 'bogus' is unknown or cannot run on this CPU \(runnable: .*double"),
    (lambda: simdccd.ccd(POINTS, mode="oracle", target="double"), ValueError, "mode='oracle' runs none"),
    (lambda: simdccd.ccd(POINTS, ids=np.zeros((4, 4), dtype=int)), ValueError, "model='linear' takes none"),
    (lambda: simdccd.ccd(POINTS, model="spacetime", ids=np.zeros((3, 4), dtype=int)), ValueError, "ids has 3 rows for 4 queries"),
    (lambda: simdccd.ccd(POINTS, model="spacetime", ids=np.zeros((4, 4))), TypeError, "ids must be an integer array"),
    (lambda: simdccd.ccd(POINTS, model="spacetime", ids=np.zeros((4, 4), dtype=np.uint64)), TypeError, "not uint64"),
    (lambda: simdccd.exact_ccd(POINTS), ValueError, r"points must have shape \(8, 3\), not \(4, 8, 3\)"),
    (lambda: simdccd.exact_ccd(POINTS[0], model="spacetime", ids=[0, 1, 2]), ValueError, r"ids must have shape \(4,\)"),
    (lambda: simdccd.exact_ccd(POINTS[0], ids=[0, 1, 2, 3]), ValueError, "model='linear' takes none"),
    (lambda: simdccd.step(np.zeros((3, 3)), np.zeros((4, 3)), MESH[2]), ValueError, "x0 has 3 vertices but x1 has 4"),
    (lambda: simdccd.step(np.zeros((3, 2)), np.zeros((3, 2)), MESH[2]), ValueError, r"x0 must have shape \(n, 3\)"),
    (lambda: simdccd.step(*MESH[:2], [[0, 1, 3]]), ValueError, r"faces\[0\] has vertex index 3, out of range for 3 vertices"),
    (lambda: simdccd.step(*MESH[:2], [[0, -1, 2]]), ValueError, "vertex index -1, out of range"),
    (lambda: simdccd.step(*MESH[:2], np.array([[0, 1, 2]], dtype=float)), TypeError, "faces must be an integer array"),
    (lambda: simdccd.step(*MESH[:2], np.array([[True, False, True]])), TypeError, "faces must be an integer array"),
    (lambda: simdccd.step(*MESH[:2], [0, 1, 2]), ValueError, r"faces must have shape \(n, 3\)"),
    (lambda: simdccd.step(*MESH, mode="oracle", target="double"), ValueError, "runs none"),
    (lambda: simdccd.step(*MESH, threads=-2), ValueError, "threads must be >= 0"),
    (lambda: simdccd.step(*MESH, threads=2**31), ValueError, "below 2\\^31"),
])
def test_bad_arguments_raise(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_a_failed_target_changes_nothing():
    before = simdccd.targets()["active"]
    with pytest.raises(ValueError):
        simdccd.ccd(POINTS, target="bogus")
    assert simdccd.targets()["active"] == before
    # Names are case-insensitive, as in the C++ API.
    simdccd.ccd(POINTS, target="DOUBLE")
    assert simdccd.targets()["active"] == before


def test_nested_lists_of_integers_are_numbers():
    # A vertex at (1, 1, 2) falling to (1, 1, -2) through the triangle
    # (0, 0, 0), (4, 0, 0), (0, 4, 0) at t = 1/2: integers in a list, floats in an array.
    points = [[1, 1, 2], [0, 0, 0], [4, 0, 0], [0, 4, 0], [1, 1, -2], [0, 0, 0], [4, 0, 0], [0, 4, 0]]
    for p in ([points], np.array([points], dtype=np.float64)):
        hit, toi, _ = simdccd.ccd(p, mode="oracle")
        assert hit.tolist() == [True] and toi.tolist() == [0.5]


def test_keyword_and_type_errors_come_from_python():
    with pytest.raises(TypeError):
        simdccd.ccd(POINTS, "vf", "linear", "exact", None, 0, None, "extra")
    with pytest.raises(TypeError):
        simdccd.ccd(POINTS, threads="two")


# Integer options take integers only (Python ints, numpy integers, objects
# with __index__): a reviewer's sap.remove(np.float32(2.7)) removed handle 2,
# width=Decimal("3.99") made a cache of 3 and max_iterations=np.float32(1.99)
# ran one iteration (pybind11 truncated what int() takes).
SHAPES = simdccd.Shapes([simdccd.Shape.sphere(1.0), simdccd.Shape.box([1, 2, 3])])
GJK_ARGS = (SHAPES, [0], [1], [np.eye(3)], [[0, 0, 0]], [np.eye(3)], [[5, 0, 0]])


@pytest.mark.parametrize("value", [np.float32(2.7), np.float64(1.0), 2.0, Decimal("3.99"), np.array(2.9),
                                   np.array([1]), np.complex128(2)])
@pytest.mark.parametrize("use", [
    lambda v: simdccd.ccd(POINTS, threads=v),
    lambda v: simdccd.step(*MESH, threads=v),
    lambda v: simdccd.gjk(*GJK_ARGS, max_iterations=v),
    lambda v: simdccd.gjk(*GJK_ARGS, threads=v),
    lambda v: simdccd.ContactCache(width=v),
    lambda v: simdccd.ContactCache(extra_frames=v),
    lambda v: SHAPES[v],
])
def test_integer_options_refuse_other_numbers(value, use):
    with pytest.raises(TypeError):
        use(value)


def test_sap_handles_refuse_other_numbers():
    sap = simdccd.PersistentSap()
    sap.insert([0, 1, 2], np.zeros((3, 2, 3)))
    for value in (np.float32(2.7), 2.0, Decimal(2)):
        with pytest.raises(TypeError):
            sap.remove(value)
        with pytest.raises(TypeError):
            value in sap
    assert len(sap) == 3
    sap.remove(np.int64(2))  # numpy integers are integers
    assert len(sap) == 2 and 2 not in sap and 1 in sap
    assert SHAPES[np.int32(1)].kind == SHAPES[1].kind


@pytest.mark.parametrize("faces", [[], np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int32),
                                   np.zeros((0, 4), dtype=int), np.zeros((0, 0), dtype=int)])
def test_an_empty_face_list_is_no_faces(faces):
    # numpy makes [] a float64 array of shape (0,), once refused with "faces
    # must be an integer array": a mesh of points has no pairs to decide.
    r = simdccd.step(*MESH[:2], faces)
    assert r.edges.shape == (0, 2) and r.vf.shape == (0, 2) and r.ee.shape == (0, 2)
    assert r.stats["vf_candidates"] == 0 and r.stats["ee_candidates"] == 0
    assert r.earliest_toi == np.inf


# Made by Class.__new__(Class), with no __init__, an object holds no C++
# value: every use raises TypeError (pybind11 2.10 alone would read raw memory).
I3 = [np.eye(3)]


@pytest.mark.parametrize("cls,use", [
    (simdccd.Shapes, lambda o: o[0]),
    (simdccd.Shapes, len),
    (simdccd.Shapes, lambda o: simdccd.gjk(o, [0], [0], I3, [[0, 0, 0]], I3, [[3, 0, 0]])),
    (simdccd.Shape, lambda o: o.kind),
    (simdccd.Shape, lambda o: simdccd.gjk([o], [0], [0], I3, [[0, 0, 0]], I3, [[3, 0, 0]])),
    (simdccd.PersistentSap, lambda o: o.pairs()),
    (simdccd.PersistentSap, lambda o: o.insert([0], [[[0, 0, 0], [1, 1, 1]]])),
    (simdccd.ContactCache, lambda o: o.update(np.zeros((1, 6), dtype=int))),
    (simdccd.StepResult, lambda o: o.stats),
    (simdccd.ExactResult, lambda o: o.hit),
])
def test_an_object_never_initialized_raises(cls, use):
    with pytest.raises(TypeError, match=f"{cls.__name__} object is not initialized"):
        use(cls.__new__(cls))


def test_init_after_new_makes_a_working_object():
    shapes = simdccd.Shapes.__new__(simdccd.Shapes)
    shapes.__init__([simdccd.Shape.sphere(1)])
    assert len(shapes) == 1
    g = simdccd.gjk(shapes, [0], [0], I3, [[0, 0, 0]], I3, [[3, 0, 0]])
    assert g["distance"].tolist() == [1.0]  # two unit balls 3 apart
