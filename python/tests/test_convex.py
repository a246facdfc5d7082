# simdccd.gjk and simdccd.gjk_intersect: hand-derived distances, the
# separating planes checked in numpy, the same answers on every target and
# thread count, warm starts, invalid poses, and bad arguments.
import math
import threading

import numpy as np
import pytest

import simdccd
from conftest import random_rotations

S = simdccd.Shape
I3 = np.eye(3)


def one_pair(shape_a, shape_b, x_b, rotation_a=I3, x_a=(0.0, 0.0, 0.0)):
    """gjk() of one pair, b unrotated at x_b; each array's row 0, as a dict."""
    r = simdccd.gjk([shape_a, shape_b], [0], [1], [rotation_a], [x_a], [I3], [x_b])
    return {k: v[0] for k, v in r.items()}


def rotation_z(angle):
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def test_two_spheres():
    # Radius 1 at the origin, radius 1 at x = 3: a gap of 1 along x, closest
    # points (1, 0, 0) and (2, 0, 0).
    r = one_pair(S.sphere(1.0), S.sphere(1.0), (3.0, 0.0, 0.0))
    assert r["valid"] and not r["intersecting"] and r["converged"]
    assert abs(r["distance"] - 1.0) <= r["tolerance"]
    assert r["lower_bound"] <= 1.0 + r["tolerance"] / 16
    np.testing.assert_allclose(r["point_a"], [1, 0, 0], atol=1e-8)
    np.testing.assert_allclose(r["point_b"], [2, 0, 0], atol=1e-8)
    np.testing.assert_allclose(r["separating_axis"], [1, 0, 0], atol=1e-8)
    assert r["feature_a_type"] == simdccd.FeatureType.FACE  # a sphere's whole surface


@pytest.mark.parametrize("x,distance", [
    (2.5, 0.5),  # unit half extents: faces at x = 1 and x = 1.5
    (1.5, 0.0),  # overlapping by 0.5
    (2.0, 0.0),  # faces touching exactly: D = 0, so intersecting (converged)
])
def test_two_boxes_along_x(x, distance):
    r = one_pair(S.box([1, 1, 1]), S.box([1, 1, 1]), (x, 0.0, 0.0))
    assert r["intersecting"] == (distance == 0)
    assert abs(r["distance"] - distance) <= r["tolerance"]


def test_a_rotated_box_reaches_its_diagonal():
    # The unit-half-extent box turned 45 degrees about z reaches x = sqrt 2 at
    # its vertical edge; a sphere of radius 0.5 at x = 3 is 3 - sqrt 2 - 0.5 away.
    r = one_pair(S.box([1, 1, 1]), S.sphere(0.5), (3.0, 0.0, 0.0), rotation_a=rotation_z(math.pi / 4))
    assert not r["intersecting"]
    assert abs(r["distance"] - (2.5 - math.sqrt(2))) <= r["tolerance"]
    assert abs(r["point_a"][0] - math.sqrt(2)) < 1e-6 and abs(r["point_a"][1]) < 1e-6
    assert r["feature_a_type"] == simdccd.FeatureType.EDGE


def test_a_pose_maps_body_to_world():
    # A thin polytope whose vertex 0, (1, 0, 0), sticks out; turned 90 degrees
    # about z (R e_x = e_y) it points at a sphere of radius 0.5 at (0, 3, 0):
    # 3 - 1 - 0.5 apart, at vertex 0. R transposed would point it away (about
    # 2.5 apart), so this tells world = R body + x from R^T body + x.
    spike = S.polytope(np.array([[1, 0, 0], [0, 0.1, 0], [0, -0.1, 0], [0, 0, 0.1]], dtype=float))
    r = one_pair(spike, S.sphere(0.5), (0.0, 3.0, 0.0), rotation_a=rotation_z(math.pi / 2))
    assert abs(r["distance"] - 1.5) <= r["tolerance"]
    assert (r["feature_a_type"], r["feature_a_index"]) == (simdccd.FeatureType.VERTEX, 0)


def test_a_tetrahedron_face():
    # The corner tetrahedron (0, e_x, e_y, e_z) and a small sphere at (1, 1, 1):
    # the closest feature is the face x + y + z = 1, (3 - 1) / sqrt 3 from the
    # center, at (1/3, 1/3, 1/3); its id packs vertices 1, 2, 3 (shape.hpp).
    tetrahedron = S.polytope(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float))
    r = one_pair(tetrahedron, S.sphere(0.1), (1.0, 1.0, 1.0))
    assert abs(r["distance"] - (2 / math.sqrt(3) - 0.1)) <= r["tolerance"]
    np.testing.assert_allclose(r["point_a"], [1 / 3] * 3, atol=1e-6)
    assert r["feature_a_type"] == simdccd.FeatureType.FACE
    assert r["feature_a_index"] == 1 | 2 << 21 | 3 << 42


