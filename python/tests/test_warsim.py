"""The Python package against the command line: same seed, same files, byte for byte, for every
game; typed arguments and their errors; Ctrl-C; the GIL; charts; stubs."""

import json
import os
import subprocess
import sys
import threading
import time

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
LISTED = json.loads(cli("games", "--json"))
GAMES = {g["name"]: _example(g["example"]) for g in LISTED}
LISTED_ARGS = {g["name"]: g["example"] for g in LISTED}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_seed_same_files_as_the_command_line(game, tmp_path):
    options = GAMES[game]
    r = warsim.simulate(game, games=3000, seed=11, threads=1, out=tmp_path / "py", **options)
    out = tmp_path / "cli"
    cli("simulate", game, "--games", 3000, "--seed", 11, *LISTED_ARGS[game], "--out", out)
    for name in ("histogram.csv", "summary.csv", "histogram.png", "survival.png"):
        assert (tmp_path / "py" / name).read_bytes() == (out / name).read_bytes(), name
    assert r.histogram_csv == (out / "histogram.csv").read_text()
    want = json.loads((out / "summary.json").read_text())
    for key in ("game", "rules", "games", "seed", "outcomes", "rounds", "longest_game"):
        assert r.summary[key] == want[key], key
    assert int(r.histogram["count"].sum()) == 3000
    # The charts Python draws are the command line's files, byte for byte.
    assert r.to_png() == (out / "histogram.png").read_bytes()
    assert r.to_png("survival") == (out / "survival.png").read_bytes()
    assert r._repr_png_()[:8] == b"\x89PNG\r\n\x1a\n"
    assert r.to_svg().startswith("<svg")


def test_without_out_no_file_is_made(tmp_path, monkeypatch):
    # A run without out= is a value in memory: its summary, histogram and charts come from it,
    # and the temporary folder stays empty and untouched.
    empty = tmp_path / "tmp"
    empty.mkdir()
    touched = empty.stat().st_mtime_ns
    monkeypatch.setenv("TMPDIR", str(empty))
    r = warsim.simulate("shotgun", games=2000)
    assert r.out is None and r.summary["games"] == 2000
    assert int(r.histogram["count"].sum()) == 2000
    assert r.to_png()[:8] == b"\x89PNG\r\n\x1a\n" and r.to_svg("survival").startswith("<svg")
    # exact's answers, played or solved, and a merge of shards are values too.
    e = warsim.exact("war", ranks=3, suits=2, pickup="p1-first")
    assert e.out is None and e.summary["exact"]["deals"] == 90
    assert abs(warsim.exact("war", ranks=2, suits=2).summary["mean_rounds"] - 8 / 3) < 1e-12
    assert warsim.exact("war", flawless=True, ranks=4, suits=2).summary["probability"] == "1/14"
    assert list(empty.iterdir()) == [] and empty.stat().st_mtime_ns == touched
    shards = [warsim.simulate("shotgun", games=2000, shard=f"{k}/2", out=tmp_path / f"s{k}").out
              for k in range(2)]
    assert warsim.merge(shards).histogram_csv == r.histogram_csv
    assert list(empty.iterdir()) == [] and empty.stat().st_mtime_ns == touched


def test_defaults_are_the_command_line_defaults():
    r = warsim.simulate("shotgun", games=None, seed=None)
    assert r.summary["games"] == 1_000_000 and r.summary["seed"] == 0
    assert r.histogram_csv == warsim.simulate("shotgun").histogram_csv


@pytest.mark.parametrize("kwargs, names", [
    (dict(games=-5), "games=-5"),
    (dict(games=0), "games=0"),
    (dict(games=1.5), "games=1.5"),
    (dict(games=True), "games=True"),
    (dict(games="1,5"), "games='1,5'"),
    (dict(precision=1, max_games="1,5e3"), "max_games='1,5e3'"),
    (dict(threads=0), "threads=0"),
    (dict(seed="x"), "seed='x'"),
    (dict(shard="3/2"), "shard='3/2'"),
    (dict(precision=-1), "precision=-1"),
    (dict(max_hours=0), "max_hours=0"),
    (dict(pickup="sorted"), "pickup"),
    (dict(war_down="x"), "war_down"),
    (dict(honor=0), "honor"),
    (dict(detect_loops=1), "detect_loops"),
    (dict(foo=1), "no option foo"),
    (dict(out=""), "out is empty"),
])
def test_bad_arguments_raise_value_error_naming_the_parameter(kwargs, names):
    with pytest.raises(ValueError) as e:
        warsim.simulate("war", **{"games": 10, **kwargs})
    message = str(e.value)
    assert names in message, message
    assert "--" not in message, f"names a command-line flag: {message}"


