# simdccd.ccd on the bundled data against its truth, in every layout, mode,
# model, implementation and thread count.
import numpy as np
import pytest

import simdccd
from conftest import DATA, TYPES, dataset, run_cli

S = simdccd.Status
SETS = ("sample-queries", "simulation")


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("kind", TYPES)
def test_exact_mode_equals_the_truth(name, kind):
    points, truth = dataset(name)[kind]
    hit, toi, status = simdccd.ccd(points, kind)
    assert hit.dtype == bool and toi.dtype == np.float64 and status.dtype == np.uint8
    np.testing.assert_array_equal(hit, truth)
    assert np.all((toi[hit] >= 0) & (toi[hit] <= 1))
    assert np.all(np.isinf(toi[~hit]))
    assert set(np.unique(status)) <= {S.CERTIFIED, S.EXACT}


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("kind", TYPES)
def test_conservative_mode_misses_nothing(name, kind):
    points, truth = dataset(name)[kind]
    hit, _, status = simdccd.ccd(points, kind, mode="conservative")
    assert np.all(hit[truth])
    # Only queries the kernel could not certify may be false positives.
    assert np.all(status[hit & ~truth] == S.UNCERTAIN)


@pytest.mark.parametrize("model", ["linear", "spacetime"])
@pytest.mark.parametrize("kind", TYPES)
def test_exact_mode_brackets_the_oracles_toi(model, kind):
    points, truth = dataset("sample-queries")[kind]
    hit, toi, status = simdccd.ccd(points, kind, model=model)
    o_hit, o_toi, o_status = simdccd.ccd(points, kind, model=model, mode="oracle")
    if model == "linear":
        np.testing.assert_array_equal(o_hit, truth)
    assert np.all(o_status == S.EXACT)
    np.testing.assert_array_equal(hit, o_hit)
    # The oracle's toi is the largest double <= t*; exact mode's is within
    # the time tolerance (1e-9) below t*.
    assert np.all(toi[hit] <= o_toi[hit])
    assert np.all(toi[hit] >= o_toi[hit] - 1e-9)


@pytest.mark.parametrize("name", SETS)
@pytest.mark.parametrize("mode", ["exact", "conservative"])
def test_spacetime_counts_equal_the_cli(name, mode):
    """Same queries through the C++ tool: its positives and fallbacks (the
    kernel's uncertain queries) equal ours."""
    cli = run_cli("check", "--model", "spacetime", "--mode", mode, str(DATA / name))
    positives = uncertain = 0
    for kind, (points, _) in dataset(name).items():
        hit, _, status = simdccd.ccd(points, kind, model="spacetime", mode=mode)
        positives += int(hit.sum())
        uncertain += int(np.sum(status == (S.EXACT if mode == "exact" else S.UNCERTAIN)))
    assert (positives, uncertain) == (cli["positives"], cli["uncertain"])
    assert cli["queries"] == sum(len(p) for p, _ in dataset(name).values())


def layouts(points):
    """(name, array equal to `points`, read in place?) in several memory layouts."""
    n = len(points)
    c_order = np.ascontiguousarray(points)
    soa = np.ascontiguousarray(points.transpose(1, 2, 0))  # (8, 3, n)
    rows = np.ascontiguousarray(points.reshape(n, 24).T)  # (24, n)
    unaligned = np.frombuffer(b"\0" + c_order.tobytes(), dtype=np.float64, offset=1, count=24 * n)
    wide = np.zeros((n, 8, 5))
    wide[:, :, 1:4] = points
    return [
        ("c_order", c_order, False),
        ("fortran", np.asfortranarray(points), True),
        ("soa_transposed", soa.transpose(2, 0, 1), True),
        ("rows_transposed", rows.T.reshape(n, 8, 3), True),
        ("unaligned", unaligned.reshape(n, 8, 3), False),
        ("negative_stride", np.asfortranarray(points[::-1])[::-1], False),
        ("strided_columns", wide[:, :, 1:4], False),
    ]


