# simdccd.time_of_impact: hand-derived first contacts (a sphere thrown at a
# sphere, a long box turning into a sphere), misses and starts in contact,
# invalid poses per pair, the same answers for every thread count, and bad
# arguments.
import math

import numpy as np
import pytest

import simdccd
from conftest import random_rotations

S = simdccd.Shape
I3 = np.eye(3)
TURN_Z = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # 90 degrees about z: e_x -> e_y
STILL = np.zeros(3)


def one(shape_a, shape_b, a0, a1, b0, b1, **options):
    """time_of_impact of one pair; each pose (R, x); row 0 of every array."""
    r = simdccd.time_of_impact([shape_a, shape_b], [0], [1], [a0[0]], [a0[1]], [b0[0]], [b0[1]], [a1[0]], [a1[1]],
                               [b1[0]], [b1[1]], **options)
    return {k: (v[0] if k != "at_toi" else {kk: vv[0] for kk, vv in v.items()}) for k, v in r.items()}


def test_a_sphere_thrown_at_a_sphere():
    # Radius 0.5 each; b goes from x = 3 to x = -3: the centers are 1 apart
    # (touching) when 3 - 6 t = 1, at t = 1/3. Python's 1/3 is the double
    # just below it, and toi is never later than the contact.
    r = one(S.sphere(0.5), S.sphere(0.5), (I3, STILL), (I3, STILL), (I3, [3.0, 0, 0]), (I3, [-3.0, 0, 0]))
    assert r["status"] == simdccd.ToiStatus.CONTACT
    assert 1 / 3 - 1e-5 <= r["toi"] <= 1 / 3
    assert r["at_toi"]["valid"] and r["at_toi"]["distance"] < 1e-5
    np.testing.assert_allclose(r["at_toi"]["point_b"], [0.5, 0, 0], atol=1e-4)


def test_a_long_box_turning_into_a_sphere():
    # Box half extents (2, 0.1, 0.1) at the origin turning 90 degrees about
    # +z; a sphere of radius 0.5 at c = (0.5, 1.5, 0). At angle theta, c is
    # (0.5 cos + 1.5 sin, 1.5 cos - 0.5 sin) in the box's frame, its x within
    # [-2, 2], so the gap is the face y = 0.1's: 1.5 cos - 0.5 sin - 0.6,
    # falling to 0 at theta = acos(0.6 / |(1.5, 0.5)|) - atan2(0.5, 1.5).
    # Turning the other way (R transposed) would meet it at theta =
    # acos(...) + atan2(...), t = 0.957 instead of 0.547.
    amplitude, phase = math.hypot(1.5, 0.5), math.atan2(0.5, 1.5)
    t_star = (math.acos(0.6 / amplitude) - phase) / (math.pi / 2)
    r = one(S.box([2, 0.1, 0.1]), S.sphere(0.5), (I3, STILL), (TURN_Z, STILL), (I3, [0.5, 1.5, 0]),
            (I3, [0.5, 1.5, 0]))
    assert r["status"] == simdccd.ToiStatus.CONTACT
    assert t_star - 1e-4 <= r["toi"] <= t_star
    assert r["at_toi"]["feature_a_type"] == simdccd.FeatureType.FACE


def test_a_tiny_turn_of_a_long_box():
    # Box half extents (1000, 0.01, 0.01) turning by 4.9e-7 radians about
    # (1, 1, 1)/sqrt 3; a sphere of radius 0.5 at (999, 0.5101, 0), 1e-4 above
    # the face y = 0.01. The turn's z part, 4.9e-7/sqrt 3, lifts the face at
    # x = 999 by 999 * 4.9e-7 t / sqrt 3 (to first order; the rest is below
    # 1e-9): contact at t* = 1e-4 sqrt 3 / (999 * 4.9e-7) = 0.3538. A turn
    # this small once took its axis from the half-turn formula (about x, which
    # never lifts the face: "separate").
    axis = np.ones(3) / math.sqrt(3)
    angle = 4.9e-7
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    turn = I3 + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k  # Rodrigues
    t_star = 1e-4 * math.sqrt(3) / (999 * angle)
    r = one(S.box([1000, 0.01, 0.01]), S.sphere(0.5), (I3, STILL), (turn, STILL), (I3, [999, 0.5101, 0]),
            (I3, [999, 0.5101, 0]), threshold=1e-10, tolerance=2 ** -36)
    # Contact is declared within threshold + GJK's tolerance of the pair size
    # (about 2000): 2.3e-7, which the lift covers in 8e-4 of the step.
    assert r["status"] == simdccd.ToiStatus.CONTACT
    assert t_star - 2e-3 <= r["toi"] <= t_star + 1e-4