def test_an_unknown_game_lists_the_games():
    with pytest.raises(ValueError, match="war, snap"):
        warsim.simulate("chess", games=10)


def test_a_long_run_is_refused_with_its_estimate_and_max_hours_lifts_the_bound():
    with pytest.raises(ValueError, match="max_hours"):
        warsim.simulate("war", games=10**12)
    with pytest.raises(ValueError, match="max_hours=0"):
        warsim.simulate("war", games=10, max_hours=0)


def _seconds_to_stop(call, after):
    """Runs `call` (one Python statement) in a fresh interpreter, sends it SIGINT after `after`
    seconds, and returns how long it took to raise KeyboardInterrupt after the signal."""
    script = f"""
import os, signal, threading, time, warsim
# A runner that started this suite with SIGINT ignored (nohup, a background job) passes that
# on, and Python then leaves SIGINT ignored: the handler a terminal's Python has, restored.
signal.signal(signal.SIGINT, signal.default_int_handler)
sent = []
def interrupt():
    sent.append(time.monotonic())
    os.kill(os.getpid(), signal.SIGINT)
threading.Timer({after}, interrupt).start()
try:
    {call}
    print("finished")
except KeyboardInterrupt:
    print(time.monotonic() - sent[0])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() != "finished", "the call was not interrupted"
    return float(done.stdout)


def test_ctrl_c_stops_a_long_run_within_a_second_and_without_out_writes_nothing(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    call = 'warsim.simulate("war", games=10**9, max_hours=float("inf"))'
    assert _seconds_to_stop(call, 1.0) < 1.0
    assert os.listdir(tmp_path) == [], "nothing written"


def test_ctrl_c_writes_the_games_finished_into_out_and_resume_plays_the_rest(tmp_path):
    """A KeyboardInterrupt during simulate(..., out=DIR) writes the games finished so far into
    DIR as the command line's SIGINT does, a stopped run, then raises, saying so; resume plays
    the rest: the run played in one go. The interrupt comes 0.2 s after the run's staging
    folder appears (the run then plays); one that came before its games (the folder's probe
    write held up) writes nothing and is tried again."""
    out = tmp_path / "run"
    script = f"""
import glob, os, signal, threading, time, warsim
# A runner that started this suite with SIGINT ignored (nohup, a background job) passes that
# on, and Python then leaves SIGINT ignored: the handler a terminal's Python has, restored.
signal.signal(signal.SIGINT, signal.default_int_handler)
out = {str(out)!r}
staged = os.path.join({str(tmp_path)!r}, ".run.warsim-staging-*")
def interrupt():
    while not glob.glob(staged):
        time.sleep(0.002)
    time.sleep(0.2)
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=interrupt, daemon=True).start()
try:
    warsim.simulate("war", games=2_000_000, seed=9, threads=2, max_hours=float("inf"), out=out)
    print("finished")
except KeyboardInterrupt as e:
    print(e)
