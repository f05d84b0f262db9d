#!/usr/bin/env python3
"""Markdown tables of the GPU SpGEMM benchmark results (the JSON lines that run-gpu writes).

    python3 bench/gpu_spgemm/results_table.py results.jsonl > results.md

Standard library only: the GPU machine may lack everything else.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from report import load, table  # noqa: E402  (the loading and table layout of every benchmark report)


def fmt_time(record):
    t = record.get("time_s")
    if not t:
        return "-"
    return f"{t['median'] * 1e3:.2f} ({t['min'] * 1e3:.2f}..{t['max'] * 1e3:.2f})"


def fmt_rate(value, scale, digits=2):
    return "-" if value is None else f"{value / scale:.{digits}f}"


def main(path):
    records = load(path)
    if not records:
        print("no results")
        return 1
    first = records[0]
    out = [f"# GPU SpGEMM benchmarks\n\n{first.get('machine', '?')}, {first.get('date', '?')}, "
           f"commit {first.get('commit', '?')[:12]}\n"]
    for r in records:
        if r["workload"] == "ceiling" and "gb_per_s" in r:  # the copy ceiling (not the min-plus ones)
            out.append(f"Ceiling: {r['variant']}: {r['gb_per_s']:.0f} GB/s (read + write).\n")

    spgemm = [r for r in records if r["workload"] == "spgemm"]
    if spgemm:
        out.append("## C = A * A (all phases, result on the device)\n")
        out.append("Times in ms: median (min..max). GB/s: bytes a product must move (A, each product's "
                   "second-hop entry, the result) over the median time.\n")
        out.append(table(
            ["graph", "variant", "status", "time ms", "products", "nvals", "G products/s", "GB/s", "% copy",
             "same as gql paths (device result)", "detail"],
            [[r["graph"], r["variant"], r["status"], fmt_time(r), r.get("products", "-"), r.get("nvals", "-"),
              fmt_rate(r.get("products_per_s"), 1e9), fmt_rate(r.get("gb_per_s"), 1, 0),
              fmt_rate(r.get("percent_of_copy_ceiling"), 1, 1), r.get("same_as_gql_paths", r.get("same_as_device_result", "-")),
              r.get("detail", "")] for r in spgemm]))
        out.append("")

    sweep = [r for r in records if r["workload"] == "spgemm_schedule_sweep"]
    if sweep:
        out.append("## Schedule sweep (gql paths u64, one value at a time from the defaults)\n")
        out.append(table(
            ["graph", "parameter", "value", "status", "time ms", "rows tiny/small/medium/spilled/large",
             "phases ms (classes/accumulate/assemble)", "G products/s"],
            [[r["graph"], r["parameter"], r["value"], r["status"], fmt_time(r),
              "/".join(str(r.get(k, "-")) for k in ("tiny_rows", "small_rows", "medium_rows", "spilled_rows", "large_rows")),
              "/".join(fmt_rate(r.get(k), 1, 1) for k in ("classify_ms", "accumulate_ms", "assemble_ms")),
              fmt_rate(r.get("products_per_s"), 1e9)] for r in sweep]))
        out.append("")

    sorts = [r for r in records if r["workload"] == "block_sort"]
    if sorts:
        out.append("## Block sorts of small-row buffers (one block per segment)\n")
        out.append(table(
            ["graph", "segment sizes", "variant", "status", "segments", "items", "time ms", "G items/s"],
            [[r["graph"], r["segment_sizes"], r["variant"], r["status"], r.get("segments", "-"), r.get("items", "-"),
              fmt_time(r), fmt_rate(r.get("items_per_s"), 1e9)] for r in sorts]))
        out.append("")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