def test_a_miss_and_a_start_in_contact():
    # b passes 2 above a (radii 0.5): separate over the whole step, toi 1.
    r = one(S.sphere(0.5), S.sphere(0.5), (I3, STILL), (I3, STILL), (I3, [3.0, 2, 0]), (I3, [-3.0, 2, 0]))
    assert r["status"] == simdccd.ToiStatus.SEPARATE and r["toi"] == 1
    # Unit boxes overlapping at the start: contact at 0.
    r = one(S.box([1, 1, 1]), S.box([1, 1, 1]), (I3, STILL), (I3, STILL), (I3, [1.5, 0, 0]), (I3, [5.0, 0, 0]))
    assert r["status"] == simdccd.ToiStatus.CONTACT and r["toi"] == 0


def test_invalid_poses_and_the_same_answers_for_every_thread_count():
    rng = np.random.default_rng(7)
    n = 120
    shapes = simdccd.Shapes([S.box([0.5, 0.3, 0.2]), S.sphere(0.4), S.capsule(0.2, 0.5), S.cylinder(0.3, 0.3),
                             S.polytope(rng.normal(size=(9, 3)) * 0.5)])
    a, b = rng.integers(0, 5, n), rng.integers(0, 5, n)
    R = [random_rotations(rng, n) for _ in range(4)]
    start_b = rng.uniform(1.5, 3, (n, 3)) * rng.choice([-1, 1], (n, 3))
    args = [shapes, a, b, R[0], rng.uniform(-0.2, 0.2, (n, 3)), R[1], start_b, R[2],
            rng.uniform(-0.2, 0.2, (n, 3)), R[3], -start_b]
    args[3][0] *= np.nan              # pair 0: a's start rotation NaN
    args[9][1] *= 2                   # pair 1: b's end "rotation" scales by 2
    args[10][2] = [np.inf, 0, 0]      # pair 2: b's end translation infinite
    reference = simdccd.time_of_impact(*args, threads=1)
    invalid = reference["status"] == simdccd.ToiStatus.INVALID_INPUT
    np.testing.assert_array_equal(np.flatnonzero(invalid), [0, 1, 2])
    assert np.isnan(reference["toi"][invalid]).all()
    assert (reference["status"] == simdccd.ToiStatus.CONTACT).sum() >= 20
    assert (reference["toi"][~invalid] >= 0).all() and (reference["toi"][~invalid] <= 1).all()
    for threads in (0, 2, 5):
        r = simdccd.time_of_impact(*args, threads=threads)
        for key in ("status", "toi", "iterations"):
            np.testing.assert_array_equal(r[key].view(np.uint8), reference[key].view(np.uint8), err_msg=key)
        for key, value in reference["at_toi"].items():
            np.testing.assert_array_equal(r["at_toi"][key].view(np.uint8), value.view(np.uint8), err_msg=key)


ONE = ([S.sphere(1.0)], [0], [0], [I3], [[0, 0, 0]], [I3], [[3, 0, 0]], [I3], [[0, 0, 0]], [I3], [[-3, 0, 0]])


@pytest.mark.parametrize("change,error,message", [
    ({"threshold": 1.0}, ValueError, r"threshold must be in \[0, 1\) and tolerance in \[2\^-36, 1\), not 1.0"),
    ({"threshold": -1e-9}, ValueError, "threshold must be in"),
    ({"tolerance": 1e-12}, ValueError, "tolerance in"),
    ({"max_iterations": 0}, ValueError, "max_iterations must be 1 to 2\\^31 - 1, not 0"),
    ({"threads": -1}, ValueError, "threads must be >= 0"),
    ({1: [1]}, IndexError, r"a\[0\] = 1 is out of range for 1 shapes"),
    ({8: [[0, 0, 0], [0, 0, 0]]}, ValueError, "end_translation_a has 2 rows for 1 pairs"),
    ({7: [[1, 0, 0]]}, ValueError, r"end_rotation_a must have shape \(n, 3, 3\)"),
    ({0: [S.sphere(1.0), "x"]}, TypeError, r"shapes\[1\] is a str, not a simdccd.Shape"),
])
def test_bad_arguments_raise(change, error, message):
    args = list(ONE)
    options = {}
    for key, value in change.items():
        if isinstance(key, int):
            args[key] = value
        else:
            options[key] = value
    with pytest.raises(error, match=message):
        simdccd.time_of_impact(*args, **options)