"""
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        said = done.stdout.strip()
        if out.exists():
            break
        assert "warsim.resume(" not in said, said
    stopped = warsim.load(out)
    games = stopped.summary["games"]
    assert stopped.summary["run"]["stopped"] is True and 0 < games < 2_000_000, said
    assert said.startswith(f"interrupted: the run stopped after {games:,} of the 2,000,000 games")
    assert "warsim.resume(" in said
    r = warsim.resume(out)
    whole = warsim.simulate("war", games=2_000_000, seed=9)
    assert r.histogram_csv == whole.histogram_csv and r.summary["games"] == 2_000_000
    assert sorted(os.listdir(tmp_path)) == ["run"], "no staging or lock left beside out="


def test_ctrl_c_stops_a_game_of_a_far_cap_and_a_long_markov_chain_within_a_second():
    # A game that loops, with no loop detection and a cap of 10^12 rounds, plays for hours, and
    # the chain of a 12-card deck takes over a minute: both stop at Ctrl-C.
    play = (
        'warsim.play("war", ranks=6, suits=2, pickup="p1-first", detect_loops="off", '
        "max_rounds=10**12)"
    )
    # Up to 3 tries each: a loaded machine can hold the stop past a second once, while a call
    # that looked at no cancel would miss it every time.
    for call in (play, 'warsim.exact("war", ranks=3, suits=4)'):
        took = [_seconds_to_stop(call, 1.0)]
        while took[-1] >= 1.0 and len(took) < 3:
            took.append(_seconds_to_stop(call, 1.0))
        assert min(took) < 1.0, (call, took)


def test_ctrl_c_while_a_run_is_written_never_loses_the_earlier_run(tmp_path):
    """Interrupts at moments spread over a whole call, file writing and commit included: a
    KeyboardInterrupt leaves the earlier run in out= whole, unless it says the new run was
    written, in full or stopped part way; a call that finished wrote the new one."""
    out = tmp_path / "o"
    script = f"""
import linecache, os, signal, threading, time, warsim
# A runner that started this suite with SIGINT ignored (nohup, a background job) passes that
# on, and Python then leaves SIGINT ignored: the handler a terminal's Python has, restored.
signal.signal(signal.SIGINT, signal.default_int_handler)
out = {str(out)!r}
def earlier():
    warsim.simulate("war", games=1000, seed=1, out=out)
    return open(out + "/summary.json").read()