def test_capsule_side_and_cylinder_cap():
    # Capsule radius 0.5 along z (core from z = -1 to 1), sphere radius 0.5
    # at (2, 0, 0.5): their cores are 2 apart, 1 less the radii; the side is edge 0.
    r = one_pair(S.capsule(0.5, 1.0), S.sphere(0.5), (2.0, 0.0, 0.5))
    assert abs(r["distance"] - 1.0) <= r["tolerance"]
    assert (r["feature_a_type"], r["feature_a_index"]) == (simdccd.FeatureType.EDGE, 0)
    # Cylinder radius 1, z in [-1, 1], sphere radius 0.5 at (0, 0, 3): the top
    # cap (face 1) is 2 from the center, 1.5 less the radius.
    r = one_pair(S.cylinder(1.0, 1.0), S.sphere(0.5), (0.0, 0.0, 3.0))
    assert abs(r["distance"] - 1.5) <= r["tolerance"]
    assert (r["feature_a_type"], r["feature_a_index"]) == (simdccd.FeatureType.FACE, 1)


def random_batch(seed=5, n=400, shapes=60):
    """Random polytopes of 4 to 12 vertices and random poses, translations
    drawn from [-1.5, 1.5] per axis."""
    rng = np.random.default_rng(seed)
    vertices = [rng.normal(size=(rng.integers(4, 13), 3)) * rng.uniform(0.3, 1.0, 3) for _ in range(shapes)]
    args = ([S.polytope(v) for v in vertices], rng.integers(0, shapes, n), rng.integers(0, shapes, n),
            random_rotations(rng, n), rng.uniform(-1.5, 1.5, (n, 3)), random_rotations(rng, n),
            rng.uniform(-1.5, 1.5, (n, 3)))
    return vertices, args


def world(vertices, rotation, translation):
    return vertices @ rotation.T + translation


def test_separating_planes_and_upper_bounds_hold_in_numpy():
    """Every separate answer's plane holds the world vertices lower_bound
    apart (up to the rounding tau/16), and no vertex pair is closer than the
    distance less 5 tau/16 (gjk.hpp's rule 3: D >= distance - 5 tau/16, and
    D is at most the closest vertex pair's distance); every intersecting
    pair has no plane along the centers' line that holds them tau apart."""
    vertices, args = random_batch()
    shapes, a, b, ra, xa, rb, xb = args
    r = simdccd.gjk(*args)
    assert r["valid"].all() and r["converged"].all()
    assert 0 < r["intersecting"].sum() < len(a)
    for i in range(len(a)):
        pa = world(vertices[a[i]], ra[i], xa[i])
        pb = world(vertices[b[i]], rb[i], xb[i])
        tau = r["tolerance"][i]
        closest_vertices = np.min(np.linalg.norm(pa[:, None, :] - pb[None, :, :], axis=2))
        if r["intersecting"][i]:
            u = pb.mean(axis=0) - pa.mean(axis=0)
            assert (pb @ u).min() - (pa @ u).max() <= tau * np.linalg.norm(u)
            continue
        assert r["distance"][i] <= closest_vertices + 5 * tau / 16
        u = r["separating_axis"][i]
        assert abs(np.linalg.norm(u) - 1) < 1e-12
        assert (pb @ u).min() - (pa @ u).max() >= r["lower_bound"][i] - tau / 16
        assert r["distance"][i] - r["lower_bound"][i] <= tau


