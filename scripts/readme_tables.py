#!/usr/bin/env python3
"""Rewrites the generated sections of README.md and docs/**/*.md from results/ (between the
markers <!-- NAME:begin --> and <!-- NAME:end -->, in whichever file holds them), so every figure
there comes from a committed run.

Usage: scripts/readme_tables.py [--check] [FILE.md ...]
  Without files: README.md and every docs/**/*.md of this repository. A block NAME must be one of
  SECTIONS below; a section whose markers no file holds is named on stderr (its figures are
  shown nowhere). --check writes nothing and exits 1 naming each file whose blocks differ from
  what results/ gives (CI runs it: no figure is edited by hand, none is left stale).
"""
import glob, os, re, sys

from bmn_tables import (bmn_census, bmn_exact, bmn_loops, bmn_reaching, bmn_record_search, bmn_records,
                        bmn_search, bmn_simulate)
from speed_table import speed_table
from tables_common import ROOT, load, n, text


def est(x, lo, hi, fmt='.2f', scale=1, unit=''):
    """An estimate with its 95% interval: '12.34 (12.30–12.38)'."""
    return f'{scale * x:{fmt}}{unit} ({scale * lo:{fmt}}–{scale * hi:{fmt}}{unit})'


def pct(share, fmt='.2f'):
    """A JSON share object {share, ci95} as a percentage with its interval."""
    return est(share['share'], *share['ci95'], fmt=fmt, scale=100, unit='%')


def war_table():
    # Every figure of rounds is over all games: a capped game counts the cap (summary.json's
    # `rounds`), as the terminal's `rounds` lines print it.
    rows = ['| rules | games | mean rounds, all games (95% interval) | sd | median | p1 / p99 | min / max | player 1 wins | wars per game | capped |',
            '|---|---|---|---|---|---|---|---|---|---|']
    for preset in ['classic', 'bryer']:
        s = load(f'war-{preset}/summary.json')
        r = s['rounds']
        q = r['quantiles']
        capped = s['outcomes'].get('capped', 0)
        rows.append(f"| `{preset}` | {n(s['games'])} | {r['mean']:,.3f} ({r['ci95'][0]:,.3f}–{r['ci95'][1]:,.3f}) "
                    f"| {r['sd']:,.1f} | {n(r['median'])} | {n(q['p1'])} / {n(q['p99'])} | {n(r['min'])} / {n(r['max'])} "
                    f"| {100 * s['shares']['p1']['share']:.3f}% | {s['wars']['mean']:.3f} | {n(capped)} |")
    return '\n'.join(rows)


def bryer_vs_seed():
    s = load('war-bryer/summary.json')
    c = load('war-bryer-vs-r/comparison.json')
    games = s['games']
    capped = s['outcomes'].get('capped', 0)
    # R's `games` is rounds − 1 for a finished game and the cap (2000) for an unfinished one.
    hist = []
    with open(os.path.join(ROOT, 'results/war-bryer/histogram.csv')) as f:
        head = f.readline().strip().split(',')
        for line in f:
            row = dict(zip(head, map(int, line.split(','))))
            done = row['count'] - row.get('capped', 0)
            if done:
                hist.append((row['rounds'] - 1, done))
            if row.get('capped'):
                hist.append((row['rounds'], row['capped']))
    hist.sort()
    total = sum(k * v for k, v in hist)
    cum, median = 0, None
    for k, v in hist:
        cum += v
        if median is None and 2 * cum >= games:
            median = k
    mean = total / games
    r = s['rounds']
    lines = [
        '| | games | mean | median | min | max |',
        '|---|---|---|---|---|---|',
        f"| seed document (R, its own count) | 10,000 | 173.6619 | 135 | 9 | 1,381 |",
        f"| R program run here (its own count) | {n(c['r_games'])} | {c['r_mean_seed_count']:.4f} | "
        f"{c['r_quantiles_1_25_50_75_99'][2] - 1} | {c['r_min'] - 1} | {n(c['r_max'] - (0 if c['r_capped'] else 1))} |",
        f"| warsim `bryer`, in R's count | {n(games)} | {mean:.4f} | {median} | {hist[0][0]} | {n(hist[-1][0])} |",
        f"| warsim `bryer`, rounds | {n(games)} | {r['mean']:.4f} | {n(r['median'])} | {n(r['min'])} | {n(r['max'])} |",
        '',
        f"R's program and warsim's `bryer` preset, compared by `scripts/compare-r.sh`: the first "
        f"2,000 deals R makes, replayed with `warsim play war --rules bryer --deal ...`, end with "
        f"the same winner in the same round, every one; over {n(c['r_games'])} R games against "
        f"{n(c['warsim_games'])} warsim games, the two-sample KS test gives D = {c['ks_statistic']:.4f} "
        f"(p = {c['ks_p_value']:.3f}), and player 1 wins {100 * c['r_p1_share']:.2f}% of R's games "
        f"against {100 * c['warsim_p1_share']:.2f}% of warsim's ({c['p1_share_diff_in_se']:+.2f} standard errors). "
        f"{n(capped)} of warsim's {n(games)} games reached R's cap of 2,000 rounds.",
    ]
    return '\n'.join(lines)