started = time.monotonic()
warsim.simulate("war", games=100_000, seed=2, out=out, svg=True)
whole = time.monotonic() - started
for k in range(1, 13):
    old = earlier()
    timer = threading.Timer(whole * k / 12, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        warsim.simulate("war", games=100_000, seed=2, out=out, svg=True)
        said = "finished"
    except KeyboardInterrupt as e:
        # Raised inside the call (at the line that calls the extension), or by Python itself
        # once the call had returned (in the package's wrapper): then the run was written.
        tb = e.__traceback__
        while tb.tb_next:
            tb = tb.tb_next
        line = linecache.getline(tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        inside = "function(*args, **kwargs)" in line
        if "written in full" in str(e):
            said = "written"
        elif "warsim.resume(" in str(e):
            said = "stopped"
        else:
            said = "interrupted" if inside else "after"
    try:  # an interrupt that came after the call is not the call's
        timer.join()
        time.sleep(0.1)
    except KeyboardInterrupt:
        pass
    now = open(out + "/summary.json").read()
    doc = __import__("json").loads(now)
    seed, stopped = doc["seed"], doc["run"].get("stopped", False)
    if said == "interrupted":
        assert now == old, (k, said, seed)
    else:
        assert seed == 2 and stopped == (said == "stopped"), (k, said, seed)
    print(said)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    said = done.stdout.split()
    assert len(said) == 12 and {"interrupted", "stopped"} & set(said), said
    assert sorted(os.listdir(tmp_path)) == ["o"], "no staging or lock left beside out="


def test_scratch_files_are_private_and_never_follow_a_planted_link(tmp_path, monkeypatch):
    """Charts as bytes and runs without out= go through folders no other user can guess or
    enter: links planted at every name the old scheme would use are left alone."""
    tmp = tmp_path / "tmp"
    victim = tmp_path / "victim"
    tmp.mkdir()
    victim.mkdir()
    (victim / "precious.png").write_bytes(b"mine")
    pid = os.getpid()
    for n in range(64):
        os.symlink(victim / "precious.png", tmp / f"warsim-chart-{pid}-{n}.png")
        os.symlink(victim, tmp / f"warsim-py-{pid}-{n}")
    planted = set(os.listdir(tmp))
    monkeypatch.setenv("TMPDIR", str(tmp))
    r = warsim.simulate("shotgun", games=500)
    assert r.to_png()[:8] == b"\x89PNG\r\n\x1a\n"
    assert r.to_svg("survival").startswith("<svg")
    assert (victim / "precious.png").read_bytes() == b"mine"
    assert os.listdir(victim) == ["precious.png"]
    assert set(os.listdir(tmp)) == planted, "nothing left behind"


def test_ctrl_c_stops_the_flawless_computation_at_once():
    assert _seconds_to_stop('warsim.exact("war", flawless=True, ranks=16, suits=256)', 0.5) < 1.0


def test_a_run_from_python_records_the_command_that_makes_it_again(tmp_path):
    import shlex

    r = warsim.simulate("war", games=2000, seed=3, pickup="p1-first", out=tmp_path / "py")
    command = r.summary["provenance"]["command"]
    argv = shlex.split(command)
    assert argv[:3] == ["warsim", "simulate", "war"], command
    i = argv.index("--out")
    argv[i + 1] = str(tmp_path / "again")
    cli(*argv[1:])
    assert (tmp_path / "again" / "histogram.csv").read_bytes() == (tmp_path / "py" / "histogram.csv").read_bytes()
    scratch = warsim.simulate("shotgun", games=10)
    assert "--out" not in scratch.summary["provenance"]["command"]


def test_other_python_threads_run_while_games_play():
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    warsim.simulate("war", games=300_000, threads=1)
    stop.set()
    t.join()
    assert len(ticks) > 20, len(ticks)


def test_command_returns_the_text_of_help_version_completions_and_manual():
    assert warsim.command("--version").strip() == cli("--version").strip()
    assert warsim.command("completions", "bash") == cli("completions", "bash")
    assert warsim.command("manpage") == cli("manpage")
    assert warsim.command("simulate", "war", "--help") == cli("simulate", "war", "--help")
    assert json.loads(warsim.command("games", "--json")) == LISTED
    with pytest.raises(ValueError, match="warsim.simulate"):
        warsim.command("simulate", "war")
    with pytest.raises(ValueError, match="unrecognized subcommand"):
        warsim.command("chess")


def test_play_returns_the_report_and_the_trace():
    report = warsim.play("war", seed=3, game=7)
    assert report["outcome"] in ("p1", "p2", "draw") and report["rounds"] > 0
    assert report == json.loads(cli("play", "war", "--seed", 3, "--game", 7, "--json"))
    traced = warsim.play("snap", "abba", "abca", trace=True)
    assert traced == json.loads(cli("play", "snap", "abba", "abca", "--trace", "--json"))
    assert traced["outcome"] == "p2" and traced["rounds"] == 13 and len(traced["trace"]) > 13
    assert warsim.play("rps", "r", "r", "s")["players"] == [1, 2]
    with pytest.raises(ValueError, match="deal"):
        warsim.play("war", deal="1 2/3 4", game=3)


def test_play_from_a_run_folder(tmp_path):
    r = warsim.simulate("war", games=2000, seed=5, out=tmp_path / "r")
    report = warsim.play("war", from_=r.out)
    assert report["rounds"] == r.summary["rounds"]["max"]


def test_merge_of_shards_is_the_whole_run(tmp_path):
    shards = [warsim.simulate("war", games=6000, seed=4, shard=f"{k}/3", out=tmp_path / f"s{k}").out
              for k in range(2)]
    cli("simulate", "war", "--games", 6000, "--seed", 4, "--shard", "2/3", "--out", tmp_path / "s2")
    shards.append(tmp_path / "s2")
    merged = warsim.merge(shards)
    whole = warsim.simulate("war", games=6000, seed=4)
    assert merged.histogram_csv == whole.histogram_csv
    assert merged.summary["rounds"] == whole.summary["rounds"]
    kept = warsim.merge(shards, out=tmp_path / "m")
    assert warsim.load(kept.out).histogram_csv == whole.histogram_csv


def test_exact_gives_the_run_or_the_chain_and_writes_out(tmp_path):
    e = warsim.exact("war", ranks=3, suits=4, pickup="p1-first", out=tmp_path / "e")
    assert e.summary["exact"]["deals"] == 34650
    assert (tmp_path / "e" / "histogram.csv").read_text() == e.histogram_csv
    cli("exact", "war", "--ranks", 3, "--suits", 4, "--pickup", "p1-first", "--out", tmp_path / "c")
    assert (tmp_path / "c" / "histogram.csv").read_text() == e.histogram_csv
    chain = warsim.exact("war", ranks=2, suits=2, out=tmp_path / "chain")
    assert abs(chain.summary["mean_rounds"] - 8 / 3) < 1e-12
    assert json.loads((tmp_path / "chain" / "chain.json").read_text()) == chain.summary
    flawless = warsim.exact("war", flawless=True, ranks=4, suits=2)
    assert flawless.summary["probability"] == "1/14"
    assert round(warsim.exact("war", flawless=True).summary["one_in"]) == 159_620_172


def test_out_never_replaces_a_folder_of_the_users(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep")
    with pytest.raises(ValueError, match="notes.txt"):
        warsim.simulate("shotgun", games=100, out=mine)
    assert (mine / "notes.txt").read_text() == "keep"


def test_sweep_and_compare(tmp_path):
    s = warsim.sweep("war", out=tmp_path / "sw", war_down=[1, 3], pickup="winner-first", games=2000)
    assert [r["settings"]["war-down"] for r in s["rule_sets"]] == ["1", "3"]
    runs = [tmp_path / "sw" / f"war-down-{k}_pickup-winner-first" for k in (1, 3)]
    c = warsim.compare(runs, out=tmp_path / "cmp")
    assert c["ks"][0]["d"] > 0
    assert json.loads((tmp_path / "cmp" / "compare.json").read_text()) == c
    assert c.out == tmp_path / "cmp"


def test_compare_without_out_makes_no_file(tmp_path, monkeypatch):
    # compare without out= is its value in memory: the comparison the folder would hold (but
    # for the command it records, which names no folder), and no file made anywhere.
    runs = [warsim.simulate("shotgun", games=2000, seed=k, out=tmp_path / f"r{k}").out
            for k in range(2)]
    written = warsim.compare(runs, out=tmp_path / "cmp")
    empty = tmp_path / "tmp"
    empty.mkdir()
    touched = empty.stat().st_mtime_ns
    monkeypatch.setenv("TMPDIR", str(empty))
    before = sorted(p.name for p in tmp_path.iterdir())
    c = warsim.compare(runs)
    assert c.out is None
    assert c["ks"] == written["ks"] and c["runs"] == written["runs"]
    assert c.to_frame().equals(written.to_frame())
    assert list(empty.iterdir()) == [] and empty.stat().st_mtime_ns == touched
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    with pytest.raises(ValueError, match="svg"):
        warsim.compare(runs, svg=True)


def test_plot_draws_the_games_that_end_natively_with_their_marks():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from matplotlib.patches import Rectangle

    # p1-first War: many games loop forever; the bars and marks are the games that end.
    r = warsim.simulate("war", games=3000, pickup="p1-first")
    ended = r.summary["finished_rounds"]
    loops = r.summary["outcomes"]["loop"]
    assert loops > 0
    ax = r.plot()
    assert ax.get_images() == [], "vector artists, not a picture"
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert bars and sum(b.get_height() for b in bars) == ended["n"]
    marks = [line.get_xdata()[0] for line in ax.get_lines()]
    assert marks == pytest.approx([ended[k] for k in ("min", "median", "mean", "max")])
    texts = " ".join(t.get_text() for t in ax.texts)
    assert f"median {ended['median']:,}" in texts and f"max {ended['max']:,}" in texts
    title = ax.get_title("left")
    assert f"{ended['n']:,} of them end" in title and f"{loops:,} loop forever" in title
    # The legend names the bars once; each mark is named beside its line, not again there.
    legend = [t.get_text() for t in ax.get_legend().texts]
    assert legend == [f"games that end ({ended['n']:,})"], legend
    # Every game ends: the marks are the summary's rounds, on an axis of the caller's.
    import matplotlib.pyplot as plt
    _, own = plt.subplots()
    plain = warsim.simulate("war", games=2000)
    assert plain.plot(ax=own) is own
    rounds = plain.summary["rounds"]
    assert [line.get_xdata()[0] for line in own.get_lines()] == pytest.approx(
        [rounds[k] for k in ("min", "median", "mean", "max")])
    assert "loop" not in own.get_title("left")
    # Survival: the share still going on a log axis, levelling off at the share that loops.
    ax = r.plot("survival")
    assert ax.get_yscale() == "log" and ax.get_images() == []
    everyone = ax.get_lines()[0].get_ydata()
    assert everyone[0] == 1 and everyone[-1] == pytest.approx(loops / 3000, abs=1 / 3000)
    # by: drawn natively too, player 1's share and the mean rounds per group with intervals.
    by = warsim.simulate("war", games=3000, by="p1-top")
    ax = by.plot("by")
    assert ax.get_images() == []
    groups = by.summary["by"]
    shares = [100 * g["shares"]["p1"]["share"] for g in groups.values()]
    assert list(ax.get_lines()[0].get_ydata()) == pytest.approx(shares)
    assert [t.get_text() for t in ax.get_legend().texts] == ["player 1 wins (%)", "mean rounds"]
    # Beggar-my-neighbour counts cards.
    bmn = warsim.simulate("bmn", games=200)
    assert bmn.plot().get_xlabel().startswith("cards per game")
    assert "cards>" in repr(bmn)
    with pytest.raises(ValueError, match="histogram, survival"):
        r.to_png("by")


def test_the_type_stubs_are_current_and_name_every_option():
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    stubs = __import__("python-stubs").stubs()
    installed = os.path.join(os.path.dirname(warsim.__file__), "__init__.pyi")
    with open(installed, encoding="utf-8") as f:
        current = f.read() == stubs
    if not current:
        # A game or an option was added or changed: the test writes the stubs itself, so the
        # only step left is to commit them (and reinstall).
        source = os.path.join(ROOT, "python", "warsim", "__init__.pyi")
        with open(source, "w", encoding="utf-8") as f:
            f.write(stubs)
        pytest.fail(f"the type stubs were stale; {source} is written anew: commit it")
    for game in LISTED:
        assert f'Literal["{game["name"]}"]' in stubs
        for option in game["options"]:
            assert option["name"].replace("-", "_") + ":" in stubs
    assert os.path.exists(os.path.join(os.path.dirname(warsim.__file__), "py.typed"))


def test_signatures_and_docstrings_for_help():
    import inspect
    sig = inspect.signature(warsim.simulate)
    assert sig.parameters["games"].default is None
    assert sig.parameters["seed"].default == 0
    assert sig.parameters["max_hours"].default == 6.0
    assert "Ctrl-C" in warsim.simulate.__doc__


def test_numpy_integers_are_numbers_and_numpy_bools_are_not():
    np = pytest.importorskip("numpy")
    plain = warsim.simulate("shotgun", games=1000, seed=3, threads=1)
    typed = warsim.simulate("shotgun", games=np.int64(1000), seed=np.uint32(3), threads=np.int8(1))
    assert typed.histogram_csv == plain.histogram_csv
    assert typed.summary["rounds"] == plain.summary["rounds"]
    for bad in (np.bool_(True), True, "1000"):
        with pytest.raises(ValueError, match="expected a number"):
            warsim.simulate("shotgun", games=bad)


def test_repr_leads_with_the_games_that_end_where_some_never_end():
    looping = warsim.simulate("war", games=2000, pickup="p1-first")
    ended = looping.summary["finished_rounds"]
    assert ended["n"] < 2000, "some games of p1-first loop"
    assert repr(looping).endswith(f"rounds of the {ended['n']:,} games that end>"), repr(looping)
    assert f"mean {ended['mean']:,.3f}" in repr(looping)
    plain = warsim.simulate("war", games=2000)
    assert repr(plain).endswith("rounds>") and "games that end" not in repr(plain)


def test_a_long_call_shows_its_progress_where_asked_and_a_short_one_stays_quiet():
    script = """
import warsim
warsim.show_progress = True
warsim.simulate("war", games=3_000_000, threads=1, max_hours=float("inf"))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "of 3,000,000 games (" in done.stderr and " left" in done.stderr, done.stderr
    quiet = subprocess.run([sys.executable, "-c", script.replace("3_000_000", "1000")],
                           capture_output=True, text=True, timeout=60)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    # Not a terminal, no notebook, and not asked: nothing.
    silent = subprocess.run([sys.executable, "-c", script.replace("= True", "= None")],
                            capture_output=True, text=True, timeout=120)
    assert silent.returncode == 0 and silent.stderr == "", silent.stderr


def test_replay_plays_a_game_of_a_run_again_as_the_command_line_does(tmp_path):
    out = tmp_path / "r"
    warsim.simulate("war", games=2000, seed=7, out=out)
    assert warsim.replay(out) == json.loads(cli("replay", out, "--json"))
    assert warsim.replay(out, game=3) == json.loads(cli("replay", out, "--game", 3, "--json"))
    with pytest.raises(FileNotFoundError, match="no such folder"):
        warsim.replay(tmp_path / "nothing")


def _without_times(doc):
    """A search document without what differs between two runs of it: its times and its
    provenance."""
    return {k: v for k, v in doc.items() if k not in ("elapsed_s", "deals_per_s", "tries_per_s",
                                                      "provenance")}


def test_search_finds_what_the_command_line_finds(tmp_path):
    deck = dict(ranks=7, suits=2)
    found = warsim.search("bmn", out=tmp_path / "py", deals=20000, walkers=4, seed=2,
                          method="climb", **deck)
    cli("search", "bmn", "--ranks", 7, "--suits", 2, "--deals", 20000, "--walkers", 4,
        "--seed", 2, "--method", "climb", "--out", tmp_path / "cli")
    want = json.loads((tmp_path / "cli" / "search.json").read_text())
    assert found.pop("replay") == want.pop("replay").replace(str(tmp_path / "cli"), str(tmp_path / "py"))
    assert _without_times(found) == _without_times(want)
    assert (tmp_path / "py" / "best.txt").read_text() == (tmp_path / "cli" / "best.txt").read_text()
    command = found["provenance"]["command"]
    assert command.startswith("warsim search bmn --ranks 7 --suits 2 --deals 20000"), command
    basin = warsim.search("bmn", out=tmp_path / "basin", reaching="--J-/K-QQ-AAKJ-", **deck)
    assert basin["deal"] == "--J-/K-QQ-AAKJ-" and len(basin["deals"]) == 84
    census = warsim.search("bmn", out=tmp_path / "census", census=True, deals=8192, walkers=2,
                           ranks=7, suits=2, from_="--J-/K-QQ-AAKJ-")
    assert census["cycles"], census.keys()


def test_search_refuses_what_it_cannot_do_by_keyword(tmp_path):
    with pytest.raises(ValueError, match="walkers=0"):
        warsim.search("bmn", out=tmp_path / "w", walkers=0)
    with pytest.raises(ValueError, match="no option colour"):
        warsim.search("bmn", out=tmp_path / "c", colour=3)
    with pytest.raises(ValueError, match="bmn alone"):
        warsim.search("war", out=tmp_path / "g")
    with pytest.raises(ValueError, match="expected a number"):
        warsim.search("bmn", out=tmp_path / "d", deals="many")
    assert not os.path.exists(tmp_path / "w")



def test_what_the_command_line_refuses_python_refuses_by_keyword(tmp_path):
    # Found by an attack: each ran, ignoring a keyword or dealing as the preset deals, and
    # recorded a command the command line refuses.
    with pytest.raises(ValueError, match="deal=\"evne\""):
        warsim.simulate("war", games=10, deal="evne")
    with pytest.raises(ValueError, match="flawless"):
        warsim.exact("war", flawless=True, threads=2)
    with pytest.raises(ValueError, match="census"):
        warsim.search("bmn", out=tmp_path / "c", census=True, loops=True, ranks=4, suits=2)
    assert not os.path.exists(tmp_path / "c")
    with pytest.raises(ValueError, match="svg.*out=DIR"):
        warsim.simulate("war", games=10, svg=True)
    for bad in (True, -1, 2**70, 1.0, "5"):
        with pytest.raises(ValueError, match="max_rule_sets="):
            warsim.sweep("war", out=tmp_path / "s", games=10, war_down=[1, 2], max_rule_sets=bad)
    assert not os.path.exists(tmp_path / "s")


def test_lists_numpy_floats_and_none_mean_what_they_say(tmp_path):
    np = pytest.importorskip("numpy")
    # A list for play's positional field is its items; None is the keyword left out.
    assert warsim.play("rps", throws=["r", "r", "s"]) == warsim.play("rps", "r", "r", "s")
    with pytest.raises(ValueError, match="no option deals"):
        warsim.search("bmn", out=tmp_path / "r", reaching="--J-/K-QQ-AAKJ-", ranks=7, suits=2,
                      deals=100)
    basin = warsim.search("bmn", out=tmp_path / "b", reaching=None, deals=4000, walkers=2,
                          method="climb", ranks=7, suits=2)
    assert "best" in basin, basin.keys()
    # A numpy float of any width is a number.
    r = warsim.simulate("shotgun", games=1000, precision=np.float32(5.0), max_games=2000)
    assert r.summary["games"] >= 1000
    # A list in a sweep is its values, each whole: two rule sets, not one of "13,12".
    s = warsim.sweep("war", out=tmp_path / "s", games=200, ranks=13, suits=2,
                     p1_cards=["13", "12"])
    names = [r["name"] for r in s["rule_sets"]]
    assert names == ["ranks-13_suits-2_p1-cards-13", "ranks-13_suits-2_p1-cards-12"], names



def _stopped_part_way(args, tmp_path, name, pauses, timeout):
    """Runs the command line's `args` into a folder of `tmp_path` and sends it SIGINT after each
    of `pauses` seconds in turn (a fresh folder each) until one stops part way, saying so: that
    folder. A pause can land before warsim answers signals or after the run ends, so several."""
    import signal

    for pause in pauses:
        out = tmp_path / f"{name}{pause}"
        child = subprocess.Popen([BINARY, *args, "--out", str(out)], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
        time.sleep(pause)
        child.send_signal(signal.SIGINT)
        _, said = child.communicate(timeout=timeout)
        if child.returncode == 130 and "warsim resume" in said:
            return out
    pytest.fail(f"no {name} was stopped part way")


def test_resume_finishes_a_sweep_an_interrupt_stopped(tmp_path):
    """A sweep stopped part way by SIGINT is finished by `warsim.resume` as the command line's
    `resume` finishes it, and returned as `sweep` returns one: its table is the table of the
    sweep played in one go."""
    args = ["sweep", "war", "--war-down", "1,2,3", "--games", "200000", "--threads", "1",
            "--max-hours", "none", "--quiet"]
    out = _stopped_part_way(args, tmp_path, "sweep", (0.8, 0.5, 1.2, 0.3, 1.6, 2.4), 120)
    assert json.loads((out / "sweep.json").read_text())["stopped"] is True
    done = warsim.resume(out)
    assert isinstance(done, warsim.Document) and "stopped" not in done
    whole = warsim.sweep("war", war_down=[1, 2, 3], games=200_000, threads=1,
                         out=tmp_path / "whole")
    assert done._table == whole._table
    assert (out / "sweep.csv").read_text() == (tmp_path / "whole" / "sweep.csv").read_text()


def test_resume_plays_the_rest_of_a_run_an_interrupt_stopped(tmp_path):
    args = ["simulate", "war", "--games", "300000", "--threads", "1", "--max-hours", "none"]
    out = _stopped_part_way(args, tmp_path, "run", (0.6, 0.3, 0.15, 1.2, 2.4), 60)
    stopped = warsim.load(out)
    assert stopped.summary["run"]["stopped"] is True and stopped.summary["games"] < 300_000
    r = warsim.resume(out)
    whole = warsim.simulate("war", games=300_000, threads=1)
    assert r.out == out and r.histogram_csv == whole.histogram_csv
    assert "stopped" not in r.summary["run"] and warsim.load(out).histogram_csv == r.histogram_csv
    with pytest.raises(ValueError, match="holds every game"):
        warsim.resume(out)
