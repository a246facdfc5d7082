#!/usr/bin/env python3
"""Two builds' exact oracles on near-degenerate queries: same answers, and time.

Usage: bench/oracle_builds.py OLD_PYTHON_DIR NEW_PYTHON_DIR [--seed S] [--count N] [--out FILE]

Each PYTHON_DIR holds a build's `simdccd` module (BUILD/python). Draws N
queries (default 4000) of each family below, VF and EE: small-integer
coordinates (exact coplanarity, collinearity, shared points), flat ones (z = 0
at both times: always coplanar), and flat and integer ones turned by a random
rotation and shifted (the degeneracy rounded off by 1e-16), the turned ones
scaled by 2^-400 and 2^50, and random ones whose t=0 points are 2^-200 times
smaller than their t=1 points. Each build decides
them with mode 'oracle' and 'exact' (one thread) in a process of its own; the
answers (hit, toi, status) must be equal. Prints and writes (default
oracle_builds.tsv) microseconds per query per build, family, type and mode.
Exits 1 if any answer differs.
"""
import argparse
import os
import pickle
import subprocess
import sys
import tempfile
import time

import numpy as np


def families(rng, n):
    out = {}
    turn, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    for typ in ('vf', 'ee'):
        out['int3-' + typ] = (typ, rng.integers(-2, 3, size=(n, 8, 3)).astype(float))
        out['int1-' + typ] = (typ, rng.integers(0, 2, size=(n, 8, 3)).astype(float))
        flat = rng.integers(-3, 4, size=(n, 8, 3)).astype(float)
        flat[:, :, 2] = 0
        out['flat-' + typ] = (typ, flat)
        out['turned-flat-' + typ] = (typ, flat @ turn.T)
        turned = rng.integers(-2, 3, size=(n, 8, 3)).astype(float) @ turn.T
        out['turned-int-' + typ] = (typ, turned)
        out['shifted-' + typ] = (typ, turned * 1e-3 + 0.7)
        # Far from scale 1, and mixed scales: large integers in the oracle.
        out['tiny-' + typ] = (typ, turned * 2.0**-400)
        out['huge-' + typ] = (typ, turned * 2.0**50)
        mixed = rng.random((n, 8, 3))
        mixed[:, :4] *= 2.0**-200
        out['mixed-' + typ] = (typ, mixed)
    return out


def decide(python_dir, sets_path, answers_path):
    sys.path.insert(0, python_dir)
    import simdccd
    with open(sets_path, 'rb') as f:
        sets = pickle.load(f)
    answers, micros = {}, {}
    for name, (typ, points) in sets.items():
        for mode in ('oracle', 'exact'):
            start = time.perf_counter()
            answers[name, mode] = simdccd.ccd(points, type=typ, mode=mode, threads=1)
            micros[name, mode] = (time.perf_counter() - start) / len(points) * 1e6
    with open(answers_path, 'wb') as f:
        pickle.dump((answers, micros), f)


def cpu_model():
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return 'unknown'


def main():
    if len(sys.argv) == 5 and sys.argv[1] == '--decide':
        return decide(*sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('old')
    ap.add_argument('new')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--count', type=int, default=4000)
    ap.add_argument('--out', default='oracle_builds.tsv')
    args = ap.parse_args()
    sets = families(np.random.default_rng(args.seed), args.count)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        sets_path = os.path.join(tmp, 'sets.pkl')
        with open(sets_path, 'wb') as f:
            pickle.dump(sets, f)
        for build, python_dir in (('old', args.old), ('new', args.new)):
            print(f'oracle_builds: deciding with {build} ({python_dir})', file=sys.stderr)
            answers_path = os.path.join(tmp, build + '.pkl')
            subprocess.run([sys.executable, __file__, '--decide', python_dir, sets_path, answers_path], check=True)
            with open(answers_path, 'rb') as f:
                results[build] = pickle.load(f)
    (old_answers, old_micros), (new_answers, new_micros) = results['old'], results['new']
    differences = 0
    lines = ['family\ttype\tmode\tqueries\told_us_per_query\tnew_us_per_query\tdifferences']
    for (name, mode), (hit_a, toi_a, status_a) in old_answers.items():
        hit_b, toi_b, status_b = new_answers[name, mode]
        same_toi = (toi_a == toi_b) | (np.isinf(toi_a) & np.isinf(toi_b))
        d = int(((hit_a != hit_b) | (status_a != status_b) | ~same_toi).sum())
        differences += d
        family, typ = name.rsplit('-', 1)
        lines.append(f'{family}\t{typ}\t{mode}\t{len(hit_a)}\t{old_micros[name, mode]:.2f}\t'
                     f'{new_micros[name, mode]:.2f}\t{d}')
    text = '\n'.join(lines) + '\n'
    print(text, end='')
    with open(args.out, 'w') as f:
        f.write(f'# bench/oracle_builds.py {args.old} {args.new} --seed {args.seed} --count {args.count}\n'
                f'# cpu: {cpu_model()}\n' + text)
    print(f'oracle_builds: {differences} differences; wrote {args.out}', file=sys.stderr)
    return 1 if differences else 0


if __name__ == '__main__':
    sys.exit(main())