def shotgun_table():
    rows = ['| mix (reload, guard, fire) | games | mean turns (95% interval) | exact mean | median | p99 | max | p1 / p2 / draw simulated | exact |',
            '|---|---|---|---|---|---|---|---|---|']
    for name in ['shotgun-uniform', 'shotgun-half-reload']:
        s = load(f'{name}/summary.json')
        r, e, sh = s['rounds'], s['exact'], s['shares']
        mix = ', '.join(f'{x:.3g}' for x in s['rules']['mix'])
        rows.append(f"| {mix} | {n(s['games'])} | {r['mean']:.4f} ({r['ci95'][0]:.4f}–{r['ci95'][1]:.4f}) "
                    f"| {e['mean_rounds']:.4f} | {n(r['median'])} | {n(r['quantiles']['p99'])} | {n(r['max'])} "
                    f"| {sh['p1']['share']:.5f} / {sh['p2']['share']:.5f} / {sh['draw']['share']:.5f} "
                    f"| {e['p1']:.5f} / {e['p2']:.5f} / {e['draw']:.5f} |")
    return '\n'.join(rows)


def sweep_runs(path):
    """The summaries of a sweep's rule sets, in order (sweep.json under results/)."""
    return [r['summary'] for r in load(f'{path}/sweep.json')['rule_sets']]


def rps_table():
    runs = sweep_runs('rps-sweep')
    rows = [f'| players N | exact mean rounds | simulated ({n(runs[0]["games"])} games) | 95% interval | z = (simulated − exact) / sem | within it |',
            '|---|---|---|---|---|---|']
    inside = 0
    for s in runs:
        e, r = s['exact']['mean_rounds'], s['rounds']
        lo, hi = r['ci95']
        inside += lo <= e <= hi
        rows.append(f"| {s['rules']['players']} | {e:.4f} | {r['mean']:.4f} | {lo:.4f}–{hi:.4f} | {(r['mean'] - e) / r['sem']:+.2f} "
                    f"| {'yes' if lo <= e <= hi else 'no'} |")
    rows.append(f"\n{inside} of {len(runs)} intervals hold the exact mean; a 95% interval misses it one time in twenty.")
    return '\n'.join(rows)


def snap_table():
    rows = ['| players, faces × copies | games | mean turns (95% interval) | median | p99 | max | a player wins | stalemate | loop (95% interval) |',
            '|---|---|---|---|---|---|---|---|---|']
    for name in ['snap-2p-13x4', 'snap-3p-13x3', 'snap-4p-4x4']:
        s = load(f'{name}/summary.json')
        r, o, g = s['rounds'], s['outcomes'], s['games']
        wins = sum(v for k, v in o.items() if k[0] == 'p')
        lo = s['loops']
        cfg = f"{s['rules']['players']}, {s['rules']['faces']} × {s['rules']['copies']}"
        rows.append(f"| {cfg} | {n(g)} | {est(r['mean'], *r['ci95'])} | {n(r['median'])} "
                    f"| {n(r['quantiles']['p99'])} | {n(r['max'])} | {100 * wins / g:.3f}% | {100 * o.get('stalemate', 0) / g:.3f}% "
                    f"| {n(lo['count'])} = {pct(lo, '.4f')} |")
    return '\n'.join(rows)


def jitsu_table():
    rows = ['| player 1 strategy | games | mean rounds (95% interval) | median | p99 | max | player 1 wins (95% interval) |',
            '|---|---|---|---|---|---|---|']
    for strategy in ['random', 'greedy']:
        s = load(f'jitsu-{strategy}/summary.json')
        r, p1 = s['rounds'], s['shares']['p1']
        rows.append(f"| `{strategy}` | {n(s['games'])} | {est(r['mean'], *r['ci95'], '.3f')} | {n(r['median'])} "
                    f"| {n(r['quantiles']['p99'])} | {n(r['max'])} | {pct(p1)} |")
    return '\n'.join(rows)


def war_rule_rows():
    """One dict per rule set of results/war-rules, with the table's fields."""
    rows = []
    for d in sweep_runs('war-rules'):
        r, rules, loops = d['rounds'], d['rules'], d.get('loops')
        rows.append({'war_down': rules['war_down'], 'short_war': rules['short_war'], 'pickup': rules['pickup'],
                     'mean': r['mean'], 'ci95_lo': r['ci95'][0], 'ci95_hi': r['ci95'][1], 'median': r['median'],
                     'p99': r['quantiles']['p99'], 'wars_mean': d['wars']['mean'], 'p1_share': d['shares']['p1']['share'],
                     'loops': loops, 'capped': d['outcomes'].get('capped', 0),
                     'finished_mean': (d.get('finished_rounds') or r)['mean']})
    return rows


def war_rules_table():
    rows = ['| war-down | short war | pickup | mean rounds (95% interval) | median | p99 | wars per game | player 1 wins | never ends (95% interval) | mean rounds of games that end |',
            '|---|---|---|---|---|---|---|---|---|---|']
    for r in war_rule_rows():
        if r['loops']:
            ne = est(r['loops']['share'], *r['loops']['ci95'], '.4f', 100, '%')
        else:
            ne = f"— (random pickup; {r['capped']} capped)"
        rows.append(f"| {r['war_down']} | {r['short_war']} | {r['pickup']} "
                    f"| {est(r['mean'], r['ci95_lo'], r['ci95_hi'])} | {n(r['median'])} | {n(r['p99'])} "
                    f"| {r['wars_mean']:.3f} | {100 * r['p1_share']:.2f}% | {ne} | {r['finished_mean']:.2f} |")
    return '\n'.join(rows)


