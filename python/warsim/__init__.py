"""warsim from Python: the same runs as the `warsim` program, by the same Rust engine in-process
(the GIL released while games play; Ctrl-C stops a run), with typed keyword arguments, results
whose files are the command line's to the byte, and charts drawn by the command line's code.

    >>> import warsim
    >>> r = warsim.simulate("war", games=100_000, pickup="p1-first")
    >>> r.summary["rounds"]["mean"]
    >>> r.histogram            # pandas DataFrame: rounds, count, one column per outcome
    >>> r                      # in a notebook: the chart, as histogram.png draws it

Rule options are keyword arguments named as on the command line with `_` for `-`
(`war_down=1`, `pickup="p1-first"`); `warsim.games()` lists each game's, with their help.
Bad input raises ValueError naming the argument; a folder that does not exist,
FileNotFoundError; a folder the system will not let warsim write, the OSError of its errno
(PermissionError); a required argument left out, TypeError.
"""

import csv
import functools
import inspect
import io
import json
import sys

from . import _warsim

__version__ = _warsim.__version__
__all__ = [
    "simulate", "exact", "merge", "load", "resume", "replay", "sweep", "compare", "play",
    "command",
    "games",
    "Result", "Document", "show_progress",
]


show_progress = None
"""Whether a call that runs for more than two seconds shows its progress as a line on stderr
(games done of all, elapsed, left): None (the default) where a person sees it, in a terminal or
a notebook; True always; False never."""


def _clock(seconds):
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02}:{seconds % 60:02}"


def _show_progress(done, total, seconds, finished):
    """Draws the progress line of a long call (the extension calls it between its checks for
    Ctrl-C), or clears it when the call has `finished`."""
    shown = show_progress
    if shown is None:
        shown = sys.stderr.isatty() or "ipykernel" in sys.modules
    if not shown:
        return
    if finished:
        sys.stderr.write("\r" + " " * 79 + "\r")
    else:
        share = done / total if total else 0.0
        left = f", {_clock(seconds * (total - done) / done)} left" if done else ""
        bar = "#" * int(20 * share)
        sys.stderr.write(
            f"\r[{bar:<20}] {done:,} of {total:,} games ({100 * share:.1f}%), "
            f"{_clock(seconds)}{left}  "
        )
    sys.stderr.flush()


def _table(text):
    """A CSV file's text as a pandas DataFrame, or a dict of numpy arrays without pandas."""
    try:
        import pandas as pd
    except ImportError:
        import numpy as np

        rows = list(csv.reader(io.StringIO(text)))
        return {name: np.array([int(r[i]) for r in rows[1:]]) for i, name in enumerate(rows[0])}
    return pd.read_csv(io.StringIO(text))


def _pandas(method):
    """pandas, which `method` (a frame's maker) needs: an optional dependency of the package."""
    try:
        import pandas
    except ImportError:
        raise ImportError(
            f"{method} returns a pandas DataFrame and needs pandas, which is not installed: "
            "pip install pandas (or pip install 'warsim[notebook]')"
        ) from None
    return pandas


def _frame(text, method):
    """A CSV file's text (summary.csv, sweep.csv, compare.csv) as a pandas DataFrame."""
    return _pandas(method).read_csv(io.StringIO(text))


class Document(dict):
    """A document a call made, as a dict (`sweep` its sweep.json, `compare` its compare.json),
    with `out`, the folder written (None for a `compare` without `out=`, which writes nothing),
    and `to_frame()`, the document's table (sweep.csv: one row per rule set; compare.csv: one
    row per pair of runs) as a pandas DataFrame."""

    def __init__(self, doc, table, out):
        super().__init__(doc)
        self._table = table
        self.out = out

    def to_frame(self):
        """The table written beside the document (sweep.csv, compare.csv), the command line's
        file, as a pandas DataFrame (pandas is optional: ImportError without it)."""
        return _frame(self._table, "to_frame()")


def _document(value):
    """The extension's (document, table, folder) as a Document."""
    return Document(*value)


