"""What the package returns and raises, in Python's own terms: one type per function whatever
the rules, the exception Python's own functions raise for the same mistake, keyword names in
every message, any iterable as a sweep's values, and the command line's tables as pandas
DataFrames."""

import os
import sys

import pytest

import warsim


def _no_flags(message):
    assert "--" not in message, f"names a command-line flag: {message}"
    return message


def test_replay_names_its_keyword_and_a_missing_folder_is_file_not_found(tmp_path):
    out = tmp_path / "r"
    warsim.simulate("war", games=100, out=out)
    with pytest.raises(ValueError) as e:
        warsim.replay(out, game=1000)
    assert "game=1000 is not one" in _no_flags(str(e.value))
    # A folder that is not there, as open() says it; one that is no run, a ValueError.
    for call in (warsim.replay, warsim.load, warsim.resume, lambda d: warsim.merge([out, d]),
                 lambda d: warsim.compare([out, d], out=tmp_path / "c")):
        with pytest.raises(FileNotFoundError) as e:
            call(tmp_path / "nothing")
        assert e.value.filename == str(tmp_path / "nothing") and "no such folder" in str(e.value)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="summary.json"):
        warsim.replay(tmp_path / "empty")
    assert not (tmp_path / "c").exists()


@pytest.mark.skipif(not os.path.isdir("/sys/kernel"), reason="needs Linux's /sys")
def test_an_out_the_system_will_not_write_is_a_permission_error_naming_out(tmp_path):
    # /sys refuses a new file to everyone, root too (a chmod'ed folder would not stop root).
    for call in (lambda o: warsim.simulate("war", games=10, out=o),
                 lambda o: warsim.sweep("war", games=10, war_down=[1, 2], out=o)):
        with pytest.raises(PermissionError) as e:
            call("/sys/kernel/warsim-test")
        message = _no_flags(str(e.value))
        assert "out=/sys/kernel/warsim-test: cannot lock it" in message, message
        assert e.value.errno == 13


def test_a_required_out_left_out_is_a_type_error_in_every_call():
    # compare needs none: without out= it compares in memory (test_warsim's
    # test_compare_without_out_makes_no_file).
    for call in (lambda: warsim.sweep("war", war_down=[1, 2], games=10),
                 lambda: warsim.search("bmn", deals=10)):
        with pytest.raises(TypeError, match="required keyword argument: 'out'"):
            call()


def test_exact_returns_a_result_whatever_the_rules(tmp_path):
    played = warsim.exact("war", ranks=3, suits=2, pickup="p1-first")
    chain = warsim.exact("war", ranks=2, suits=2, out=tmp_path / "chain")
    flawless = warsim.exact("war", flawless=True, ranks=4, suits=2)
    for r, document in ((played, "summary.json"), (chain, "chain.json"),
                        (flawless, "flawless.json")):
        assert type(r) is warsim.Result and r.document == document
    assert played.summary["exact"]["deals"] == 90 and played.histogram is not None
    assert chain.out == tmp_path / "chain" and chain.histogram is None and chain.charts == []
    assert repr(chain) == "<warsim.Result war: chain.json, mean 2.667 rounds>"
    assert repr(flawless) == "<warsim.Result war: flawless.json, probability 1/14>"
    with pytest.raises(ValueError, match="chain.json is an answer solved without playing"):
        chain.to_png()
    assert chain._repr_png_() is None


def _rule_sets(tmp_path, name, values):
    s = warsim.sweep("war", out=tmp_path / name, games=100, war_down=values)
    return [r["settings"]["war-down"] for r in s["rule_sets"]]


