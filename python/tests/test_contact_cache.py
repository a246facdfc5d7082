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
        held = now + aged
        before = np.array([h[1] for h in now]).reshape(-1, width)
        solved = rng.normal(size=(len(now), width))  # what the solver writes back
        for h, v in zip(now, solved):
            h[1] = v
        yield fresh, [h[0] for h in now], before, solved, held


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
    for ids, (fresh, now, before, solved, held) in zip(frames, model_frames(frames, extra_frames, width, model_rng)):
        cache.update(ids, fresh=fresh)
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
    # by (0.25, 0.25): face to face, a's top face on b's bottom face; a small
    # sphere at (5, 0, 0) touches nothing.
    shapes = [simdccd.Shape.box([0.5, 0.5, 0.5]), simdccd.Shape.box([0.5, 0.5, 0.5]), simdccd.Shape.sphere(0.1)]
    r = simdccd.gjk(shapes, [0, 0], [1, 2], [I3, I3], np.zeros((2, 3)), [I3, I3], [[0.25, 0.25, 1.0], [5, 0, 0]])
    ids = simdccd.contact_ids([7, 7], [9, 4], r)
    assert ids.dtype == np.int64 and ids.shape == (2, 6)
    np.testing.assert_array_equal(ids[:, [0, 3]], [[7, 9], [7, 4]])
    assert ids[0, 1] == F and ids[0, 4] == F
    np.testing.assert_array_equal(ids[:, 2], r["feature_a_index"].astype(np.int64))
    cache = simdccd.ContactCache()
    touching = ids[r["distance"] < 1e-9]
    assert cache.update(touching)["misses"] == 1
    # The next frame, the same contact again: a hit.
    r2 = simdccd.gjk(shapes, [0], [1], [I3], [[0, 0, 0]], [I3], [[0.25, 0.25, 1.0]])
    assert cache.update(simdccd.contact_ids([7], [9], r2))["hits"] == 1


@pytest.mark.parametrize("call,error,message", [
    (lambda c: c.update([[0, 0, 0, 1, 3, 0]]), ValueError, "feature_b_type 3 is not 0 to 2"),
    (lambda c: c.update([[-1, 0, 0, 1, 0, 0]]), ValueError, "ids row 0: body_a -1"),
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
