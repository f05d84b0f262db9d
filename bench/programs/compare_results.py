#!/usr/bin/env python3
"""Compares two programs' --out files of one kernel (Matrix Market, array or coordinate):
compare_results.py A B [REL_TOL]. Exact when REL_TOL is absent (integers), else every value within
REL_TOL relative of the other's. Prints one line; exits 1 when they differ."""
import sys


def read(path):
    with open(path) as f:
        header = f.readline().split()
        lines = [l for l in f if not l.startswith("%")]
    shape = lines[0].split()
    body = [l.split() for l in lines[1:]]
    if header[2] == "array":
        return shape, {i: v[0] for i, v in enumerate(body)}
    return shape, {tuple(v[:-1]): v[-1] for v in body}


def main():
    a_shape, a = read(sys.argv[1])
    b_shape, b = read(sys.argv[2])
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else None
    if a_shape != b_shape or a.keys() != b.keys():
        print(f"differ: shapes {a_shape} {b_shape}, {len(a)} and {len(b)} entries")
        return 1
    worst = 0.0
    for key, x in a.items():
        y = b[key]
        if tol is None:
            if x != y:
                print(f"differ at {key}: {x} vs {y}")
                return 1
            continue
        fx, fy = float(x), float(y)
        scale = max(abs(fx), abs(fy))
        worst = max(worst, abs(fx - fy) / scale if scale > 0 else 0.0)
    if tol is not None and worst > tol:
        print(f"differ: largest relative difference {worst:.3g} > {tol:g}")
        return 1
    print(f"equal: {len(a)} entries" + (f", largest relative difference {worst:.3g}" if tol is not None else ""))
    return 0


sys.exit(main())
