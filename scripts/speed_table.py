"""The README's speed table (readme_tables.py's section `speed-table`): War's three benchmark
rule sets on one thread, from scripts/bench.sh's output on each machine it was run on
(results/bench.txt, this repository's latest machine, and results/bench-xeon.txt, the Intel
Xeon the lanes were tuned on, kept as measured), on the first path of each table (the lanes the
CPU runs), beside the peers of those tables: the C probe of the lanes reference for `bryer`
(lanes-speed.sh's section), squaaawk/war's standard game for classic and its own rules
(squaaawk-speed.sh's section)."""
import os
import re

FILES = ['bench.txt', 'bench-xeon.txt']


def sections(text):
    """The bryer rows ({path: (games/s, x probe)}), the squaaawk rows ({(rules, path): (games/s,
    x peer)}) and the CPU named by the lanes-speed section, from a bench.sh output."""
    bryer, peer, cpu = {}, {}, None
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith('bryer rules, median of'):
            cpu = lines[i - 1].split(':', 1)[1].split(';')[0].strip()
            for row in lines[i + 2:]:
                if not row.strip():
                    break
                f = row.split()
                bryer[f[0]] = (float(f[1]), f[3])
        m = re.match(r'warsim (classic|won-pile last-card 3) \[([\w-]+)\]\s+(\d+)\s+\S+\s+(\S+)', line)
        if m:
            peer[(m.group(1), m.group(2))] = (float(m.group(3)), m.group(4))
    return bryer, peer, cpu


def millions(x):
    return f'{x / 1e6:.2f}M'


def speed_table(root):
    rows = ['| CPU, one thread (path) | `bryer` games/s | vs the C probe | `classic` games/s'
            ' | vs squaaawk/war | won-pile, last-card, 3 down | vs squaaawk/war | table |',
            '|---|---|---|---|---|---|---|---|']
    for name in FILES:
        with open(os.path.join(root, 'results', name)) as f:
            bryer, peer, cpu = sections(f.read())
        path = next(p for p in bryer if p not in ('probe', 'prototype'))
        cells = [f'{cpu} ({path})', millions(bryer[path][0]), bryer[path][1]]
        for rules in ('classic', 'won-pile last-card 3'):
            games, ratio = peer[(rules, path)]
            cells += [millions(games), ratio]
        cells.append(f'[{name}](results/{name})')
        rows.append('| ' + ' | '.join(cells) + ' |')
    return '\n'.join(rows)