class Result:
    """What `simulate`, `exact`, `merge`, `load` and `resume` return. A run of games:
    `summary` (summary.json as a dict), `histogram` (histogram.csv as a DataFrame: rounds,
    count and a column per outcome), `histogram_csv` (its text, the command line's byte for
    byte), `summary_frame()` (summary.csv as a DataFrame), `out` (the folder written, or None),
    `charts` (their names), and the charts as the command line draws them: `to_png(chart)`
    bytes, `to_svg(chart)` text, shown by a notebook (`_repr_png_`); `plot()` draws them with
    matplotlib from the run's counts. `document` names the file `summary` is: "summary.json",
    or, for an answer of `exact` solved without playing, "chain.json" or "flawless.json" (then
    there is no histogram and no chart)."""

    def __init__(self, run):
        self._run = run
        self.summary = json.loads(run.summary_json)
        self.document = "summary.json"
        self.histogram_csv = run.histogram_csv
        self.out = run.out
        self.charts = run.charts

    @classmethod
    def _solved(cls, value):
        """The extension's (file, document, folder) of an answer solved without playing."""
        self = cls.__new__(cls)
        self._run = None
        self.document, self.summary, self.out = value
        self.histogram_csv = None
        self.charts = []
        return self

    def _played(self, what):
        if self._run is None:
            raise ValueError(f"{what}: {self.document} is an answer solved without playing, "
                             "which has no histogram and no chart; its figures are .summary")
        return self._run

    def summary_frame(self):
        """The run's figures as a pandas DataFrame: summary.csv, the command line's file (one
        row, then one per group of `by=`), or, for an answer solved without playing, its
        document's figures in one row. pandas is optional: ImportError without it."""
        if self._run is None:
            doc = {k: v for k, v in self.summary.items() if k != "provenance"}
            return _pandas("summary_frame()").json_normalize(doc)
        return _frame(self._run.summary_csv, "summary_frame()")

    @functools.cached_property
    def histogram(self):
        return None if self.histogram_csv is None else _table(self.histogram_csv)

    def to_png(self, chart="histogram"):
        """Chart `chart` ("histogram", "survival", "by") as PNG bytes."""
        return self._played("to_png()").to_png(chart)

    def to_svg(self, chart="histogram"):
        """Chart `chart` as SVG text."""
        return self._played("to_svg()").to_svg(chart)

    def _repr_png_(self):
        return None if self._run is None else self.to_png()

    def plot(self, chart="histogram", ax=None):
        """Draws chart `chart` on a matplotlib axis (a new figure when `ax` is None) and returns
        the axis. "histogram" and "survival" are drawn natively, as vector artists, from the
        run's exact counts: "histogram" as bars of the games that end, binned by rounds, with
        their min, median, mean and max as labelled vertical lines, its title naming that
        population and how many games loop or were capped (those are not drawn); "survival" as
        the share of games still going after t rounds on a log axis (games that never end stay
        in it; the games that end alone and the fitted tail beside it); "by" (a run with
        `by=`) as player 1's share of wins and the mean rounds per group, each with its 95%
        interval, on two y axes. Rounds are named as the game counts them (summary.json's
        `unit`: cards, turns). Any other chart of the run is the command line's PNG shown as an
        image."""
        from . import _charts

        self._played("plot()")
        if chart == "histogram":
            return _charts.histogram(self, ax)
        if chart == "survival":
            return _charts.survival(self, ax)
        if chart == "by":
            return _charts.by(self, ax)
        import matplotlib.image as mpimg
        import matplotlib.pyplot as plt

        image = mpimg.imread(io.BytesIO(self.to_png(chart)), format="png")
        if ax is None:
            height, width = image.shape[:2]
            _, ax = plt.subplots(figsize=(width / 100, height / 100), dpi=100)
        ax.imshow(image)
        ax.set_axis_off()
        return ax

    def __repr__(self):
        # Where some games never end, the mean a reader means is that of the games that end,
        # named; the terminal leads with it too.
        s = self.summary
        if self._run is None:
            said = (f"probability {s['probability']}" if "probability" in s
                    else f"mean {s['mean_rounds']:,.3f} rounds")
            return f"<warsim.Result {s['game']}: {self.document}, {said}>"
        unit = s.get("unit", "rounds")
        ended = s.get("finished_rounds")
        if ended and ended["n"] < s["games"]:
            return (f"<warsim.Result {s['game']}: {s['games']:,} games, mean {ended['mean']:,.3f}"
                    f" {unit} of the {ended['n']:,} games that end>")
        mean = s["rounds"]["mean"] if s.get("rounds") else float("nan")
        return f"<warsim.Result {s['game']}: {s['games']:,} games, mean {mean:,.3f} {unit}>"


def _wrapped(value):
    """A value of the extension as the package returns it: a Run as a Result, an answer
    solved without playing (file, document, folder) as a Result too, a document with its
    table (document, table, folder) as a Document; anything else (a dict) as it is."""
    if isinstance(value, _warsim.Run):
        return Result(value)
    if isinstance(value, tuple) and isinstance(value[0], str):
        return Result._solved(value)
    if isinstance(value, tuple):
        return _document(value)
    return value


def _returns_result(function):
    """`function` of the extension, its value wrapped by `_wrapped`."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        return _wrapped(function(*args, **kwargs))

    return wrapper


def _signed(function, command, own=(), required=()):
    """`function` (the extension's `simulate`, `exact` or `sweep`, which take their run options
    as keyword arguments) with the signature `help()` and editors show: the game, the run options
    that `_warsim.run_options(command)` lists (the command line's flags that are fields of the run
    configuration) with their defaults, the call's `own` keyword parameters, then the rule
    settings. A run option added to the command line is listed here with nothing else to edit."""
    P = inspect.Parameter
    params = [P("game", P.POSITIONAL_ONLY)]
    for o in _warsim.run_options(command):
        default = P.empty if o["name"] in required else o["default"]
        params.append(P(o["name"], P.KEYWORD_ONLY, default=default))
    params += [P(name, P.KEYWORD_ONLY, default=default) for name, default in own]
    params.append(P("rules" if command != "sweep" else "settings", P.VAR_KEYWORD))
    options = "\n".join(f"    {o['name']}: {o['help']}" for o in _warsim.run_options(command))
    wrapper = _returns_result(function)
    wrapper.__signature__ = inspect.Signature(params)
    wrapper.__doc__ = f"{function.__doc__}\n\nRun options:\n{options}"
    return wrapper


simulate = _signed(_warsim.simulate, "simulate")
exact = _signed(_warsim.exact, "exact", own=[("flawless", False)])
merge = _returns_result(_warsim.merge)
load = _returns_result(_warsim.load)
resume = _returns_result(_warsim.resume)
replay = _warsim.replay
sweep = _signed(_warsim.sweep, "sweep", own=[("max_rule_sets", None)], required=("out",))
compare = _returns_result(_warsim.compare)
play = _warsim.play
search = _warsim.search
command = _warsim.command
games = _warsim.games