def mixed_batch(seed=9):
    """Random polytope pairs, then every kind against every kind at random
    poses and sizes, then invalid poses on either side."""
    _, (polytopes, a, b, ra, xa, rb, xb) = random_batch(seed=seed)
    rng = np.random.default_rng(seed)
    kinds = [S.sphere(0.7), S.box([0.5, 1.0, 0.25]), S.capsule(0.3, 0.9), S.cylinder(0.8, 0.4), polytopes[0]]
    shapes = simdccd.Shapes(list(polytopes) + kinds)
    k = len(polytopes) + np.arange(len(kinds))
    ka, kb = np.repeat(k, len(kinds)), np.tile(k, len(kinds))
    m = len(ka)
    bad_rotation = np.stack([np.eye(3) * np.nan, np.eye(3) * 2, np.eye(3), np.eye(3), np.eye(3)])
    bad_x = np.array([[0, 0, 0], [0, 0, 0], [np.inf, 0, 0], [2.0 ** 60, 2.0 ** 60, 0], [-np.inf, 1, 1]])
    good = random_rotations(rng, 5)
    return (shapes, np.concatenate([a, ka, [0] * 5, [1] * 5]), np.concatenate([b, kb, [1] * 5, [0] * 5]),
            np.concatenate([ra, random_rotations(rng, m), bad_rotation, good]),
            np.concatenate([xa, rng.uniform(-1.5, 1.5, (m, 3)), bad_x, np.zeros((5, 3))]),
            np.concatenate([rb, random_rotations(rng, m), good, bad_rotation]),
            np.concatenate([xb, rng.uniform(-1.5, 1.5, (m, 3)), np.zeros((5, 3)), bad_x]))


def assert_same_bits(r, reference, where):
    for key, value in reference.items():
        assert r[key].dtype == value.dtype, key
        np.testing.assert_array_equal(r[key].view(np.uint8), value.view(np.uint8), err_msg=f"{key} {where}")


def test_same_answers_on_every_target_and_thread_count():
    args = mixed_batch()
    reference = simdccd.gjk(*args, target="double", threads=1)
    assert (~reference["valid"]).sum() == 10  # the invalid poses, and only they
    warm_reference = simdccd.gjk(*args, warm=reference, target="double", threads=1)
    flags = simdccd.gjk_intersect(*args, target="double", threads=1)
    expected = np.where(reference["intersecting"], simdccd.Overlap.INTERSECTING, simdccd.Overlap.SEPARATE)
    expected[~reference["valid"]] = simdccd.Overlap.INVALID
    np.testing.assert_array_equal(flags, expected)
    for target in simdccd.targets()["runnable"]:
        for threads in (1, 0, 3):
            where = f"on {target}, {threads} threads"
            assert_same_bits(simdccd.gjk(*args, target=target, threads=threads), reference, where)
            assert_same_bits(simdccd.gjk(*args, warm=reference, target=target, threads=threads), warm_reference,
                             where + ", warm")
            np.testing.assert_array_equal(simdccd.gjk_intersect(*args, target=target, threads=threads), flags)
            quick = simdccd.gjk(*args, intersection_only=True, target=target, threads=threads)
            np.testing.assert_array_equal(quick["intersecting"], reference["intersecting"])


def test_concurrent_calls_give_the_serial_answers():
    args = mixed_batch(seed=2)
    reference = simdccd.gjk(*args, threads=1)
    targets = simdccd.targets()["runnable"]
    answers = [None] * 8

    def run(i):
        answers[i] = simdccd.gjk(*args, target=targets[i % len(targets)] if i % 2 else None, threads=1 + i % 2)

    workers = [threading.Thread(target=run, args=(i,)) for i in range(len(answers))]
    before = simdccd.targets()["active"]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    for i, r in enumerate(answers):
        assert_same_bits(r, reference, f"thread {i}")
    assert simdccd.targets()["active"] == before


def test_answer_dtypes_and_shapes():
    r = simdccd.gjk(*mixed_batch())
    n = len(r["valid"])
    expected = {"valid": (np.bool_, ()), "intersecting": (np.bool_, ()), "converged": (np.bool_, ()),
                "distance": (np.float64, ()), "lower_bound": (np.float64, ()), "tolerance": (np.float64, ()),
                "separating_axis": (np.float64, (3,)), "point_a": (np.float64, (3,)), "point_b": (np.float64, (3,)),
                "feature_a_type": (np.uint8, ()), "feature_a_index": (np.uint64, ()),
                "feature_b_type": (np.uint8, ()), "feature_b_index": (np.uint64, ()),
                "iterations": (np.uint32, ()), "warm_direction": (np.float64, (3,)), "warm_count": (np.uint8, ()),
                "warm_vertex_a": (np.uint32, (4,)), "warm_vertex_b": (np.uint32, (4,))}
    assert set(r) == set(expected)
    for key, (dtype, tail) in expected.items():
        assert r[key].dtype == dtype and r[key].shape == (n, *tail), key


