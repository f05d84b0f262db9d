#!/usr/bin/env python3
"""Plots of benchmark results (the JSON lines bench/run collects), one PNG per workload.

    python3 bench/plot.py results.jsonl [-o PLOT_DIR]

Side-by-side workloads (records with a "role"): rate of every variant per graph and case, log scale,
written as cpu_<workload>.png (or gpu_<workload>.png for GPU machines). GPU records with a rate that
has a ceiling in the same run: gpu_percent_of_ceiling.png. When GPU SpGEMM records are present,
bench/plot_gpu.py draws its plots too.
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "common"))
import report  # noqa: E402  (the same loading and ceiling rules as the tables)
from plotting import grouped_bars, plt, save, subtitle  # noqa: E402


def side_by_side(workload, records, folder):
    groups = []
    for r in records:
        g = (r.get("case", ""), r.get("graph", ""), r.get("n"))
        if g not in groups:
            groups.append(g)
    variants = []
    for r in records:
        if r.get("variant") not in variants:
            variants.append(r.get("variant"))
    rate = {(r.get("case", ""), r.get("graph", ""), r.get("n"), r.get("variant")): r.get("rate") for r in records}
    labels = []
    for case, graph, n in groups:
        label = graph if len(graph) < 22 else graph[:20] + ".."
        if workload in ("lu", "fw"):
            label = f"n={n}"
        labels.append(f"{case}\n{label}" if case else label)
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(groups) + 2), 4.5))
    grouped_bars(ax, groups, variants, lambda group, name: rate.get((*group, name)) or None, labels)
    plt.setp(ax.get_xticklabels(), fontsize=7, rotation=30, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel(records[0].get("rate_unit", "rate"))
    ax.set_title(f"{workload}: gql and peers\n{subtitle(records)}", fontsize=9)
    ax.legend(fontsize=8)
    prefix = "gpu" if "GPU" in records[0].get("machine", "") or "H200" in records[0].get("machine", "") else "cpu"
    return save(fig, folder, f"{prefix}_{workload}.png", 110)


def percent_of_ceiling(records, folder):
    ceil = report.ceilings(records)
    points = [(f"{r['workload']} {r.get('graph', '')} {r.get('variant', '')}"[:48], report.percent_of_ceiling(r, ceil))
              for r in records if r.get("workload") != "ceiling"]
    points = [(label, p) for label, p in points if p is not None]
    if not points:
        return None
    fig, ax = plt.subplots(figsize=(8, max(3, 0.25 * len(points) + 1.5)))
    ax.barh(range(len(points)), [p for _, p in points])
    ax.set_yticks(range(len(points)))
    ax.set_yticklabels([label for label, _ in points], fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("% of the ceiling measured in the same run")
    ax.set_title(f"GPU figures against their ceilings\n{subtitle(records)}", fontsize=9)
    return save(fig, folder, "gpu_percent_of_ceiling.png", 110)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results")
    parser.add_argument("-o", "--out", default=None)
    args = parser.parse_args()
    records = report.load(args.results)
    if not records:
        sys.exit(f"no records in {args.results}")
    folder = args.out or os.path.dirname(os.path.abspath(args.results))
    os.makedirs(folder, exist_ok=True)
    for workload, group in report.by_workload(records):
        if all("role" in r and r.get("rate") for r in group):
            print(side_by_side(workload, group, folder))
    path = percent_of_ceiling(records, folder)
    if path:
        print(path)
    if any(r.get("workload") in ("spgemm", "block_sort", "spgemm_threshold_sweep") for r in records):
        subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "plot_gpu.py"),
                        os.path.dirname(os.path.abspath(args.results)), "-o", folder], check=False)


if __name__ == "__main__":
    main()
