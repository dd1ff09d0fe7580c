"""`Result.plot`'s native charts: drawn by matplotlib from the run's exact counts (histogram.csv
and summary.json), as vector artists an axis can restyle, zoom and save at any size, instead of
the command line's PNG pasted as a picture.

Games that never end (outcome `loop`) and games stopped at the round cap (`capped`) have no
length of their own, so the histogram draws and marks the games that end and names the others;
the survival curve keeps them as still going, as the command line's chart does."""

import csv
import io
import math

# Outcomes of games that did not end: they have a round count (to the repeat, or the cap) but
# no length.
_UNENDED = ("loop", "capped")

# The command line's colours for the marks.
_MARKS = (("min", "#2e8b57"), ("median", "#d4880f"), ("mean", "#c62828"), ("max", "#7b2fa6"))


def _rows(result):
    """(rounds, games that end, games that did not) per row of histogram.csv, and the count of
    each outcome that did not end."""
    reader = csv.DictReader(io.StringIO(result.histogram_csv))
    rows, unended = [], {o: 0 for o in _UNENDED}
    for row in reader:
        stopped = {o: int(row.get(o) or 0) for o in _UNENDED}
        for o, n in stopped.items():
            unended[o] += n
        count = int(row["count"])
        rows.append((int(row["rounds"]), count - sum(stopped.values()), sum(stopped.values())))
    return rows, unended


def _marks(ended):
    """min, median (nearest rank, as summary.json's), mean and max of `ended` ((rounds, games)
    ascending, games > 0), or None without games."""
    n = sum(c for _, c in ended)
    if n == 0:
        return None
    median, cum = None, 0
    for r, c in ended:
        cum += c
        if 2 * cum >= n:
            median = r
            break
    mean = sum(r * c for r, c in ended) / n
    return {"min": ended[0][0], "median": median, "mean": mean, "max": ended[-1][0]}


def _width(span):
    """A bin width of 1, 2 or 5 × 10^k giving at most about 100 bins over `span` rounds."""
    if span <= 100:
        return 1
    step = 10 ** math.floor(math.log10(span / 100))
    for k in (1, 2, 5, 10):
        if span / (k * step) <= 100:
            return k * step
    return 10 * step


def _unended_text(unended):
    parts = []
    if unended["loop"]:
        parts.append(f"{unended['loop']:,} loop forever")
    if unended["capped"]:
        parts.append(f"{unended['capped']:,} were stopped at the round cap")
    return " and ".join(parts)


def _percent(share, _position=None):
    """A share on a log axis as the command line writes it: 100%, 10%, 1%, 0.1%, ..."""
    p = 100 * share
    if p <= 0:
        return ""
    digits = max(0, -math.floor(math.log10(p)))
    return f"{p:.{digits}f}%"


def _unit(result):
    """What the run's rounds count: summary.json's `unit` (`cards` for Beggar-my-neighbour,
    `turns` for Snap), `rounds` for a summary written before it."""
    return result.summary.get("unit", "rounds")


def _axis(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(10, 5.5))
    return ax


def histogram(result, ax=None):
    """Bars of the games that end, binned by rounds, with their min, median, mean and max as
    labelled vertical lines; the title names that population and the games left out."""
    from matplotlib.transforms import blended_transform_factory

    ax = _axis(ax)
    rows, unended = _rows(result)
    ended = [(r, e) for r, e, _ in rows if e > 0]
    total = sum(e for _, e in ended)
    s = result.summary
    title = f"{s['game']}: {s['games']:,} games, {total:,} of them end"
    left_out = _unended_text(unended)
    if left_out:
        title += f"\n{left_out}: not drawn; bars and marks are the games that end"
    ax.set_title(title, loc="left")
    marks = _marks(ended)
    if marks is None:
        return ax
    width = _width(marks["max"] - marks["min"] + 1)
    bins = {}
    for r, e in ended:
        lo = r // width * width
        bins[lo] = bins.get(lo, 0) + e
    lows = sorted(bins)
    ax.bar([lo - 0.5 for lo in lows], [bins[lo] for lo in lows], width=width, align="edge",
           color="#4c72b0", label=f"games that end ({total:,})")
    on_line = blended_transform_factory(ax.transData, ax.transAxes)
    lo, hi = ax.get_xlim()
    for k, (name, colour) in enumerate(_MARKS):
        x = marks[name]
        value = f"{x:,.2f}" if name == "mean" else f"{x:,}"
        # Named beside its line, not again in the legend.
        ax.axvline(x, color=colour, linewidth=1.5)
        # Beside the line, on the side with room: right of it in the axis's left part.
        right = x < lo + 0.75 * (hi - lo)
        ax.text(x, 0.97 - 0.05 * (k % 2), f" {name} {value} ", color=colour,
                transform=on_line, va="top", ha="left" if right else "right", fontsize="small")
    ax.set_xlabel(f"{_unit(result)} per game" + (f" (bins of {width:,})" if width > 1 else ""))
    ax.set_ylabel("games")
    ax.legend(loc="center right", fontsize="small")
    return ax


