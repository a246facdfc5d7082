# simdccd.ContactCache and simdccd.contact_ids: the frame rule by hand, then
# against a pure-Python model of the documented rule over random frames;
# contacts of real gjk() answers; bad arguments.
import numpy as np
import pytest

import simdccd

V, E, F = simdccd.FeatureType.VERTEX, simdccd.FeatureType.EDGE, simdccd.FeatureType.FACE
I3 = np.eye(3)


def test_the_frame_rule_by_hand():
    cache = simdccd.ContactCache(width=2)
    a = [1, V, 7, 2, F, 3]   # vertex 7 of body 1 on face 3 of body 2
    b = [2, E, 5, 4, E, 9]   # edge on edge
    s = cache.update([a, b])
    assert (s["hits"], s["misses"], s["dropped"], s["kept"]) == (0, 2, 0, 0)
    np.testing.assert_array_equal(cache.values, np.zeros((2, 2)))
    cache.values = [[10.0, 11.0], [20.0, 21.0]]  # the solver's impulses
    # Frame 2: b reported with its bodies swapped (the same contact), and a new
    # one c; a is not reported and is dropped at once (extra_frames 0).
    c = [3, V, 0, 1, V, 0]
    s = cache.update([[4, E, 9, 2, E, 5], c], fresh=[-1.0, -2.0])
    assert (s["hits"], s["misses"], s["dropped"], s["kept"]) == (1, 1, 1, 0)
    assert s["hit_rate"] == 0.5
    # Canonical rows: body_a < body_b; c's bodies swap with their features.
    np.testing.assert_array_equal(cache.contacts, [b, [1, V, 0, 3, V, 0]])
    np.testing.assert_array_equal(cache.values, [[20.0, 21.0], [-1.0, -2.0]])
    assert cache.find(a) is None
    np.testing.assert_array_equal(cache.find([4, E, 9, 2, E, 5]), [20.0, 21.0])
    assert len(cache) == 2
    t = cache.total_stats
    assert (t["hits"], t["misses"], t["dropped"]) == (1, 3, 1)


def test_positions_line_values_up_with_the_reported_rows():
    cache = simdccd.ContactCache(width=1, extra_frames=1)
    a, b = [0, F, 0, 1, V, 2], [1, E, 4, 3, E, 5]
    cache.update([a, b])
    cache.values = [[1.0], [2.0]]
    # b swapped, a twice, an unknown contact: rows 1, 0, 0 and -1.
    swapped_b = [3, E, 5, 1, E, 4]
    np.testing.assert_array_equal(cache.positions([swapped_b, a, a, [9, V, 0, 8, V, 0]]), [1, 0, 0, -1])
    np.testing.assert_array_equal(cache.values[cache.positions([swapped_b, a])], [[2.0], [1.0]])
    cache.update([b])  # a is aged: held, but no row of this frame
    np.testing.assert_array_equal(cache.positions([a, b]), [-1, 0])
    assert cache.positions([]).shape == (0,)


def test_aged_contacts_come_back_with_their_values():
    cache = simdccd.ContactCache(width=1, extra_frames=1)
    a, b = [0, F, 0, 1, V, 2], [0, F, 1, 1, V, 3]
    cache.update([a, b])
    cache.values = [[5.0], [6.0]]
    s = cache.update([b])  # a unreported: kept one frame, still found
    assert (s["hits"], s["misses"], s["dropped"], s["kept"]) == (1, 0, 0, 1)
    assert len(cache) == 2 and cache.contacts.shape == (1, 6)
    np.testing.assert_array_equal(cache.find(a), [5.0])
    s = cache.update([a, b])  # back: a hit with its old value
    assert (s["hits"], s["kept"]) == (2, 0)
    np.testing.assert_array_equal(cache.values, [[5.0], [6.0]])
    cache.update([])
    cache.update([])  # a and b unreported two frames running: dropped
    assert len(cache) == 0 and cache.last_stats["dropped"] == 2


def test_a_number_as_fresh_fills_every_value_and_reads_are_read_only():
    cache = simdccd.ContactCache(width=3)
    cache.update([[0, V, 1, 1, V, 2]], fresh=7.5)
    np.testing.assert_array_equal(cache.values, [[7.5, 7.5, 7.5]])
    with pytest.raises(ValueError, match="read-only"):
        cache.values[0, 0] = 1.0  # a copy: writing it would change nothing
    with pytest.raises(ValueError, match="read-only"):
        cache.find([0, V, 1, 1, V, 2])[0] = 1.0


def test_values_converted_before_the_contacts_are_counted():
    # An object whose conversion clears the cache: the assignment must see
    # the cache as it is after the conversion (0 contacts), not write 50 rows.
    cache = simdccd.ContactCache(width=2)
    cache.update([[0, V, 0, k, V, 0] for k in range(1, 51)])

    class Clears:
        def __array__(self, dtype=None, copy=None):
            cache.clear()
            return np.ones((50, 2))

    with pytest.raises(ValueError, match="values has 50 rows for 0 contacts"):
        cache.values = Clears()


