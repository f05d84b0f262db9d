"""What the benchmark plots share (bench/plot.py, bench/plot_gpu.py): matplotlib with the file-only
backend, the subtitle that says where and when the records were taken, grouped bars, and saving."""
import os
import sys

try:
    import matplotlib
except ImportError:
    # A python3 other than the system's (e.g. pyenv's) may lack Debian's python3-matplotlib.
    if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3", *sys.argv])
    sys.exit("matplotlib is missing: apt-get install python3-matplotlib")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402,F401  (after choosing the file-only backend; the plots' pyplot)


def subtitle(records):
    """Machine, date, commit and the load average range of the records."""
    r = records[0]
    load = [x["load_avg_1m"] for x in records if x.get("load_avg_1m") is not None]
    extra = f", load {min(load):.1f}..{max(load):.1f}" if load else ""
    return f"{r.get('machine', '?')}, {r.get('date', '?')[:10]}, {r.get('commit', '?')[:10]}{extra}"


def grouped_bars(ax, groups, series, value, labels=None):
    """Bars of value(group, name) for each group (x) and series name (one colour each); a None value
    leaves its bar out. The groups are labelled by `labels` (default: the groups themselves)."""
    width = 0.8 / max(1, len(series))
    for s, name in enumerate(series):
        xs, ys = [], []
        for g, group in enumerate(groups):
            v = value(group, name)
            if v is not None:
                xs.append(g + (s - (len(series) - 1) / 2) * width)
                ys.append(v)
        ax.bar(xs, ys, width, label=name)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups if labels is None else labels)


def save(fig, folder, name, dpi):
    """Writes the figure as folder/name, closes it and returns the path."""
    path = os.path.join(folder, name)
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path
