#!/usr/bin/env python3
"""Markdown tables of benchmark results (the JSON lines bench/run collects).

    python3 bench/common/report.py results.jsonl > results.md

Records with a "role" (gql, gql-variant, peer) are shown side by side per workload: each row's
speedup is the peer's median time over gql's for the same case and graph, and "same output" says
whether its checksum equals gql's. GPU records of other formats get a generic table per workload;
every GPU rate in GB/s or updates/s is also shown as a percentage of the ceiling measured in the same
run (workload "ceiling"). Standard library only: the GPU machine may lack everything else.
"""
import json
import sys

CONTEXT_KEYS = {"machine", "date", "commit", "threads", "load_avg_1m", "workload"}



# Boolean fields by which a record says its output agreed with a peer's (checksums), with the CPU
# back end, with another variant, or passed a validator (Graph500's rules).
AGREEMENT_FIELDS = ("same_as_gql", "same_as_gql_paths", "equal_to_cpu", "delta_stepping_equal",
                    "same_as_device_result", "validated")

def load(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []


def by_workload(records):
    """The records grouped by workload, the workloads in the order they first appear."""
    groups = {}
    for r in records:
        groups.setdefault(r.get("workload"), []).append(r)
    return list(groups.items())


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def si(value, unit=""):
    if value is None:
        return "-"
    for scale, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return f"{value / scale:.3g} {prefix}{unit}"
    return f"{value:.3g} {unit}".strip()


def seconds(t):
    if not t:
        return "-"
    return f"{t['median']:.4g} ({t['min']:.4g}..{t['max']:.4g})"


def ceilings(records):
    """The ceilings of this run: {'copy_gb_per_s': x, 'minplus_fp32': x, 'minplus_int32': x}."""
    found = {}
    for r in records:
        if r.get("workload") != "ceiling":
            continue
        if "gb_per_s" in r and "copy_gb_per_s" not in found:
            found["copy_gb_per_s"] = r["gb_per_s"]
        if "updates_per_s" in r:
            key = "minplus_int32" if "int32" in r.get("variant", "") else "minplus_fp32"
            found[key] = r["updates_per_s"]
    return found


def percent_of_ceiling(r, ceil):
    if r.get("percent_of_copy_ceiling") is not None:
        return r["percent_of_copy_ceiling"]
    if r.get("gb_per_s") and ceil.get("copy_gb_per_s"):
        return 100 * r["gb_per_s"] / ceil["copy_gb_per_s"]
    if r.get("updates_per_s"):
        text = (r.get("variant", "") + " " + r.get("case", "")).lower()
        key = "minplus_int32" if "int32" in text else "minplus_fp32"
        if ceil.get(key):
            return 100 * r["updates_per_s"] / ceil[key]
    return None


def side_by_side(workload, records):
    out = [f"## {workload}\n"]
    units = sorted({r.get("rate_unit", "") for r in records})
    out.append(f"Times in seconds: median (min..max) over {records[0].get('repeats', '?')} repeats after warm-up. "
               f"Rate in {', '.join(u for u in units if u) or '-'}. Speedup: this row's time over gql's "
               f"(above 1: gql is faster).\n")
    gql_time = {}
    for r in records:
        if r.get("role") == "gql":
            gql_time[(r.get("case"), r.get("graph"), r.get("n"))] = r["time_s"]["median"]
    rows = []
    for r in records:
        key = (r.get("case"), r.get("graph"), r.get("n"))
        base = gql_time.get(key)
        speedup = f"{r['time_s']['median'] / base:.2f}x" if base and r.get("role") != "gql" else ""
        same = r.get("same_as_gql")
        rows.append([r.get("case", ""), r.get("graph", ""), r.get("n", ""), r.get("nvals", ""), r.get("variant", ""),
                     seconds(r.get("time_s")), si(r.get("rate")), speedup,
                     f"{r.get('peak_rss_bytes', 0) / 2**20:.0f}", r.get("checksum", "-"),
                     "" if r.get("role") == "gql" else ("yes" if same else "NO" if same is False else "-"),
                     r.get("residual", "") if "residual" in r else r.get("detail", "")])
    out.append(table(["case", "graph", "n", "nvals", "variant", "time s", "rate", "gql speedup", "peak MB",
                      "checksum", "same output", "residual / detail"], rows))
    out.append("")
    return out


def generic(workload, records, ceil):
    out = [f"## {workload}\n"]
    keys = []
    for r in records:
        for k in r:
            if k not in CONTEXT_KEYS and k not in keys:
                keys.append(k)
    with_ceiling = any(percent_of_ceiling(r, ceil) is not None for r in records) and workload != "ceiling"
    header = keys + (["% of ceiling"] if with_ceiling else [])
    rows = []
    for r in records:
        row = []
        for k in keys:
            v = r.get(k, "")
            if k == "time_s" and isinstance(v, dict):
                v = seconds(v)
            elif isinstance(v, float):
                v = f"{v:.4g}"
            row.append(v)
        if with_ceiling:
            p = percent_of_ceiling(r, ceil)
            row.append("-" if p is None else f"{p:.1f}")
        rows.append(row)
    out.append(table(header, rows))
    out.append("")
    return out


def main(path):
    records = load(path)
    if not records:
        print("no results")
        return 1
    machines = sorted({r.get("machine", "?") for r in records})
    dates = sorted(r.get("date", "?") for r in records)
    commits = sorted({r.get("commit", "?")[:12] for r in records})
    loads = [r["load_avg_1m"] for r in records if r.get("load_avg_1m") is not None]
    out = ["# Benchmark results\n",
           f"Machine: {'; '.join(machines)}. Dates {dates[0]} .. {dates[-1]}. Commit {', '.join(commits)}."]
    if loads:
        out.append(f"Load average (1 min) at the records: {min(loads):.1f} .. {max(loads):.1f}.")
    out.append("")
    compared = [r for r in records if any(f in r for f in AGREEMENT_FIELDS)]
    disagree = [r for r in compared if any(r.get(f) is False for f in AGREEMENT_FIELDS)]
    out.append(f"Outputs checked against a peer or a validator: {len(compared)} records, {len(disagree)} disagree"
               + (": " + "; ".join(f"{r.get('workload')} {r.get('graph', '')} {r.get('variant', '')}" for r in disagree)
                  if disagree else "") + ".\n")
    ceil = ceilings(records)
    for workload, group in by_workload(records):
        if all("role" in r and "time_s" in r for r in group):
            out += side_by_side(workload, group)
        else:
            out += generic(workload, group, ceil)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