def test_duplicates_collapse_and_equal_bodies_order_features():
    cache = simdccd.ContactCache()
    # One body against itself (a self-contact): the smaller feature first.
    s = cache.update([[3, F, 9, 3, V, 2], [3, V, 2, 3, F, 9], [3, V, 2, 3, F, 9]])
    assert (s["hits"], s["misses"]) == (0, 1)
    np.testing.assert_array_equal(cache.contacts, [[3, V, 2, 3, F, 9]])


def model_frames(frames, extra_frames, width, rng):
    """The documented rule in plain Python: this frame's contacts in report
    order (duplicates once) with a hit's values or `fresh`; then the aged
    ones in their previous order, while aged at most extra_frames."""
    held = []  # [canonical id, values, age]
    for ids in frames:
        fresh = rng.normal(size=width)
        by_id = {h[0]: h for h in held}
        now, seen = [], set()
        for row in ids:
            key = tuple(row) if (row[0], row[1], row[2]) <= (row[3], row[4], row[5]) else tuple(row[3:]) + tuple(row[:3])
            if key in seen:
                continue
            seen.add(key)
            now.append([key, by_id[key][1] if key in by_id else fresh.copy(), 0])
        aged = [[h[0], h[1], h[2] + 1] for h in held if h[0] not in seen and h[2] + 1 <= extra_frames]
        hits = sum(h[0] in by_id for h in now)
        stats = {"hits": hits, "misses": len(now) - hits, "kept": len(aged),
                 "dropped": len(held) - hits - len(aged)}
        held = now + aged
        before = np.array([h[1] for h in now]).reshape(-1, width)
        solved = rng.normal(size=(len(now), width))  # what the solver writes back
        for h, v in zip(now, solved):
            h[1] = v
        yield fresh, [h[0] for h in now], before, solved, held, stats


@pytest.mark.parametrize("extra_frames", [0, 2])
def test_random_frames_follow_the_rule(extra_frames):
    rng = np.random.default_rng(3 + extra_frames)
    width = 3
    # Frames drawn from a pool of 25 contacts (self-contacts among them), each
    # row with its halves swapped half the time: ids repeat across frames and
    # within one, in both orders.
    pool = np.stack([rng.integers(0, 4, 25), rng.integers(0, 3, 25), rng.integers(0, 3, 25),
                     rng.integers(0, 4, 25), rng.integers(0, 3, 25), rng.integers(0, 3, 25)], axis=1)
    frames = []
    for n in rng.integers(0, 20, 30):
        rows = pool[rng.integers(0, len(pool), n)]
        swap = rng.random(n) < 0.5
        rows[swap] = np.roll(rows[swap], 3, axis=1)
        frames.append(rows)
    cache = simdccd.ContactCache(width=width, extra_frames=extra_frames)
    model_rng = np.random.default_rng(1)
    for ids, (fresh, now, before, solved, held, stats) in zip(frames, model_frames(frames, extra_frames, width,
                                                                                  model_rng)):
        s = cache.update(ids, fresh=fresh)
        assert {k: s[k] for k in stats} == stats
        # Each reported row's place among this frame's contacts, its halves swapped or not.
        canonical = [tuple(r) if tuple(r[:3]) <= tuple(r[3:]) else tuple(r[3:]) + tuple(r[:3]) for r in ids.tolist()]
        np.testing.assert_array_equal(cache.positions(ids).reshape(-1), [now.index(k) for k in canonical])
        np.testing.assert_array_equal(cache.contacts, np.array(now, dtype=np.int64).reshape(-1, 6))
        np.testing.assert_array_equal(cache.values, before)
        cache.values = solved
        assert len(cache) == len(held)
        for key, values, _ in held:
            np.testing.assert_array_equal(cache.find(list(key)), values)
    t = cache.total_stats
    assert t["hits"] > 50 and t["misses"] > 50 and (t["kept"] > 10) == (extra_frames > 0)


