# The GIL is released while kernels run, and calls from several Python
# threads (with and without a forced implementation) give the serial answers.
import threading
import time

import numpy as np

import simdccd
from conftest import dataset


def test_other_python_threads_run_during_a_call():
    """While one thread decides at least 0.3 s of queries on one core, the
    main thread keeps running Python: its longest pause must be far shorter
    than the call (holding the GIL would pause it for the whole call)."""
    points, _ = dataset("sample-queries")["vf"]
    # Sized to this machine: doubled until one call takes 0.3 s.
    batch = points
    while True:
        start = time.perf_counter()
        simdccd.ccd(batch, "vf", mode="oracle", threads=1)
        if time.perf_counter() - start >= 0.3:
            break
        batch = np.concatenate([batch, batch])
    done = threading.Event()
    call = {}

    def decide():
        start = time.perf_counter()
        simdccd.ccd(batch, "vf", mode="oracle", threads=1)
        call["seconds"] = time.perf_counter() - start
        done.set()

    worker = threading.Thread(target=decide)
    longest_pause, last = 0.0, time.perf_counter()
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        longest_pause, last = max(longest_pause, now - last), now
    worker.join()
    assert call["seconds"] > 0.2, "the workload is too small to tell"
    assert longest_pause < call["seconds"] / 3, (longest_pause, call["seconds"])


def test_concurrent_calls_give_the_serial_answers():
    before = simdccd.targets()["active"]
    jobs = []
    for kind in ("vf", "ee"):
        points, truth = dataset("sample-queries")[kind]
        for target in (None, "double", simdccd.targets()["runnable"][-2]):
            for model in ("linear", "spacetime"):
                jobs.append((points, kind, model, target, truth))
    serial = [simdccd.ccd(p, k, model=m, mode="conservative", target=t) for p, k, m, t, _ in jobs]
    results = [None] * len(jobs)

    def run(i):
        p, k, m, t, _ = jobs[i]
        for _ in range(3):
            results[i] = simdccd.ccd(p, k, model=m, mode="conservative", target=t, threads=1)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for (p, k, m, t, truth), mine, theirs in zip(jobs, results, serial):
        for a, b in zip(mine, theirs):
            np.testing.assert_array_equal(a, b, err_msg=f"{k} {m} {t}")
        if m == "linear":
            assert np.all(mine[0][truth])
    assert simdccd.targets()["active"] == before
