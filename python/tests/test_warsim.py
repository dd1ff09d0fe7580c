"""The Python package against the command line: same seed, same histogram, byte for byte, for
every game; play, merge, sweep, exact, compare; errors."""

import json
import os
import shutil
import subprocess

import pytest

import warsim

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("WARSIM", os.path.join(ROOT, "target", "release", "warsim"))



def cli(*argv):
    return subprocess.run([BINARY, *map(str, argv)], check=True, capture_output=True, text=True).stdout


def _example(args):
    """A game's example rule options (`--ranks 3 --suits 4`) as keyword arguments."""
    return {args[i][2:].replace("-", "_"): args[i + 1] for i in range(0, len(args), 2)}


# Every game the binary lists, each with its example rule set: no list of games is kept here.
GAMES = {g["name"]: _example(g["example"]) for g in json.loads(cli("games", "--json"))}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_seed_same_histogram_as_the_command_line(game, tmp_path):
    options = GAMES[game]
    r = warsim.simulate(game, games=3000, seed=11, threads=1, **options)
    out = tmp_path / "cli"
    cli("simulate", game, "--games", 3000, "--seed", 11, *warsim._options(options), "--out", out)
    assert r.histogram_csv == (out / "histogram.csv").read_text()
    want = json.loads((out / "summary.json").read_text())
    for key in ("game", "rules", "games", "seed", "outcomes", "rounds", "longest_game"):
        assert r.summary[key] == want[key], key
    assert int(r.histogram["count"].sum()) == 3000


def test_play_returns_the_report_and_the_trace():
    report = warsim.play("war", seed=3, game=7)
    assert report["outcome"] in ("p1", "p2", "draw") and report["rounds"] > 0
    assert report == json.loads(cli("play", "war", "--seed", 3, "--game", 7, "--json"))
    traced = warsim.play("snap", "abba", "abca", trace=True)
    assert traced["outcome"] == "p2" and traced["rounds"] == 13 and len(traced["trace"]) > 13
    assert warsim.play("rps", "r", "r", "s")["players"] == [1, 2]


def test_merge_of_shards_is_the_whole_run(tmp_path):
    shards = []
    for k in range(3):
        d = tmp_path / f"s{k}"
        cli("simulate", "war", "--games", 6000, "--seed", 4, "--shard", f"{k}/3", "--out", d)
        shards.append(d)
    merged = warsim.merge(shards)
    whole = warsim.simulate("war", games=6000, seed=4)
    assert merged.histogram_csv == whole.histogram_csv
    assert merged.summary["rounds"] == whole.summary["rounds"]


def test_sweep_exact_and_compare(tmp_path):
    s = warsim.sweep("war", tmp_path / "sw", war_down=[1, 3], pickup="winner-first", games=2000)
    assert [r["settings"]["war-down"] for r in s["rule_sets"]] == ["1", "3"]
    e = warsim.exact("war", ranks=3, suits=4, pickup="p1-first")
    assert e.summary["exact"]["deals"] == 34650
    chain = warsim.exact("war", ranks=2, suits=2)
    assert abs(chain["mean_rounds"] - 8 / 3) < 1e-12
    c = warsim.compare([tmp_path / "sw" / "war-down-1_pickup-winner-first",
                        tmp_path / "sw" / "war-down-3_pickup-winner-first"], tmp_path / "cmp")
    assert c["ks"][0]["d"] > 0


def test_rule_errors_raise_value_error_with_the_command_line_message():
    with pytest.raises(ValueError, match="--pickup"):
        warsim.simulate("war", games=10, pickup="sorted")
    with pytest.raises(ValueError, match="--honor 0"):
        warsim.simulate("war", games=10, honor=0)
    with pytest.raises(ValueError, match="--deal"):
        warsim.play("war", deal="1 2/3 4", game=3)


def test_plot_draws_the_marks():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    r = warsim.simulate("rps", games=2000, players=3)
    ax = r.plot()
    xs = sorted(line.get_xdata()[0] for line in ax.get_lines())
    rounds = r.summary["rounds"]
    assert xs == sorted([rounds["min"], rounds["median"], rounds["mean"], rounds["max"]])