def histogram_stats(path, keep):
    """Mean, sd and n over the histogram rows' games whose outcome column passes `keep`."""
    import csv
    s1 = s2 = cnt = 0
    with open(os.path.join(ROOT, 'results', path)) as f:
        for row in csv.DictReader(f):
            n_ = sum(int(v) for k, v in row.items() if k not in ('rounds', 'count') and keep(k))
            x = int(row['rounds'])
            s1 += n_ * x
            s2 += n_ * x * x
            cnt += n_
    mean = s1 / cnt
    sd = ((s2 - s1 * s1 / cnt) / (cnt - 1)) ** 0.5
    return mean, sd, cnt


def histogram_rows(path, keep):
    """(rounds, games) over the histogram rows' outcome columns that pass `keep`."""
    import csv
    with open(os.path.join(ROOT, 'results', path)) as f:
        for row in csv.DictReader(f):
            yield int(row['rounds']), sum(int(v) for k, v in row.items() if k not in ('rounds', 'count') and keep(k))


def agree(ours, sem, sd, theirs, their_n):
    """z of the difference, with their sampling error estimated from our sd and their n."""
    se = (sem ** 2 + sd ** 2 / their_n) ** 0.5
    z = (ours - theirs) / se
    return z, abs(z) < 1.96


def literature_table():
    rows = ['| source | their figure | warsim options | warsim (95% interval) | agrees? |',
            '|---|---|---|---|---|']
    j = load('war-literature/warjl/summary.json')
    r = j['rounds']
    z, ok = agree(r['mean'], r['sem'], r['sd'], 235.86, 1_000_000)
    opts = '`--war-down 3 --short-war lose --pickup shuffled`'
    rows.append(f"| War.jl, 1,000,000 games | 235.86 turns | {opts} | {r['mean']:.2f} ({r['ci95'][0]:.2f}–{r['ci95'][1]:.2f}) "
                f"| {'yes' if ok else 'no'} (z = {z:+.2f}) |")
    per = j['wars']['battles_by_depth_per_game']
    for key, name, theirs in [('1', 'single', 13.12), ('2', 'double', 0.754), ('3', 'triple', 0.042)]:
        rows.append(f"| War.jl | {theirs} {name} wars per game | same | {per.get(key, 0):.4f} battles whose war reached depth {key} exactly "
                    f"| {100 * (per.get(key, 0) - theirs) / theirs:+.1f}% (no interval: per-game spread of war counts is not tallied) |")
    k = load('war-literature/kbwar-shuffled/summary.json')
    r = k['rounds']
    z, ok = agree(r['mean'], r['sem'], r['sd'], 270.6, 1_000_000)
    rows.append(f"| kbWar, shuffled every trick, 1,000,000 games | 270.6 turns | `--short-war last-card --pickup shuffled` (= `classic`) "
                f"| {r['mean']:.2f} ({r['ci95'][0]:.2f}–{r['ci95'][1]:.2f}) | {'yes' if ok else 'no'} (z = {z:+.2f}) |")
    events = sum(k['wars']['battles_by_depth_per_game'].values())
    rows.append(f"| kbWar | 16.9 wars per game | same | {k['wars']['mean']:.3f} counting each level, {events:.3f} counting each war once "
                f"| {'each level' if abs(k['wars']['mean'] - 16.9) < abs(events - 16.9) else 'each war once'} is closer |")
    for name, reading in [('kbwar-fixed', 'p1-first'), ('kbwar-fixed-table', 'table')]:
        f = load(f'war-literature/{name}/summary.json')
        mean, sd, cnt = histogram_stats(f'war-literature/{name}/histogram.csv', lambda o: o != 'capped')
        sem = sd / cnt ** 0.5
        z, ok = agree(mean, sem, sd, 593.7, 100_000 * 0.905)
        capped = f['shares'].get('capped', {'share': 0, 'ci95': [0, 0]})
        cap_ok = capped['ci95'][0] <= 0.095 <= capped['ci95'][1]
        rows.append(f"| kbWar, fixed order, player 1's cards first, 100,000 games: 593.7 turns (games that ended), 9.5% reach a 20,000-turn cap "
                    f"| 593.7; 9.5% | `--short-war last-card --pickup {reading} --detect-loops off --max-rounds 20000` "
                    f"| {mean:.2f} ({mean - 1.96 * sem:.2f}–{mean + 1.96 * sem:.2f}) over {n(cnt)} games that ended; "
                    f"{100 * capped['share']:.2f}% ({100 * capped['ci95'][0]:.2f}–{100 * capped['ci95'][1]:.2f}%) capped "
                    f"| {'yes' if ok else 'no'} (z = {z:+.2f}); {'yes' if cap_ok else 'no'} |")
    e = load('war-literature/kbwar-fixed-exact/summary.json')
    lo = e['loops']
    fixed = load('war-literature/kbwar-fixed/summary.json')
    long_finished = sum(c for r_, c in histogram_rows('war-literature/kbwar-fixed-exact/histogram.csv', lambda o: o not in ('loop', 'capped')) if r_ > 20000)
    rows.append(f"| the p1-first deals, exactly | — | `--short-war last-card --pickup p1-first --detect-loops on` "
                f"| {100 * lo['share']:.2f}% never end ({100 * lo['ci95'][0]:.2f}–{100 * lo['ci95'][1]:.2f}%), proven | "
                f"of the {n(fixed['outcomes'].get('capped', 0))} games the cap stopped, {n(lo['count'])} loop forever and {n(long_finished)} end after 20,000 rounds |")
    e = load('war-literature/kbwar-laid-exact/summary.json')
    lo = e['loops']
    f = load('war-literature/kbwar-laid/summary.json')
    mean, sd, cnt = histogram_stats('war-literature/kbwar-laid/histogram.csv', lambda o: o != 'capped')
    sem = sd / cnt ** 0.5
    z, ok = agree(mean, sem, sd, 593.7, 100_000 * 0.905)
    capped = f['shares'].get('capped', {'share': 0, 'ci95': [0, 0]})
    cap_ok = capped['ci95'][0] <= 0.095 <= capped['ci95'][1]
    p1 = f['shares']['p1']
    rows.append(f"| kbWar's code of July 2015 (its published fixed-order run): player 1 45.04%, 9.5% capped | 593.7; 9.5%; 45.04% "
                f"| `--short-war last-card --pickup kbwar --detect-loops off --max-rounds 20000` "
                f"| {mean:.2f} ({mean - 1.96 * sem:.2f}–{mean + 1.96 * sem:.2f}) over {n(cnt)} games that ended; "
                f"{100 * capped['share']:.2f}% ({100 * capped['ci95'][0]:.2f}–{100 * capped['ci95'][1]:.2f}%) capped; player 1 {pct(p1)} "
                f"| {'yes' if ok else 'no'} (z = {z:+.2f}); {'yes' if cap_ok else 'no'}; {'yes' if p1['ci95'][0] <= 0.45044 <= p1['ci95'][1] else 'no'} |")
    rows.append(f"| the same deals, exactly | — | `--short-war last-card --pickup kbwar --detect-loops on` "
                f"| {100 * lo['share']:.2f}% never end ({100 * lo['ci95'][0]:.2f}–{100 * lo['ci95'][1]:.2f}%), proven "
                f"| of the {n(f['outcomes'].get('capped', 0))} games the cap stopped, {n(lo['count'])} loop forever |")
    for name, theirs, opts in [('rustwar-shuffled', [233.32, 232.75], '`--short-war lose --pickup won-pile --max-rounds 10000`'),
                               ('rustwar-unshuffled', [565.19, 563.28], '`--short-war lose --pickup table --won-pile reversed`')]:
        f = load(f'war-literature/{name}/summary.json')
        # rustwar averages the games that end within 10,000 turns and calls the others
        # indeterminate, as a share of the games that ended.
        ended = lambda o: o not in ('capped', 'loop')
        rows_ = histogram_rows(f'war-literature/{name}/histogram.csv', ended)
        kept = [(r_, c) for r_, c in rows_ if r_ <= 10000]
        cnt = sum(c for _, c in kept)
        mean = sum(r_ * c for r_, c in kept) / cnt
        sd = (sum(c * (r_ - mean) ** 2 for r_, c in kept) / (cnt - 1)) ** 0.5
        sem = sd / cnt ** 0.5
        never = f['games'] - cnt
        zs = [agree(mean, sem, sd, t, 100_000 * cnt / f['games'])[0] for t in theirs]
        share = 100 * never / cnt
        # Their share q = p / (1 − p) of p = indeterminate / all games; its standard error from
        # p's over their 100,000 games, beside ours over our games.
        p_ = never / f['games']
        se = lambda n_: (p_ * (1 - p_) / n_) ** 0.5 / (1 - p_) ** 2
        zq = [(share / 100 - t) / (se(100_000) ** 2 + se(f['games']) ** 2) ** 0.5 for t in [0.0815, 0.0810]] if 'un' in name else []
        rows.append(f"| sambecker/rustwar, {'shuffled' if 'un' not in name else 'unshuffled'} won pile, two runs of 100,000 games | "
                    f"{' and '.join(f'{t:.2f}' for t in theirs)} turns{'; 8.15% and 8.10% indeterminate' if 'un' in name else ''} | {opts} "
                    f"| {mean:.2f} ({mean - 1.96 * sem:.2f}–{mean + 1.96 * sem:.2f}) over the {n(cnt)} games that end within 10,000 rounds; "
                    f"{share:.2f}% indeterminate, counted as theirs (of the games that ended) | "
                    f"{'yes' if all(abs(z) < 1.96 for z in zs) else 'no'} (z = {', '.join(f'{z:+.2f}' for z in zs)})"
                    + (f"; indeterminate: {'yes' if all(abs(z) < 1.96 for z in zq) else 'no'} (z = {', '.join(f'{z:+.2f}' for z in zq)})" if zq else '')
                    + " |")
    zp = load('war-literature/zaporter/summary.json')
    r = zp['rounds']
    z0, ok0 = agree(r['mean'], r['sem'], r['sd'], 178.0, 10_000)
    z1, ok1 = agree(r['mean'] + 1, r['sem'], r['sd'], 178.0, 10_000)
    p1 = zp['shares']['p1']
    zp1 = (p1['share'] - 0.4955) / (0.25 / 10_000) ** 0.5
    rows.append(f"| zaporter/war_simulator (Bicycle rules), 10,000 games | 178.0 rounds (sd 135.98), 13.3 wars, player 1 49.55% "
                f"| `--short-war lose --pickup winner-first` | {r['mean']:.2f} ({r['ci95'][0]:.2f}–{r['ci95'][1]:.2f}), sd {r['sd']:.2f}; "
                f"{zp['wars']['mean']:.2f} wars; player 1 {pct(p1)} | {'yes' if ok0 and ok1 else 'no'} (z = {z0:+.2f}, or {z1:+.2f} "
                f"counting as they do one more round for a game not ended at a war); player 1: z = {zp1:+.2f} |")
    fl = load('war-literature/flawless/flawless.json')
    rows.append(f"| the flawless game: one player wins all 26 battles, published 1 in 159,620,172 | 1 in 159,620,172 "
                f"| `exact war --flawless` | {fl['probability']} = 1 in {fl['one_in']:,.1f}, exact | "
                f"{'yes' if round(fl['one_in']) == 159_620_172 else 'no'} |")
    best = [(abs(r_['mean'] - 253.314), r_) for r_ in war_rule_rows()]
    best.sort(key=lambda t: t[0])
    d_, r_ = best[0]
    rows.append(f"| Wikipedia, 1,000,000 games | 253.314 battles, 15.0961 wars, 0.756801 double wars | rules not stated; the nearest of the rule sets above: "
                f"`--war-down {r_['war_down']} --short-war {r_['short_war']} --pickup {r_['pickup']}` | {r_['mean']:.2f} "
                f"({r_['ci95_lo']:.2f}–{r_['ci95_hi']:.2f}), {r_['wars_mean']:.3f} wars | cannot tell: the pickup order and the short-war rule are unstated |")
    rows.extend(players_literature_rows())
    return '\n'.join(rows)


