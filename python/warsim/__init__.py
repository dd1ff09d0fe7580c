"""warsim from Python: the same commands as the `warsim` program, run in-process by its Rust
engine (the GIL is released while a run plays), with results as pandas DataFrames (numpy arrays
when pandas is absent) and matplotlib charts.

    >>> import warsim
    >>> r = warsim.simulate("war", games=10_000)
    >>> r.summary["rounds"]["mean"]

Rule options are keyword arguments named as on the command line, with `_` for `-`
(`war_down=1`, `pickup="p1-first"`, `p1_cards="13 13 13 13"`); True passes a flag. A rule
error raises ValueError with the command line's one-line message.
"""

import csv
import io
import json
import os
import tempfile

from . import _warsim

__version__ = _warsim.__version__
__all__ = ["simulate", "play", "merge", "sweep", "exact", "compare", "Result", "command"]


def command(*argv):
    """Runs `warsim ARGV...` in-process and returns what it printed."""
    return _warsim.run_command([str(a) for a in argv])


def _options(options):
    """Keyword options as command-line arguments: `war_down=1` -> `--war-down 1`."""
    args = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        flag = "--" + key.replace("_", "-")
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            args += [flag, ",".join(str(v) for v in value)]
        else:
            args += [flag, str(value)]
    return args


def _table(text):
    """A CSV file's text as a pandas DataFrame, or a dict of numpy arrays without pandas."""
    try:
        import pandas as pd
    except ImportError:
        import numpy as np

        rows = list(csv.reader(io.StringIO(text)))
        return {name: np.array([int(r[i]) for r in rows[1:]]) for i, name in enumerate(rows[0])}
    return pd.read_csv(io.StringIO(text))


class Result:
    """A run: `summary` (the dict of summary.json), `histogram` (rounds, count and one column
    per outcome), `histogram_csv` (histogram.csv's text, byte for byte the command line's), and
    `files` (every file the run wrote, name -> text, for the CSV and JSON ones)."""

    def __init__(self, directory):
        self.files = {}
        for name in sorted(os.listdir(directory)):
            if name.endswith((".csv", ".json", ".md")):
                with open(os.path.join(directory, name), encoding="utf-8") as f:
                    self.files[name] = f.read()
        self.summary = json.loads(self.files["summary.json"])
        self.histogram_csv = self.files.get("histogram.csv", "")
        self.histogram = _table(self.histogram_csv) if self.histogram_csv else None

    def __repr__(self):
        s = self.summary
        return f"<warsim.Result {s['game']}: {s['games']} games, mean {s['rounds']['mean']:.3f} rounds>"

    def plot(self, ax=None):
        """The distribution of rounds on a matplotlib axis, with mean, median, min and max
        marked as histogram.png marks them (at their values: a bar is centred on its round
        count). Returns the axis."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(10, 5))
        h = self.histogram
        rounds = list(h["rounds"])
        counts = list(h["count"])
        ax.bar(rounds, counts, width=1.0, color="#6487be", align="center")
        r = self.summary["rounds"]
        marks = [("min", r["min"], "#1e8c3c"), ("median", r["median"], "#c87800"),
                 ("mean", r["mean"], "#c81e1e"), ("max", r["max"], "#782aa0")]
        for label, x, colour in marks:
            ax.axvline(x, color=colour, lw=2, label=f"{label} {x:,.2f}" if label == "mean" else f"{label} {x:,}")
        ax.set_xlabel("rounds per game")
        ax.set_ylabel("games")
        ax.set_title(f"{self.summary['game']}: {self.summary['games']:,} games\n{self.summary['description']}", fontsize=10)
        ax.legend()
        return ax


def _run_into(argv):
    """Runs a command that writes an output set, into a temporary directory, and reads it."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        command(*argv, "--out", out, "--json")
        return Result(out)


def simulate(game, games=1_000_000, seed=0, threads=None, **options):
    """`warsim simulate GAME`: plays `games` games; returns a Result."""
    argv = ["simulate", game, "--games", games, "--seed", seed] + _options(options)
    if threads is not None:
        argv += ["--threads", threads]
    return _run_into(argv)


def exact(game, threads=None, **options):
    """`warsim exact GAME`: every distinct deal once (a Result), or for War's shuffled pickup
    the solved Markov chain (a dict, chain.json)."""
    argv = ["exact", game] + _options(options)
    if threads is not None:
        argv += ["--threads", threads]
    text = command(*argv, "--json")
    data = json.loads(text)
    if "states" in data:
        return data
    return _run_into(argv)


def play(game, /, *args, trace=False, **options):
    """`warsim play GAME`: one game (War: `seed=`, `game=`, `deal=` or `from_=`; snap, shotgun
    and rps: their piles, moves or throws as positional arguments). Returns the JSON report as a
    dict, with the trace lines under "trace" when `trace=True`."""
    if "from_" in options:
        options["from"] = options.pop("from_")
    argv = ["play", game] + [str(a) for a in args] + _options(options) + ["--json"]
    # (`game` is positional-only, so War's `game=I` option reaches the command line.)
    if trace:
        argv.append("--trace")
    return json.loads(command(*argv))


def merge(dirs, out=None):
    """`warsim merge`: adds the shard outputs in `dirs` exactly; returns the merged Result
    (written into `out` when given, else into a temporary directory)."""
    dirs = [str(d) for d in dirs]
    if out is not None:
        command("merge", *dirs, "--out", out, "--json")
        return Result(out)
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "merged")
        command("merge", *dirs, "--out", target, "--json")
        return Result(target)


def sweep(game, out, **options):
    """`warsim sweep GAME`: every combination of the listed settings (a list, or "all", per
    option) written into `out`; returns sweep.json as a dict."""
    return json.loads(command("sweep", game, *_options(options), "--out", out, "--json"))


def compare(dirs, out):
    """`warsim compare`: survival curves and pairwise KS tests of the runs in `dirs`, written
    into `out`; returns compare.json as a dict."""
    return json.loads(command("compare", *[str(d) for d in dirs], "--out", out, "--json"))
