#!/usr/bin/env python3
"""Checks warsim's command-line contract (docs/contract.md): the interface, not the statistics.

Usage, after `cargo build --release` (from any folder: it runs this repository's
target/release/warsim):
    python3 scripts/contract.py [GAME ...]
Name the games to check; without any, every game `warsim games --json` lists (the one list of
games), each with the settings of the OPTS table below (the seed documents' games as their
documents set them) or else its own example from that listing. Prints one line per failed
check, then a count; exit 1 on any failure. It checks JSON keys, files written, determinism
across threads and shards, merge, that bad input exits 2 with one line on stderr and writes
nothing, and play --json where PLAY names a play (a game without one is said, not skipped
silently). .ci/run runs it on every game.
"""
import json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, 'target', 'release', 'warsim')
OPTS = {'war': [], 'snap': ['--players', '2', '--faces', '13', '--copies', '4'],
        'shotgun': [], 'rps': ['--players', '4'], 'jitsu': ['--strategy', 'random']}
PLAY = {'war': ['play', 'war', '--seed', '1', '--game', '0', '--json'],
        'snap': ['play', 'snap', 'abca', 'abba', '--json'],
        'shotgun': ['play', 'shotgun', 'rg fr', '--json'],
        'rps': ['play', 'rps', 'r', 's', '--json'],
        'bmn': ['play', 'bmn', '--json']}
OUTCOMES = {'draw', 'stalemate', 'loop', 'capped'}
failures = []; checks = 0

def check(ok, what):
    global checks
    checks += 1
    if not ok:
        failures.append(what); print('FAIL', what)

def run(args):
    return subprocess.run([BIN, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600)

def read_hist(d):
    with open(os.path.join(d, 'histogram.csv')) as f:
        return f.read()

def simulate(game, out, *extra):
    return run(['simulate', game, *OPTS[game], '--games', '3000', '--seed', '1', *extra, '--out', out])

def contract(game, tmp):
    r = run(['simulate', game, *OPTS[game], '--games', '3000', '--seed', '1', '--json', '--out', f'{tmp}/a'])
    check(r.returncode == 0, f'{game}: simulate --json --out exits {r.returncode}: {r.stderr.strip()[:120]}')
    if r.returncode != 0:
        return
    try:
        d = json.loads(r.stdout)
    except ValueError:
        check(False, f'{game}: stdout of --json is not one JSON object'); return
    for k in ['game', 'rules', 'games', 'seed', 'rounds', 'outcomes', 'longest_game', 'elapsed_s', 'games_per_s']:
        check(k in d, f'{game}: JSON lacks "{k}"')
    rounds = d.get('rounds', {})
    for k in ['mean', 'sd', 'sem', 'ci95', 'median', 'min', 'max', 'quantiles']:
        check(k in rounds, f'{game}: JSON rounds lacks "{k}"')
    for q in ['p1', 'p5', 'p25', 'p75', 'p95', 'p99', 'p99.9']:
        check(q in rounds.get('quantiles', {}), f'{game}: JSON rounds.quantiles lacks "{q}"')
    outs = d.get('outcomes', {})
    check(sum(outs.values()) == d.get('games'), f'{game}: outcomes do not sum to games')
    for k in outs:
        check(k in OUTCOMES or (k[0] == 'p' and k[1:].isdigit()), f'{game}: unknown outcome name "{k}"')
    for f in ['summary.json', 'summary.csv', 'histogram.csv', 'histogram.png']:
        check(os.path.exists(f'{tmp}/a/{f}'), f'{game}: --out did not write {f}')
    if os.path.exists(f'{tmp}/a/histogram.csv'):
        lines = read_hist(f'{tmp}/a').splitlines()
        check(lines[0].startswith('rounds,count'), f'{game}: histogram.csv header is not "rounds,count..."')
        check(sum(int(l.split(',')[1]) for l in lines[1:]) == d.get('games'), f'{game}: histogram counts do not sum to games')
    if os.path.exists(f'{tmp}/a/histogram.png'):
        with open(f'{tmp}/a/histogram.png', 'rb') as f:
            check(f.read(8) == b'\x89PNG\r\n\x1a\n', f'{game}: histogram.png is not a PNG')
    # determinism and shards
    simulate(game, f'{tmp}/t1', '--threads', '1'); simulate(game, f'{tmp}/t2', '--threads', '2')
    for k in range(3):
        simulate(game, f'{tmp}/s{k}', '--shard', f'{k}/3')
    m = run(['merge', f'{tmp}/s0', f'{tmp}/s1', f'{tmp}/s2', '--out', f'{tmp}/m'])
    check(m.returncode == 0, f'{game}: merge exits {m.returncode}: {m.stderr.strip()[:120]}')
    try:
        check(read_hist(f'{tmp}/t1') == read_hist(f'{tmp}/t2'), f'{game}: --threads 1 and 2 give different histograms')
        check(read_hist(f'{tmp}/t1') == read_hist(f'{tmp}/m'), f'{game}: 3 shards merged differ from the whole run')
    except OSError as e:
        check(False, f'{game}: {e}')
    # bad input
    for bad in (['--games', '0'], ['--games', 'x'], ['--seed', '-1'], ['--threads', '0'], ['--shard', '3/3']):
        r = run(['simulate', game, *OPTS[game], *bad, '--out', f'{tmp}/bad'])
        one_line = len(r.stderr.strip().splitlines()) == 1
        check(r.returncode == 2 and one_line and not os.path.exists(f'{tmp}/bad'),
              f'{game}: {" ".join(bad)} gives exit {r.returncode}, {len(r.stderr.splitlines())} stderr lines, wrote={os.path.exists(f"{tmp}/bad")}')
    if game in PLAY:
        r = run(PLAY[game])
        try:
            p = json.loads(r.stdout)
            check(all(k in p for k in ('outcome', 'rounds', 'players')), f'{game}: play --json lacks outcome/rounds/players')
        except ValueError:
            check(False, f'{game}: play --json exits {r.returncode}, stdout is not JSON')

if not os.access(BIN, os.X_OK):
    sys.exit('build first: cargo build --release (no target/release/warsim)')
listed = {g['name']: g['example'] for g in json.loads(run(['games', '--json']).stdout)}
for g in sys.argv[1:] or list(listed):
    if g not in listed:
        sys.exit(f'unknown game {g}; one of {" ".join(listed)}')
    OPTS.setdefault(g, listed[g])
    if g not in PLAY:
        print(f'{g}: play --json not checked (no PLAY entry)')
    with tempfile.TemporaryDirectory() as tmp:
        contract(g, tmp)
print(f'{checks - len(failures)} passed, {len(failures)} failed')
sys.exit(1 if failures else 0)