# The N-player peers' rule sets (scripts/war-players.sh): run name, source, options.
PLAYERS_PEERS = [
    ('kbwar-3', 'kbWar, 3 players', '--players 3 --short-war last-card --pickup shuffled --max-rounds 20000'),
    ('kbwar-4', 'kbWar, 4 players', '--players 4 --short-war last-card --pickup shuffled --max-rounds 20000'),
    ('brakebusk-4', 'Brakebusk/WarSimulator, 4 players', '--players 4 --short-war last-card --pickup won-pile'),
]


def players_literature_rows():
    """kbWar and Brakebusk/WarSimulator play N players but publish no N-player figure: our runs
    under their rules stand with nothing to compare."""
    rows = []
    for name, source, opts in PLAYERS_PEERS:
        s = load(f'war-players/{name}/summary.json')
        r = s['rounds']
        capped = s['outcomes'].get('capped', 0)
        rows.append(f"| {source}, {n(s['games'])} games here | none published (kbWar's Results.md has two players only; "
                    f"Brakebusk's README gives speeds only) | `{opts}` | {r['mean']:.2f} ({r['ci95'][0]:.2f}–{r['ci95'][1]:.2f}), "
                    f"{s['wars']['mean']:.2f} wars, {n(capped)} capped | nothing to compare |")
    return rows