def survival(result, ax=None):
    """The share of games still going after t rounds, on a log axis: every game (those that
    never end stay), and where some never end, the games that end alone, with the fitted tail
    of summary.json's `tail`."""
    from matplotlib.ticker import FuncFormatter

    ax = _axis(ax)
    rows, unended = _rows(result)
    ended = [(r, e) for r, e, _ in rows if e > 0]
    games = sum(e + u for _, e, u in rows)
    total = sum(e for _, e in ended)
    s = result.summary
    unit = _unit(result)
    ax.set_title(f"{s['game']}: {s['games']:,} games, share still going after t {unit}",
                 loc="left")

    def steps(n):
        ts, shares, left = [0], [1.0], n
        for r, e in ended:
            left -= e
            if left > 0:
                ts.append(r)
                shares.append(left / n)
        return ts, shares

    if games == 0:
        return ax
    left_out = _unended_text(unended)
    label = f"all {games:,} games" + (f" ({left_out}: still going)" if left_out else "")
    ax.step(*steps(games), where="post", color="#1f77b4", linewidth=2, label=label)
    if left_out and total:
        ax.step(*steps(total), where="post", color="black", linewidth=0.8,
                label=f"the {total:,} games that end only")
    tail = s.get("tail")
    if tail and total and ended:
        # The fit is to the games that end: P(rounds > t | the game ends).
        beyond, start, end = tail["games"] / total, tail["from"], ended[-1][0]
        ts = [start + (end - start) * k / 100 for k in range(101)]
        check = tail.get("check")
        verdict = ""
        if check:
            p = "p < 0.0001" if check["p"] < 1e-4 else f"p {check['p']:.4f}"
            off = abs(check["far_observed"] / check["far_fitted"] - 1)
            word = ("exponential" if check["exponential"] else
                    "nearly exponential" if off < 0.1 else "NOT exponential")
            # As the command line says it: the share of all games still going far out (as the
            # curve of all games shows it), then the share of the fitted games beside the fit.
            fitted = (f"of the {tail['games']:,} fitted (beyond {start:,} {unit})"
                      f" {100 * check['far_observed']:.3g}%, the fit says"
                      f" {100 * check['far_fitted']:.3g}%")
            share = check.get("far_all")
            far = (f"{100 * share:.3g}% of all games still go; {fitted}" if share is not None
                   else f"{fitted}")
            verdict = "\n" + word + (
                f" (χ² {check['chi2']:.1f} on {check['df']} df, {p}):\nat {check['far_rounds']:,}"
                f" {unit} {far}")
        ax.plot(ts, [beyond * math.exp(-tail["rate"] * (t - start)) for t in ts], "--",
                color="#333333", label=f"fitted tail beyond {start:,} {unit}: e-folding "
                f"{tail['e_folding_rounds']:,.1f} {unit}{verdict}")
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(_percent))
    ax.set_xlabel(f"{unit} t")
    ax.set_ylabel(f"share of games longer than t {unit}")
    ax.legend(loc="lower left", fontsize="small")
    return ax


def by(result, ax=None):
    """Per group of a run that groups its games (`by=`, summary.json's `by`): player 1's share
    of wins (left axis, %) and the mean rounds (right axis), each with its 95% interval, as the
    command line's by.png draws them in two panels."""
    from matplotlib.ticker import MaxNLocator

    ax = _axis(ax)
    s = result.summary
    groups = s.get("by")
    if not groups:
        raise ValueError("plot('by'): this run has no groups (simulate with by=...)")
    unit = _unit(result)
    xs = [int(g) for g in groups]
    p1 = [groups[g]["shares"]["p1"] for g in groups]
    share = [100 * p["share"] for p in p1]
    ax.errorbar(xs, share, yerr=[[v - 100 * p["ci95"][0] for v, p in zip(share, p1)],
                                 [100 * p["ci95"][1] - v for v, p in zip(share, p1)]],
                fmt="o", color="#3260a0", capsize=3, label="player 1 wins (%)")
    ax.axhline(50, color="grey", linestyle="--", linewidth=0.8)
    ax.set_ylim(0, 100)
    ax.set_ylabel("player 1 wins (%)", color="#3260a0")
    meaning = s.get("grouping") or "group"
    ax.set_xlabel(meaning)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    means = [(x, groups[g]["rounds"]) for x, g in zip(xs, groups) if groups[g].get("rounds")]
    right = ax.twinx()
    if means:
        # A little right of the shares, so that the two bars of a group do not hide each other.
        mx = [x + 0.12 for x, _ in means]
        my = [d["mean"] for _, d in means]
        low = [d["mean"] - (d["ci95"] or [d["mean"]] * 2)[0] for _, d in means]
        high = [(d["ci95"] or [d["mean"]] * 2)[1] - d["mean"] for _, d in means]
        right.errorbar(mx, my, yerr=[low, high], fmt="s", color="#c8503c", capsize=3,
                       label=f"mean {unit}")
    right.set_ylabel(f"mean {unit}", color="#c8503c")
    ax.set_title(f"{s['game']}: {s['games']:,} games, per number of {meaning}", loc="left")
    handles = ax.get_legend_handles_labels()
    theirs = right.get_legend_handles_labels()
    ax.legend(handles[0] + theirs[0], handles[1] + theirs[1], loc="upper left",
              fontsize="small")
    return ax
