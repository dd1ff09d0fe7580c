"""The README's speed table (readme_tables.py's section `speed-table`): War's three benchmark
rule sets on one thread, medians of 5 alternating runs, on each machine the speed scripts ran
on: this repository's latest (results/lanes-speed.txt, results/squaaawk-speed.txt) and the
Intel Xeon the lanes were tuned on, kept as measured (the same files with -xeon). Each row is
the path a run that names none plays there (the table's `plays:` line; a table without one,
made before it was written, its first path: the lanes the CPU runs), beside the peers of those tables: the C
probe of the lanes reference for `bryer` (scripts/lanes-speed.sh), squaaawk/war's standard
game for classic and squaaawk's own rules for the won pile (scripts/squaaawk-speed.sh)."""
import re
import sys

from tables_common import text

MACHINES = ['', '-xeon']


def fail(name, what):
    sys.exit(f'speed_table: results/{name} has no {what} (remake it with its script and'
             ' the peer it names)')


def bryer_rows(name):
    """The CPU, {path: (games/s, x probe)} and the path that plays (None where the table does not
    say) of a lanes-speed.sh table."""
    lines = text(name).splitlines()
    if not lines or not lines[0].startswith('machine: '):
        fail(name, 'machine line')
    cpu = lines[0].removeprefix('machine: ').split(';')[0].strip()
    rows, plays = {}, None
    for row in lines[3:]:
        f = row.split()
        if f and f[0] == 'plays:':
            plays = f[1]
        elif len(f) >= 4:
            rows[f[0]] = (float(f[1]), f[3])
    if 'probe' not in rows:
        fail(name, 'C probe row')
    return cpu, rows, plays


def peer_rows(name):
    """{(rules, path): (games/s, x squaaawk/war)} of a squaaawk-speed.sh table."""
    rows = {}
    for line in text(name).splitlines():
        m = re.match(r'warsim (classic|won-pile last-card 3) \[([\w-]+)\]\s+(\d+)\s+\S+\s+(\d\S*x)\s',
                     line)
        if m:
            rows[(m.group(1), m.group(2))] = (float(m.group(3)), m.group(4))
    return rows


def millions(x):
    return f'{x / 1e6:.2f}M'


def speed_table():
    rows = ['| CPU, one thread (path) | `bryer` games/s | vs the C probe | `classic` games/s'
            ' | vs squaaawk/war | won-pile, last-card, 3 down | vs squaaawk/war | tables |',
            '|---|---|---|---|---|---|---|---|']
    for machine in MACHINES:
        lanes, peer = f'lanes-speed{machine}.txt', f'squaaawk-speed{machine}.txt'
        cpu, bryer, plays = bryer_rows(lanes)
        path = plays or next(p for p in bryer if p not in ('probe', 'prototype'))
        if path not in bryer:
            fail(lanes, f'row of {path}, the path it says plays')
        cells = [f'{cpu} ({path})', millions(bryer[path][0]), bryer[path][1]]
        others = peer_rows(peer)
        for rules in ('classic', 'won-pile last-card 3'):
            if (rules, path) not in others:
                fail(peer, f'{rules} row on {path} beside squaaawk/war')
            games, ratio = others[(rules, path)]
            cells += [millions(games), ratio]
        cells.append(f'[{lanes}](results/{lanes}), [{peer}](results/{peer})')
        rows.append('| ' + ' | '.join(cells) + ' |')
    return '\n'.join(rows)
