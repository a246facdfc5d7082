# simdccd.PersistentSap: the overlap set against a numpy all-pairs test after
# every frame of moving, inserted and removed boxes; hand-made touching boxes;
# bad arguments.
import numpy as np
import pytest

import simdccd


def brute_force(handles, boxes):
    """Sorted (first < second) handle pairs whose closed boxes overlap."""
    lo, hi = boxes[:, 0], boxes[:, 1]
    over = np.all((lo[:, None, :] <= hi[None, :, :]) & (lo[None, :, :] <= hi[:, None, :]), axis=2)
    i, j = np.nonzero(np.triu(over, 1))
    pairs = np.sort(np.stack([handles[i], handles[j]], axis=1), axis=1)
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))] if len(pairs) else pairs.reshape(0, 2)


def test_touching_boxes_overlap_and_the_set_follows_updates():
    sap = simdccd.PersistentSap()
    # Unit cubes at x = 0 and x = 1 share the face x = 1 (closed boxes:
    # overlap); the one at x = 5 is apart.
    sap.insert([10, 11, 12], [[[0, 0, 0], [1, 1, 1]], [[1, 0, 0], [2, 1, 1]], [[5, 0, 0], [6, 1, 1]]])
    np.testing.assert_array_equal(sap.pairs(), [[10, 11]])
    # 12 moves to [1.5, 3] in x: now it overlaps 11 (x in [1, 2]) too.
    sap.update([12], [[[1.5, 0, 0], [3, 1, 1]]])
    np.testing.assert_array_equal(sap.pairs(), [[10, 11], [11, 12]])
    sap.remove(11)
    assert sap.pairs().shape == (0, 2) and len(sap) == 2 and 11 not in sap and 12 in sap
    # An infinite box overlaps everything.
    sap.insert([3], [[[-np.inf] * 3, [np.inf] * 3]])
    np.testing.assert_array_equal(sap.pairs(), [[3, 10], [3, 12]])


def test_random_frames_equal_brute_force():
    rng = np.random.default_rng(11)
    n = 400
    handles = rng.permutation(2 * n)[:n]  # sparse, unordered handles
    center = rng.uniform(0, 12, (n, 3))
    half = rng.uniform(0.1, 0.6, (n, 3))
    velocity = rng.uniform(-0.05, 0.05, (n, 3))

    def boxes(rows):
        return np.stack([center[rows] - half[rows], center[rows] + half[rows]], axis=1)

    sap = simdccd.PersistentSap()
    present = np.zeros(n, dtype=bool)
    present[: n // 2] = True
    sap.insert(handles[present], boxes(present))
    for frame in range(40):
        center += velocity
        moving = present & (rng.random(n) < 0.7)  # some stay: update() takes only the movers
        center[present & ~moving] -= velocity[present & ~moving]
        sap.update(handles[moving], boxes(moving))
        if frame % 10 == 5:  # objects come and go
            leaving = np.flatnonzero(present)[:7]
            for k in leaving:
                sap.remove(int(handles[k]))
            present[leaving] = False
            coming = np.flatnonzero(~present)[:25]
            present[coming] = True
            sap.insert(handles[coming], boxes(coming))
        np.testing.assert_array_equal(sap.pairs(), brute_force(handles[present], boxes(present)), err_msg=f"frame {frame}")
    assert len(sap) == present.sum()
    assert sap.stats["added"] > 0 and sap.stats["removed"] > 0 and sap.stats["swaps"] > 0


BOX = [[[0, 0, 0], [1, 1, 1]]]


@pytest.mark.parametrize("call,error,message", [
    (lambda s: s.insert([0], [[[0, 0], [1, 1]]]), ValueError, r"boxes must have shape \(n, 2, 3\), not \(1, 2, 2\)"),
    (lambda s: s.insert([0, 1], BOX), ValueError, "boxes has 1 rows for 2 handles"),
    (lambda s: s.insert([0], np.array(BOX, dtype=np.float32)), TypeError, "boxes must be float64"),
    (lambda s: s.insert([-1], BOX), ValueError, "handle -1: not a handle"),
    (lambda s: s.insert([2 ** 31], BOX), ValueError, "not a handle"),
    (lambda s: s.insert([0.5], BOX), TypeError, "handles must be an integer array"),
    (lambda s: s.insert([5], BOX), ValueError, "handle 5: already present"),
    (lambda s: s.insert([7], [[[0, 0, 2], [1, 1, 1]]]), ValueError, "handle 7"),
    (lambda s: s.insert([7], [[[0, 0, np.nan], [1, 1, 1]]]), ValueError, "NaN"),
    (lambda s: s.update([8], BOX), ValueError, "handle 8"),
    (lambda s: s.remove(8), ValueError, "handle 8: not present"),
    (lambda s: s.remove(-3), ValueError, "handle -3: not a handle"),
    (lambda s: s.insert([7, 7], [[[0, 0, 0], [1, 1, 1]]] * 2), ValueError, "handle 7: twice in a batch"),
])
def test_bad_arguments_raise_and_change_nothing(call, error, message):
    sap = simdccd.PersistentSap()
    sap.insert([5, 6], [[[0, 0, 0], [1, 1, 1]], [[0.5, 0, 0], [2, 1, 1]]])
    with pytest.raises(error, match=message):
        call(sap)
    np.testing.assert_array_equal(sap.pairs(), [[5, 6]])
    assert len(sap) == 2