def test_contact_ids_of_gjk_answers():
    # Unit cube b (half extents 0.5) resting on unit cube a at z = 1, shifted
    # by (0.25, 0.25): face to face, a's top face on b's bottom face. A sphere
    # at (5, 0, 0) touches nothing; a tetrahedron's vertex 0 (the origin)
    # 0.1 above the cube's top face (z = 0.5) touches it at a vertex, 0.1 apart.
    tetrahedron = simdccd.Shape.polytope(np.array([[0, 0, 0], [1, 0, 1], [0, 1, 1], [-1, -1, 1]], dtype=float))
    shapes = [simdccd.Shape.box([0.5, 0.5, 0.5]), simdccd.Shape.box([0.5, 0.5, 0.5]), simdccd.Shape.sphere(0.1),
              tetrahedron]
    r = simdccd.gjk(shapes, [0, 0, 0], [1, 2, 3], [I3] * 3, np.zeros((3, 3)), [I3] * 3,
                    [[0.25, 0.25, 1.0], [5, 0, 0], [0, 0, 0.6]])
    ids = simdccd.contact_ids([7, 7, 7], [9, 4, 5], r)
    assert ids.dtype == np.int64 and ids.shape == (3, 6)
    # Each row is (a, feature_a_type, feature_a_index, b, feature_b_type, feature_b_index).
    expected = np.stack([[7, 7, 7], r["feature_a_type"], r["feature_a_index"].astype(np.int64), [9, 4, 5],
                         r["feature_b_type"], r["feature_b_index"].astype(np.int64)], axis=1)
    np.testing.assert_array_equal(ids, expected)
    assert tuple(ids[0, [1, 4]]) == (F, F)
    assert tuple(ids[2, [1, 4, 5]]) == (F, V, 0)  # the tetrahedron's vertex 0 over the face
    cache = simdccd.ContactCache()
    near = r["valid"] & (r["distance"] < 0.2)
    assert cache.update(simdccd.contact_ids([7, 7, 7], [9, 4, 5], r, where=near))["misses"] == 2
    # The next frame, the cubes' contact again: a hit.
    r2 = simdccd.gjk(shapes, [0], [1], [I3], [[0, 0, 0]], [I3], [[0.25, 0.25, 1.0]])
    assert cache.update(simdccd.contact_ids([7], [9], r2))["hits"] == 1


def test_contact_ids_refuses_invalid_pairs_unless_left_out():
    shapes = [simdccd.Shape.sphere(1.0)] * 2
    bad = np.diag([1.0, 1.0, 2.0])  # no rotation: pair 1 is invalid
    r = simdccd.gjk(shapes, [0, 0], [1, 1], [I3, bad], np.zeros((2, 3)), [I3, I3], [[1.5, 0, 0], [1.5, 0, 0]])
    assert list(r["valid"]) == [True, False] and r["distance"][1] == 0
    with pytest.raises(ValueError, match="row 1: an invalid pair"):
        simdccd.contact_ids([0, 2], [1, 3], r)
    np.testing.assert_array_equal(simdccd.contact_ids([0, 2], [1, 3], r, where=r["valid"])[:, [0, 3]], [[0, 1]])


@pytest.mark.parametrize("call,error,message", [
    (lambda c: c.update([[0, 0, 0, 1, 3, 0]]), ValueError, "feature_b_type 3 is not 0 to 2"),
    (lambda c: c.update([[0, 0, 0, 1, 0, 0]] * 2 + [[-1, 0, 0, 1, 0, 0]]), ValueError, "ids row 2: body_a -1"),
    (lambda c: c.update([[0, 0, 0, 1, 0, 0]], fresh=None), TypeError, "fresh"),
    (lambda c: c.update([[0, 0, 0, 2**32, 0, 0]]), ValueError, "body_b 4294967296"),
    (lambda c: c.update([[0, 0, -5, 1, 0, 0]]), ValueError, "feature_a_index -5 is not at least 0"),
    (lambda c: c.update([[0, 0, 0, 1, 0]]), ValueError, "ids"),
    (lambda c: c.update([[0.5, 0, 0, 1, 0, 0]]), TypeError, "ids"),
    (lambda c: c.update([[0, 0, 0, 1, 0, 0]], fresh=[1.0, 2.0, 3.0]), ValueError, "fresh"),
    (lambda c: setattr(c, "values", np.zeros((2, 2))), ValueError, "values has 2 rows for 0 contacts"),
    (lambda c: c.find([0, 0, 0]), ValueError, "id"),
])
def test_bad_arguments_raise(call, error, message):
    with pytest.raises(error, match=message):
        call(simdccd.ContactCache(width=2))


@pytest.mark.parametrize("kwargs", [{"width": 0}, {"width": 9}, {"extra_frames": -1}])
def test_bad_construction_raises(kwargs):
    with pytest.raises(ValueError):
        simdccd.ContactCache(**kwargs)


def test_contact_ids_checks_its_inputs():
    r = simdccd.gjk([simdccd.Shape.sphere(1.0)] * 2, [0], [1], [I3], [[0, 0, 0]], [I3], [[3, 0, 0]])
    with pytest.raises(ValueError, match="b has 2 rows for 1 bodies in a"):
        simdccd.contact_ids([0], [1, 2], r)
    with pytest.raises(KeyError, match="feature_b_index"):
        simdccd.contact_ids([0], [1], {k: v for k, v in r.items() if k != "feature_b_index"})
    with pytest.raises(ValueError, match="body_a -3"):
        simdccd.contact_ids([-3], [1], r)
    with pytest.raises(TypeError, match="feature_a_index"):
        simdccd.contact_ids([0], [1], {**r, "feature_a_index": r["feature_a_index"].astype(float)})
    with pytest.raises(ValueError, match="feature_b_index 9223372036854775808 is not below 2"):
        simdccd.contact_ids([0], [1], {**r, "feature_b_index": np.array([2**63], dtype=np.uint64)})
    with pytest.raises(TypeError, match="where"):
        simdccd.contact_ids([0], [1], r, where=[1])