def test_a_warm_start_from_the_last_frame():
    """Frame 2 moves every body by a small step: started from frame 1's
    simplex, the answers stay within the tolerance band of the cold ones and
    take fewer support evaluations in all."""
    _, args = random_batch(seed=3)
    shapes, a, b, ra, xa, rb, xb = args
    first = simdccd.gjk(*args)
    step = np.random.default_rng(4).uniform(-1e-3, 1e-3, xb.shape)
    moved = (shapes, a, b, ra, xa, rb, xb + step)
    cold = simdccd.gjk(*moved)
    warm = simdccd.gjk(*moved, warm=first)
    band = cold["tolerance"] + warm["tolerance"]
    apart = ~cold["intersecting"] & ~warm["intersecting"]
    assert (np.abs(cold["distance"] - warm["distance"])[apart] <= band[apart]).all()
    # A flag may differ only where the distance lies in the band (0, tau].
    differ = cold["intersecting"] != warm["intersecting"]
    assert (np.maximum(cold["distance"], warm["distance"])[differ] <= band[differ]).all()
    assert warm["iterations"].sum() < cold["iterations"].sum()


def test_invalid_poses_are_flagged_per_pair():
    # Pose a, then pose b: a NaN, a scaled "rotation", a translation of norm
    # 2^61, one of norm exactly 2^60 (the largest valid), one of norm
    # 2^60.5 whose components are each 2^60, and an infinite one.
    shapes = [S.sphere(1.0), S.box([1, 2, 3])]
    rotations = np.stack([I3, I3 * np.nan, 2 * I3, I3, I3, I3, I3])
    translations = np.array([[0, 0, 0], [0, 0, 0], [0, 0, 0], [2.0 ** 61, 0, 0], [2.0 ** 60, 0, 0],
                             [2.0 ** 60, 2.0 ** 60, 0], [0, -np.inf, 0]])
    valid = [True, False, False, False, True, False, False]
    far = np.full((7, 3), 5.0)
    for side_a in (True, False):
        pose = (rotations, translations, [I3] * 7, far) if side_a else ([I3] * 7, far, rotations, translations)
        args = (shapes, [0, 0, 1, 1, 0, 1, 0], [1, 1, 0, 0, 1, 0, 1], *pose)
        r = simdccd.gjk(*args)
        np.testing.assert_array_equal(r["valid"], valid)
        flags = simdccd.gjk_intersect(*args)
        np.testing.assert_array_equal(flags == simdccd.Overlap.INVALID, np.logical_not(valid))


def test_an_empty_batch():
    r = simdccd.gjk([S.sphere(1.0)], [], [], np.zeros((0, 3, 3)), np.zeros((0, 3)), np.zeros((0, 3, 3)), np.zeros((0, 3)))
    assert all(len(v) == 0 for v in r.values())


ONE = ([S.sphere(1.0)], [0], [0], [I3], [[0, 0, 0]], [I3], [[3, 0, 0]])


def with_(index, value):
    args = list(ONE)
    args[index] = value
    return args


