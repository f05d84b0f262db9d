#!/usr/bin/env python3
"""Plots of the GPU benchmark results (drawn here, from the JSON lines the GPU machine returns).

    python3 bench/plot_gpu.py RESULTS_DIR [-o PLOT_DIR]

RESULTS_DIR is a folder holding results.jsonl (bench/gpu_spgemm/run-gpu's output), or a folder above
it (test/gpu/run's output: bench/gpu_spgemm/results.jsonl). Writes into PLOT_DIR (default RESULTS_DIR):
  gpu_spgemm_rates.png       products per second, gql vs cuSPARSE, per graph
  gpu_spgemm_threshold.png   time against large_row_products, per graph
  gpu_block_sort.png         items per second of each block sort, per segment-size class
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "common"))
import report  # noqa: E402  (the same loading as the tables)
from plotting import grouped_bars, plt, save, subtitle  # noqa: E402


def find_results(folder):
    for candidate in (os.path.join(folder, "results.jsonl"),
                      os.path.join(folder, "bench", "gpu_spgemm", "results.jsonl")):
        if os.path.isfile(candidate):
            return candidate
    for dirpath, _, files in os.walk(folder):
        if "results.jsonl" in files:
            return os.path.join(dirpath, "results.jsonl")
    sys.exit(f"no results.jsonl under {folder}")


def plot_rates(records, out):
    rows = [r for r in records if r["workload"] == "spgemm"]
    if not rows:
        return None
    graphs = list(dict.fromkeys(r["graph"] for r in rows))
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    by_key = {(r["graph"], r["variant"]): r for r in rows}

    def rate(graph, variant):
        r = by_key.get((graph, variant))
        return r["products_per_s"] / 1e9 if r and r.get("status") == "ok" else None

    fig, ax = plt.subplots(figsize=(8, 4.5))
    grouped_bars(ax, graphs, variants, rate)
    for g, graph in enumerate(graphs):  # say which results are missing and why
        for variant in variants:
            r = by_key.get((graph, variant))
            if r and r.get("status") != "ok":
                ax.annotate(f"{variant}: {r['status']}", (g, 0), xytext=(0, 12 + 12 * variants.index(variant)),
                            textcoords="offset points", ha="center", fontsize=7, color="firebrick")
    ax.set_ylabel("billion products / s (median)")
    ax.set_title("C = A * A, all phases, result on the device\n" + subtitle(records), fontsize=9)
    ax.legend(fontsize=8)
    return save(fig, out, "gpu_spgemm_rates.png", 120)


def plot_threshold(records, out):
    rows = [r for r in records if r["workload"] == "spgemm_schedule_sweep" and r.get("status") == "ok"
            and r.get("parameter") == "large_row_products"]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for graph in dict.fromkeys(r["graph"] for r in rows):
        points = sorted((r["large_row_products"], r["time_s"]["median"] * 1e3) for r in rows if r["graph"] == graph)
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=graph)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("large_row_products (rows with at least this many products take the dense column chunks)")
    ax.set_ylabel("time, ms (median)")
    ax.set_title("gql paths SpGEMM: large-row threshold\n" + subtitle(records), fontsize=9)
    ax.legend(fontsize=8)
    return save(fig, out, "gpu_spgemm_threshold.png", 120)


def plot_sorts(records, out):
    rows = [r for r in records if r["workload"] == "block_sort"]
    if not rows:
        return None
    classes = list(dict.fromkeys(r["segment_sizes"] for r in rows))
    # Variant names carry their tile or chunk; plot by the family before the parenthesis.
    family = lambda r: r["variant"].split(" (")[0]  # noqa: E731
    variants = list(dict.fromkeys(family(r) for r in rows))
    by_key = {(r["segment_sizes"], family(r)): r for r in rows}

    def rate(size, variant):
        r = by_key.get((size, variant))
        return r["items_per_s"] / 1e9 if r and r.get("status") == "ok" else None

    fig, ax = plt.subplots(figsize=(8, 4.5))
    grouped_bars(ax, classes, variants, rate)
    ax.set_xlabel("segment length (products of one small row)")
    ax.set_ylabel("billion items / s (median)")
    ax.set_title("Block sorts of small-row buffers\n" + subtitle(records), fontsize=9)
    ax.legend(fontsize=8)
    return save(fig, out, "gpu_block_sort.png", 120)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results_dir")
    parser.add_argument("-o", "--out", help="folder for the PNGs (default: the results folder)")
    args = parser.parse_args()
    records = report.load(find_results(args.results_dir))
    if not records:
        sys.exit("no results")
    out = args.out or args.results_dir
    os.makedirs(out, exist_ok=True)
    for plot in (plot_rates, plot_threshold, plot_sorts):
        path = plot(records, out)
        if path:
            print(path)


if __name__ == "__main__":
    main()