def players_table():
    """Mean rounds by players and deck size (scripts/war-players.sh), and the fits per players."""
    import csv
    runs = {}
    for r in csv.DictReader(open(os.path.join(ROOT, 'results/war-players/sweep/sweep.csv'))):
        runs[(int(r['rule_players'] or 2), int(r['rule_ranks']) * int(r['rule_suits']))] = r
    players = sorted({m for m, _ in runs})
    decks = sorted({d for _, d in runs})
    fits = {int(f['players']): f for f in csv.DictReader(open(os.path.join(ROOT, 'results/war-players/fit.csv')))}
    games = {r['games'] for r in runs.values()}
    rows = ['| players | ' + ' | '.join(f'{d} cards' for d in decks) + ' | fit c·n² + d·n | largest miss | exponent b of a·n^b |',
            '|---' * (len(decks) + 4) + '|']
    for m in players:
        cells = []
        for d in decks:
            r = runs[(m, d)]
            cells.append(f"{float(r['mean']):.1f} ± {1.96 * float(r['sem']):.1f}")
        f = fits[m]
        rows.append(f"| {m} | " + ' | '.join(cells) + f" | {float(f['c']):.4f}·n² + {float(f['d']):.2f}·n "
                    f"| {float(f['worst_z']):.1f} sem | {float(f['exponent']):.3f} |")
    rows.append('')
    rows.append(f"Mean rounds ± the 95% half-interval, {', '.join(n(int(g)) for g in sorted(games))} games per cell, "
                f"13 ranks × 2, 4, 8, 12 suits, classic rules otherwise.")
    # Who wins with 52 cards: when the players do not divide the deck, the first players hold
    # one card more.
    rows += ['', '| players, 52 cards | hand sizes | player 1 wins (95% interval) | player N wins (95% interval) | draws | mean finishing place, player 1 / player N |',
             '|---|---|---|---|---|---|']
    for m in players:
        r = runs[(m, 52)]
        g = int(r['games'])
        sizes = [52 // m + (1 if p < 52 % m else 0) for p in range(m)]

        def share(key):
            k = int(r.get(f'outcome_{key}') or 0)
            q = k / g
            h = 1.96 * (q * (1 - q) / g) ** 0.5
            return f"{100 * q:.2f}% ({100 * (q - h):.2f}–{100 * (q + h):.2f}%)"
        def place(p):
            counts = [int(r.get(f'place_p{p}_{k}') or 0) for k in range(1, m + 1)]
            return sum(k * c for k, c in enumerate(counts, 1)) / sum(counts) if sum(counts) else None
        places = 'two players: the outcomes' if m == 2 else f"{place(1):.3f} / {place(m):.3f}"
        rows.append(f"| {m} | {' '.join(map(str, sizes))} | {share('p1')} | {share(f'p{m}')} | {int(r.get('outcome_draw') or 0)} | {places} |")
    return '\n'.join(rows)


def experiments_table():
    """Published experiments beside warsim's runs of results/war-experiments."""
    import math
    rows = ['| source | experiment | published | warsim options | warsim, in the source\'s count (95% interval) | agrees |',
            '|---|---|---|---|---|---|']

    def run(name):
        return load(f'war-experiments/{name}/summary.json')

    def options(s):
        cmd = s['provenance']['command'].split(' --games')[0]
        return '`' + cmd.replace('warsim simulate war ', '') + '`'

    def mean_row(source, what, name, published, offset=0.0, their_n=None):
        s = run(name)
        r = s['rounds']
        m, (lo, hi) = r['mean'] + offset, r['ci95']
        lo, hi = lo + offset, hi + offset
        capped = s['outcomes'].get('capped', 0)
        note = f'; {n(capped)} capped' if capped else ''
        if their_n:
            se = math.hypot(r['sem'], r['sd'] / math.sqrt(their_n))
            z = (m - published) / se
            ok = f"{'yes' if abs(z) <= 1.96 else 'no'} (z = {z:+.2f})"
        else:
            ok = 'yes' if lo <= published <= hi else 'no'
            ok += ' (published value inside our interval; its own error unknown)' if ok == 'yes' else ' (outside our interval)'
        rows.append(f"| {source} | {what} | {published:,} rounds | {options(s)} | {m:,.2f} ({lo:,.2f}–{hi:,.2f}), {n(s['games'])} games{note} | {ok} |")

    def share_row(source, what, name, published, their_n=None):
        s = run(name)
        sh = s['shares']['p1']
        p, (lo, hi) = sh['share'], sh['ci95']
        if their_n:
            se = math.hypot(math.sqrt(p * (1 - p) / s['games']), math.sqrt(published * (1 - published) / their_n))
            z = (p - published) / se
            ok = f"{'yes' if abs(z) <= 1.96 else 'no'} (z = {z:+.1f})"
        else:
            ok = 'yes' if lo <= published <= hi else 'no'
        rows.append(f"| {source} | {what} | {100 * published:.1f}% | {options(s)} | {100 * p:.2f}% ({100 * lo:.2f}–{100 * hi:.2f}%), {n(s['games'])} games | {ok} |")

    sq = 'squaaawk/war (+1 round per game: it also counts the turn a player has no card)'
    mean_row(sq + ', 300,000 games', 'standard, shuffled', 'sq-standard', 268.42, 1, 300_000)
    mean_row(sq, 'evenly split', 'sq-even', 280.26, 1)
    mean_row(sq, 'two decks, evenly split', 'sq-2decks-even', 976.94, 1)
    mean_row(sq, 'twelve decks, evenly split', 'sq-12decks-even', 30192, 1)
    share_row(sq, 'aces vs. the world: player 1 wins', 'sq-aces', 0.673)
    mean_row(sq, 'aces vs. the world: turns', 'sq-aces', 274.12, 1)
    mean_row(sq + ', 400,000 games', 'honorable', 'sq-honor', 132.05, 1, 400_000)
    mean_row(sq, 'two decks, evenly split, honorable', 'sq-2decks-honor', 343.12, 1)
    mean_row(sq, 'twelve decks, honorable', 'sq-12decks-honor', 3317, 1)
    mean_row(sq, 'twelve decks, doubly honorable', 'sq-12decks-honor2', 1880.5, 1)
    for k, pub in [(1, 0.809), (2, 0.717), (3, 0.655)]:
        share_row('The Riddler, 2017-09-08 (10,000,000 games)', f'four aces vs 48 cards, {k} down: aces win', f'riddler-down{k}', pub, 10_000_000)
    mean_row('jouets "bataille" (1,000,000 games)', '52 cards, 1 down: mean', 'bataille-52', 441.4, 0, 1_000_000)
    mean_row('jouets "bataille" (1,000,000 games)', '32 cards (8 ranks × 4), 1 down: mean', 'bataille-32', 126.5, 0, 1_000_000)
    for name, pub in [('bataille-52', 334), ('bataille-32', 96)]:
        s = run(name)
        rows.append(f"| jouets \"bataille\" | {s['rules']['ranks'] * s['rules']['suits']} cards: median | {pub} | {options(s)} | {n(s['rounds']['median'])} | {'yes' if abs(s['rounds']['median'] - pub) <= 1 else 'no'} (nearest rank, ±1 by rounding conventions) |")
    return '\n'.join(rows)


def aces_table():
    """Player 1's win share by aces held, from the grouped runs."""
    rows = ['| aces player 1 is dealt | deals (classic) | player 1 wins, classic (95% interval) | mean rounds, classic | deals (winner-first) | player 1 wins, winner-first (95% interval) | mean rounds, winner-first |',
            '|---|---|---|---|---|---|---|']
    a, b = load('war-experiments/aces-classic/summary.json'), load('war-experiments/aces-winner-first/summary.json')
    for g in sorted(a['by'], key=int):
        x, y = a['by'][g], b['by'][g]
        cells = []
        for s in (x, y):
            sh = s['shares']['p1']
            cells += [n(s['games']), pct(sh), f"{s['rounds']['mean']:.1f}"]
        rows.append(f"| {g} | " + ' | '.join(cells) + ' |')
    return '\n'.join(rows)


def exact_tables():
    """Never-ending shares per deck and deterministic pickup, the chains, and Monte Carlo beside exact."""
    import csv
    rows = list(csv.DictReader(open(os.path.join(ROOT, 'results/war-exact/table.csv'))))
    pickups = ['p1-first', 'winner-first', 'loser-first', 'table']
    out = []
    for down, short in [('3', 'last-card'), ('1', 'lose')]:
        out.append(f'War-down {down}, short war {short}: the share of deals that never end (exact), and player 1\'s share of wins under p1-first')
        out.append('')
        out.append('| deck | cards | deals | ' + ' | '.join(f'never ends, {p}' for p in pickups) + ' | player 1 wins, p1-first | longest cycle |')
        out.append('|---|---|---|' + '---|' * len(pickups) + '---|---|')
        decks = []
        for r in rows:
            if (r['ranks'], r['suits']) not in decks:
                decks.append((r['ranks'], r['suits']))
        for ranks, suits in decks:
            sel = {r['pickup']: r for r in rows if (r['ranks'], r['suits'], r['war_down'], r['short_war']) == (ranks, suits, down, short)}
            n = int(sel['p1-first']['deals'])
            cells = [f"{100 * int(sel[p]['loop']) / n:.2f}%" for p in pickups]
            longest = max(int(sel[p]['longest_cycle']) for p in pickups)
            out.append(f"| {ranks}×{suits} | {int(ranks) * int(suits)} | {n:,} | " + ' | '.join(cells)
                       + f" | {100 * int(sel['p1-first']['p1']) / n:.2f}% | {longest} |")
        out.append('')
    out.append('The shuffled pickup, solved as a Markov chain (classic rules otherwise: last-card, won cards under the winner\'s hand in random order):')
    out.append('')
    out.append('| deck | war-down | deals | positions | expected rounds | player 1 wins | draw |')
    out.append('|---|---|---|---|---|---|---|')
    for r in csv.DictReader(open(os.path.join(ROOT, 'results/war-exact/chain.csv'))):
        out.append(f"| {r['ranks']}×{r['suits']} | {r['war_down']} | {int(r['deals']):,} | {int(r['states']):,} | {float(r['mean_rounds']):.10f} "
                   f"| {float(r['p1']):.10f} | {float(r['draw']):.10f} |")
    out.append('')
    out.append('Snap, every deal (`warsim exact snap --players P --faces F --copies C`):')
    out.append('')
    out.append('| players | faces × copies | deals | a player wins | stalemate | never ends (loop) | mean turns |')
    out.append('|---|---|---|---|---|---|---|')
    for r in csv.DictReader(open(os.path.join(ROOT, 'results/war-exact/snap.csv'))):
        n = int(r['deals'])
        out.append(f"| {r['players']} | {r['faces']} × {r['copies']} | {n:,} | {100 * int(r['win']) / n:.3f}% | {100 * int(r['stalemate']) / n:.3f}% "
                   f"| {r['loop_fraction']} = {100 * int(r['loop']) / n:.3f}% | {float(r['mean_turns']):.4f} |")
    out.append('')
    out.append('Monte Carlo meets exact: `simulate` with 1,000,000 games (seed 0) beside `exact` (z = difference / standard error):')
    out.append('')
    out.append('| deck | pickup | war-down | exact mean rounds | simulated | z | exact player 1 share | simulated | z |')
    out.append('|---|---|---|---|---|---|---|---|---|')
    for r in csv.DictReader(open(os.path.join(ROOT, 'results/war-exact/mc.csv'))):
        out.append(f"| {r['ranks']}×{r['suits']} | {r['pickup']} | {r['war_down']} | {float(r['exact_mean']):.4f} | {float(r['simulated_mean']):.4f} | {float(r['z_mean']):+.2f} "
                   f"| {float(r['exact_p1']):.5f} | {float(r['simulated_p1']):.5f} | {float(r['z_p1']):+.2f} |")
    return '\n'.join(out)


# math.stackexchange q. 1752876, "When can we quit a game of War?": 1,000,000 games of war.pl
# (Games::Cards 1.45); for each n, the games whose loser never held n or more cards (w).
SE_1752876 = {27: 117488, 28: 202416, 29: 280208, 30: 332080, 31: 396849, 32: 439204, 33: 502378,
              34: 536453, 35: 594499, 36: 621622, 37: 675878, 38: 697617, 39: 747468, 40: 764932,
              41: 811182, 42: 825481, 43: 867215, 44: 878880, 45: 917070, 46: 925920, 47: 959246,
              48: 965522, 49: 987942, 50: 989722, 51: 999968, 52: 1000000}


def quit_loser_table():
    """The loser's most cards held: the question's simulation beside warsim's."""
    s = load('war-quit/summary.json')
    q = s['quit']
    lmax = {int(k): v for k, v in q['loser_max_held'].items()}
    won = sum(lmax.values())
    rows = ['| n | question: games of 1,000,000 whose loser never held n cards | question: loser once held n or more | '
            f'warsim: loser once held n or more, of {n(won)} won games (95% interval) |',
            '|---|---|---|---|']
    for k, w in SE_1752876.items():
        above = sum(v for m, v in lmax.items() if m >= k)
        rows.append(f"| {k} | {n(w)} | {100 * (1 - w / 1e6):.2f}% | {wilson_pct(above, won)} |")
    return '\n'.join(rows)


def wilson_pct(k, total):
    """k of total as a percentage with its 95% Wilson interval."""
    z = 1.96
    p = k / total
    d = 1 + z * z / total
    c = (p + z * z / (2 * total)) / d
    h = z * (p * (1 - p) / total + z * z / (4 * total * total)) ** 0.5 / d
    return est(p, max(c - h, 0), min(c + h, 1), scale=100, unit='%')


def quit_win_table():
    """Player 1's share of wins by the cards held after t rounds, from quit.csv."""
    import csv
    cells = {}
    with open(os.path.join(ROOT, 'results/war-quit/quit.csv')) as f:
        for r in csv.DictReader(f):
            if r['statistic'] == 'p1_wins_after':
                cells[(int(r['rounds']), int(r['cards']))] = r
    s = load('war-quit/summary.json')
    cards = s['quit']['cards']
    rounds = sorted({t for t, _ in cells})
    held = [4, 8, 14, 20, 26, 32, 38, 44, 48]
    rows = ['| cards held | c / ' + str(cards) + ' | ' + ' | '.join(f'after {t} rounds' for t in rounds) + ' |',
            '|---|---|' + '---|' * len(rounds)]
    for c in held:
        line = []
        for t in rounds:
            r = cells.get((t, c))
            if r is None or int(r['games']) < 30:
                line.append('—')
            else:
                line.append(f"{100 * float(r['share']):.1f}% (±{50 * (float(r['ci95_hi']) - float(r['ci95_lo'])):.1f}, {n(int(r['games']))} games)")
        rows.append(f"| {c} | {100 * c / cards:.1f}% | " + ' | '.join(line) + ' |')
    return '\n'.join(rows)


def verbatim(name):
    """A results/ text file as a code block."""
    def make():
        return '```\n' + text(name).rstrip() + '\n```'
    return make


SECTIONS = {'bmn-speed': verbatim('bmn-speed.txt'), 'scaling': verbatim('scaling.txt'), 'bmn-census': bmn_census, 'bmn-search': bmn_search, 'bmn-record-search': bmn_record_search, 'bmn-loops': bmn_loops, 'bmn-reaching': bmn_reaching, 'bmn-records': bmn_records, 'bmn-simulate': bmn_simulate, 'bmn-exact': bmn_exact, 'bench': verbatim('bench.txt'), 'deck-speed': verbatim('deck-speed.txt'), 'merge-scale': verbatim('merge-scale.txt'), 'war-rules-table': war_rules_table, 'war-literature-table': literature_table, 'war-players-table': players_table, 'jitsu-table': jitsu_table, 'snap-table': snap_table, 'war-table': war_table, 'war-bryer-vs-seed': bryer_vs_seed,
            'shotgun-table': shotgun_table, 'rps-table': rps_table, 'war-experiments-table': experiments_table,
            'aces-table': aces_table, 'exact-tables': exact_tables, 'exact-timing': verbatim('war-exact/timing.txt'),
            'quit-win-table': quit_win_table, 'quit-loser-table': quit_loser_table,
            'speed-table': speed_table, 'path-choice': verbatim('path-choice.txt'),
            'perf-lanes': verbatim('perf-lanes.txt'), 'bmn-perf': verbatim('bmn-perf.txt'),
            'search-speed': verbatim('search-speed.txt'),
            'path-choice-zen4': verbatim('path-choice-zen4.txt')}


def rewrite(text, found):
    """`text` with every generated block made again; adds the names of the blocks to `found`."""
    for name, make in SECTIONS.items():
        pat = re.compile(rf'(<!-- {name}:begin -->\n).*?(<!-- {name}:end -->)', re.S)
        if pat.search(text):
            found.add(name)
            text = pat.sub(lambda m: m.group(1) + make() + '\n' + m.group(2), text)
    return text


def main(args):
    check = '--check' in args
    paths = [a for a in args if a != '--check'] or [os.path.join(ROOT, 'README.md')] + sorted(
        glob.glob(os.path.join(ROOT, 'docs', '**', '*.md'), recursive=True))
    found, stale = set(), []
    for path in paths:
        with open(path, encoding='utf-8') as f:
            text = f.read()
        new = rewrite(text, found)
        if new != text:
            stale.append(os.path.relpath(path))
            if not check:
                with open(path, 'w', encoding='utf-8') as f:
                    f.write(new)
        unknown = set(re.findall(r'^<!-- ([\w-]+):begin -->$', text, re.M)) - set(SECTIONS)
        for name in sorted(unknown):
            print(f'readme_tables: {os.path.relpath(path)}: no section {name} in SECTIONS',
                  file=sys.stderr)
    for name in SECTIONS:
        if name not in found:
            print(f'readme_tables: no file holds <!-- {name}:begin -->', file=sys.stderr)
    if check and stale:
        print(f"readme_tables: generated blocks differ from results/ in {', '.join(stale)}"
              " (run scripts/readme_tables.py)", file=sys.stderr)
        sys.exit(1)


main(sys.argv[1:])