@pytest.mark.parametrize("kind", TYPES)
def test_every_layout_gives_the_same_answers(kind):
    points, truth = dataset("sample-queries")[kind]
    expected = simdccd.ccd(points, kind, mode="conservative")
    np.testing.assert_array_equal(expected[0][truth], True)
    for name, array, direct in layouts(points):
        np.testing.assert_array_equal(array, points)
        assert simdccd.zero_copy(array) == direct, name
        for mine, theirs in zip(simdccd.ccd(array, kind, mode="conservative"), expected):
            np.testing.assert_array_equal(mine, theirs, err_msg=name)


def test_a_column_view_is_read_in_place_and_a_slice_copied():
    points, truth = dataset("sample-queries")["ee"]
    soa = np.asfortranarray(points)
    assert simdccd.zero_copy(soa[100:200])  # a contiguous range of queries
    assert not simdccd.zero_copy(soa[::2])  # every other query: copied
    np.testing.assert_array_equal(simdccd.ccd(soa[::2], "ee")[0], truth[::2])
    np.testing.assert_array_equal(simdccd.ccd(soa[100:200], "ee")[0], truth[100:200])


def test_implementations_threads_and_models_agree():
    before = simdccd.targets()["active"]
    for model in ("linear", "spacetime"):
        points, _ = dataset("sample-queries")["vf"]
        # Conservative tois are bit-identical on every implementation and thread count.
        expected = simdccd.ccd(points, "vf", model=model, mode="conservative")
        for target in simdccd.targets()["runnable"]:
            for threads in (1, 2):
                answers = simdccd.ccd(points, "vf", model=model, mode="conservative", target=target,
                                      threads=threads)
                for mine, theirs in zip(answers, expected):
                    np.testing.assert_array_equal(mine, theirs, err_msg=f"{model} {target} {threads}")
    assert simdccd.targets()["active"] == before


def test_spacetime_ids_choose_the_diagonals():
    """ids reorder a primitive's vertices: the same as listing them in that
    order with the default ids, and different from the default on some queries."""
    for kind, perm, ids in (
        ("vf", [0, 3, 2, 1], [0, 3, 2, 1]),  # face vertices in reverse id order
        ("ee", [1, 0, 3, 2], [1, 0, 3, 2]),  # both edges reversed
    ):
        points, _ = dataset("sample-queries")[kind]
        reordered = points[:, perm + [p + 4 for p in perm]]
        by_ids = simdccd.ccd(points, kind, model="spacetime", ids=np.tile(ids, (len(points), 1)))
        by_order = simdccd.ccd(reordered, kind, model="spacetime")
        default = simdccd.ccd(points, kind, model="spacetime")
        for mine, theirs in zip(by_ids, by_order):
            np.testing.assert_array_equal(mine, theirs)
        assert np.any(by_ids[0] != default[0]) or np.any(by_ids[1] != default[1])
        # ids in any integer dtype and layout.
        ids32 = np.asfortranarray(np.tile(np.array(ids, dtype=np.int32), (len(points), 1)))
        np.testing.assert_array_equal(simdccd.ccd(points, kind, model="spacetime", ids=ids32)[1], by_ids[1])


def test_invalid_coordinates_are_flagged_per_query():
    points, truth = dataset("sample-queries")["vf"]
    bad = points[:8].copy()
    bad[1, 0, 0] = np.nan
    bad[3, 5, 2] = np.inf
    bad[5, 2, 1] = -2.0**61  # beyond the kernels' range 2^60
    hit, toi, status = simdccd.ccd(bad, "vf")
    flagged = np.array([i in (1, 3, 5) for i in range(8)])
    np.testing.assert_array_equal(status == S.INVALID_INPUT, flagged)
    assert not hit[flagged].any() and np.isinf(toi[flagged]).all()
    np.testing.assert_array_equal(hit[~flagged], truth[:8][~flagged])
    # The oracle decides any finite input, so only NaN and inf are invalid there.
    status = simdccd.ccd(bad, "vf", mode="oracle")[2]
    np.testing.assert_array_equal(status == S.INVALID_INPUT, [i in (1, 3) for i in range(8)])


def test_empty_batch_and_lists():
    hit, toi, status = simdccd.ccd(np.zeros((0, 8, 3)), "ee")
    assert hit.shape == toi.shape == status.shape == (0,)
    points, truth = dataset("sample-queries")["ee"]
    np.testing.assert_array_equal(simdccd.ccd(points[:5].tolist(), "ee")[0], truth[:5])