@pytest.mark.parametrize("call,error,message", [
    (lambda: S.sphere(-1.0), ValueError, "Shape.sphere: sizes must be finite, positive"),
    (lambda: S.sphere(float("nan")), ValueError, "Shape.sphere"),
    (lambda: S.box([1, 1]), ValueError, r"half_extents must have shape \(3,\)"),
    (lambda: S.box([1, 0, 1]), ValueError, "Shape.box: sizes"),
    (lambda: S.capsule(1.0, float("inf")), ValueError, "Shape.capsule"),
    (lambda: S.cylinder(0.0, 1.0), ValueError, "Shape.cylinder"),
    (lambda: S.polytope(np.zeros((0, 3))), ValueError, "vertices must have 1 to 2\\^20 rows"),
    (lambda: S.polytope([[0, 0, float("nan")]]), ValueError, "every coordinate finite"),
    (lambda: S.polytope(np.zeros((4, 2))), ValueError, r"vertices must have shape \(n, 3\)"),
    (lambda: S.polytope(np.zeros((4, 3), dtype=np.float32)), TypeError, "vertices must be float64"),
    (lambda: simdccd.Shape(), TypeError, "No constructor"),
    (lambda: simdccd.gjk(*with_(1, [1])), IndexError, r"a\[0\] = 1 is out of range for 1 shapes"),
    (lambda: simdccd.gjk(*with_(2, [-1])), IndexError, r"b\[0\] = -1 is out of range"),
    (lambda: simdccd.gjk(*with_(2, [0, 0])), ValueError, "a has 1 pairs but b has 2"),
    (lambda: simdccd.gjk(*with_(1, [0.0])), TypeError, "a must be an integer array"),
    (lambda: simdccd.gjk(*with_(3, [I3, I3])), ValueError, "rotation_a has 2 rows for 1 pairs"),
    (lambda: simdccd.gjk(*with_(5, [[1, 0, 0]])), ValueError, r"rotation_b must have shape \(n, 3, 3\)"),
    (lambda: simdccd.gjk(*with_(6, [[3, 0]])), ValueError, r"translation_b must have shape \(n, 3\)"),
    (lambda: simdccd.gjk(*with_(0, [S.sphere(1.0), 1.0])), TypeError, r"shapes\[1\] is a float, not a simdccd.Shape"),
    (lambda: simdccd.gjk(*with_(0, "shapes")), TypeError, "shapes must be a simdccd.Shapes or a list"),
    (lambda: simdccd.Shapes([S.sphere(1.0), None]), TypeError, r"shapes\[1\] is a NoneType"),
    (lambda: simdccd.Shapes([S.sphere(1.0)])[1], IndexError, "Shapes index 1 is out of range"),
    (lambda: simdccd.gjk(*with_(1, np.array([0], dtype=np.uint64))), TypeError, "not uint64"),
    (lambda: simdccd.gjk(*with_(1, 0)), ValueError, r"a must have shape \(n,\), not \(\)"),
    (lambda: simdccd.gjk(*with_(3, np.array([I3], dtype=">f8"))), TypeError, "rotation_a must be float64"),
    (lambda: simdccd.gjk(*ONE, tolerance=0.0), ValueError, r"tolerance must be in \[2\^-36, 1\), not 0.0"),
    (lambda: simdccd.gjk(*ONE, max_iterations=0), ValueError, "max_iterations must be 1 to 2\\^31 - 1, not 0"),
    (lambda: simdccd.gjk(*ONE, max_iterations=2 ** 31), ValueError, "max_iterations must be 1 to"),
    (lambda: simdccd.gjk(*ONE, threads=-1), ValueError, "threads must be >= 0"),
    (lambda: simdccd.gjk(*ONE, threads=2 ** 31), ValueError, "below 2\\^31"),
    (lambda: simdccd.gjk(*ONE, target="bogus"), ValueError, "target 'bogus' is unknown"),
    (lambda: simdccd.gjk(*ONE, warm=[1]), TypeError, "warm must be the dict a previous gjk"),
    (lambda: simdccd.gjk(*ONE, warm={}), ValueError, "warm has no 'warm_direction'"),
    (lambda: simdccd.gjk(*ONE, warm={**simdccd.gjk(*ONE), "warm_count": [5]}), ValueError,
     "warm_count of pair 0 is 5, not 0 to 4"),
    (lambda: simdccd.gjk(*ONE, warm={**simdccd.gjk(*ONE), "warm_vertex_a": [[0, -1, 0, 0]]}), ValueError,
     "warm_vertex_a of pair 0 is -1"),
    (lambda: simdccd.gjk(*ONE, warm=simdccd.gjk(ONE[0], [0, 0], [0, 0], [I3] * 2, [[0, 0, 0]] * 2, [I3] * 2,
                                                [[3, 0, 0]] * 2)), ValueError, "warm_direction has 2 rows for 1 pairs"),
    (lambda: simdccd.gjk_intersect(*ONE, tolerance=1.0), ValueError, "tolerance must be in"),
    (lambda: simdccd.gjk(*ONE, intersection_only=2), TypeError, "incompatible function arguments"),
    (lambda: simdccd.gjk(*ONE, intersection_only=None), TypeError, "incompatible function arguments"),
])
def test_bad_arguments_raise(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_shapes_say_what_they_are():
    assert S.capsule(0.5, 2.0).kind == "capsule"
    assert repr(S.box([1, 2, 3])) == "simdccd.Shape.box([1.0, 2.0, 3.0])"
    assert repr(S.sphere(0.1)) == "simdccd.Shape.sphere(0.1)"
    assert repr(S.polytope(np.eye(3))) == "simdccd.Shape.polytope(<3 vertices>)"
    kept = simdccd.Shapes((S.sphere(0.1), S.cylinder(1.0, 2.0)))
    assert len(kept) == 2 and kept[-1].kind == "cylinder"


def test_a_shapes_object_and_a_list_give_the_same_answers():
    args = mixed_batch(seed=4)
    as_list = (list(args[0][i] for i in range(len(args[0]))),) + args[1:]
    assert_same_bits(simdccd.gjk(*as_list), simdccd.gjk(*args), "list against Shapes")