def test_a_sweep_takes_any_iterable_of_values_and_refuses_a_dict_by_name(tmp_path):
    np = pytest.importorskip("numpy")
    given = {"list": [1, 3], "tuple": (1, 3), "range": range(1, 4, 2),
             "generator": (k for k in (1, 3)), "numpy": np.array([1, 3]),
             "numpy_ints": [np.int64(1), np.uint8(3)], "text": "1,3"}
    for name, values in given.items():
        assert _rule_sets(tmp_path, name, values) == ["1", "3"], name
    # The command a generator's sweep records lists its values, not the spent generator.
    summary = (tmp_path / "generator" / "war-down-1" / "summary.json").read_text()
    assert "--war-down 1,3" in summary
    for bad, kind in (({"a": 1}, "a dict"), ({1, 3}, "a set")):
        with pytest.raises(ValueError) as e:
            warsim.sweep("war", out=tmp_path / "bad", games=100, ranks=bad)
        message = str(e.value)
        assert message.startswith("ranks=") and kind in message and "string" not in message
    assert not (tmp_path / "bad").exists()


def test_frames_are_the_command_lines_tables(tmp_path):
    pd = pytest.importorskip("pandas")
    r = warsim.simulate("war", games=2000, by="p1-top", out=tmp_path / "r")
    frame = r.summary_frame()
    assert frame.equals(pd.read_csv(tmp_path / "r" / "summary.csv"))
    assert len(frame) == 1 + len(r.summary["by"]) and frame["games"][0] == 2000
    # A run in memory gives the same table as the one written.
    assert warsim.simulate("war", games=2000, by="p1-top").summary_frame().equals(frame)
    s = warsim.sweep("war", out=tmp_path / "s", games=500, war_down=[1, 3])
    assert s.to_frame().equals(pd.read_csv(tmp_path / "s" / "sweep.csv"))
    assert list(s.to_frame()["rule_set"]) == [r["name"] for r in s["rule_sets"]]
    c = warsim.compare([tmp_path / "s" / "war-down-1", tmp_path / "s" / "war-down-3"],
                       out=tmp_path / "c")
    assert c.to_frame().equals(pd.read_csv(tmp_path / "c" / "compare.csv"))
    assert c.to_frame()["ks_d"][0] == c["ks"][0]["d"]
    chain = warsim.exact("war", ranks=2, suits=2).summary_frame()
    assert len(chain) == 1 and chain["mean_rounds"][0] == pytest.approx(8 / 3)


def test_a_frame_without_pandas_says_what_to_install(monkeypatch):
    r = warsim.simulate("shotgun", games=100)
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(ImportError, match="summary_frame.. returns a pandas DataFrame.*pip install"):
        r.summary_frame()
    # The histogram still comes, as numpy arrays.
    assert int(r.histogram["count"].sum()) == 100


def test_a_misspelt_keyword_is_guessed_and_every_keyword_of_the_call_listed(tmp_path):
    # Found by a newcomer: `gams=1000` listed War's settings alone (no games, seed, threads or
    # out); search's list said `from` (Python's keyword is from_) and left out reaching.
    with pytest.raises(ValueError) as e:
        warsim.simulate("war", gams=1000)
    said = _no_flags(str(e.value))
    assert "no option gams (did you mean games?)" in said, said
    for name in ("games", "seed", "threads", "out", "war_down", "pickup"):
        assert name in said.split("its options are ")[1].split(", "), (name, said)
    with pytest.raises(ValueError) as e:
        warsim.sweep("war", out=tmp_path / "s", games=10, war_dwn=[1, 2])
    assert "(did you mean war_down?)" in str(e.value) and "max_rule_sets" in str(e.value)
    with pytest.raises(ValueError) as e:
        warsim.search("bmn", out=tmp_path / "b", deels=100)
    said = str(e.value)
    listed = said.split("its options are ")[1].split(", ")
    assert "(did you mean deals?)" in said, said
    assert "from_" in listed and "from" not in listed and "reaching" in listed, said
    assert "ranks" in listed and "out" in listed, said
    # Nothing a slip away: no guess.
    with pytest.raises(ValueError) as e:
        warsim.simulate("war", colour=3)
    assert "did you mean" not in str(e.value)
    assert not os.path.exists(tmp_path / "s") and not os.path.exists(tmp_path / "b")
