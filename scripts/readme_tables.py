#!/usr/bin/env python3
"""Rewrites the generated sections of README.md from results/ (between the markers
<!-- NAME:begin --> and <!-- NAME:end -->), so every figure there comes from a committed run."""
import json, os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path):
    with open(os.path.join(ROOT, 'results', path)) as f:
        return json.load(f)


def n(x):
    return f'{x:,}'


def war_table():
    rows = ['| rules | games | mean rounds (95% interval) | sd | median | p1 / p99 | min / max | player 1 wins | wars per game | capped |',
            '|---|---|---|---|---|---|---|---|---|---|']
    for preset in ['classic', 'bryer']:
        s = load(f'war-{preset}/summary.json')
        r = s['rounds']
        q = r['quantiles']
        capped = s['outcomes'].get('capped', 0)
        rows.append(f"| `{preset}` | {n(s['games'])} | {r['mean']:.3f} ({r['ci95'][0]:.3f}–{r['ci95'][1]:.3f}) "
                    f"| {r['sd']:.1f} | {r['median']} | {q['p1']} / {q['p99']} | {r['min']} / {n(r['max'])} "
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
        f"| warsim `bryer`, rounds | {n(games)} | {r['mean']:.4f} | {r['median']} | {r['min']} | {n(r['max'])} |",
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
                    f"| {e['mean_rounds']:.4f} | {r['median']} | {r['quantiles']['p99']} | {r['max']} "
                    f"| {sh['p1']['share']:.5f} / {sh['p2']['share']:.5f} / {sh['draw']['share']:.5f} "
                    f"| {e['p1']:.5f} / {e['p2']:.5f} / {e['draw']:.5f} |")
    return '\n'.join(rows)


def rps_table():
    import csv
    rows = ['| players N | exact mean rounds | simulated (1,000,000 games) | 95% interval | within it |',
            '|---|---|---|---|---|']
    with open(os.path.join(ROOT, 'results/rps-sweep/means.csv')) as f:
        for r in csv.DictReader(f):
            e, m, lo, hi = (float(r[k]) for k in ['exact_mean', 'mean', 'ci95_lo', 'ci95_hi'])
            rows.append(f"| {r['players']} | {e:.4f} | {m:.4f} | {lo:.4f}–{hi:.4f} | {'yes' if lo <= e <= hi else 'no'} |")
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
        rows.append(f"| {cfg} | {n(g)} | {r['mean']:.2f} ({r['ci95'][0]:.2f}–{r['ci95'][1]:.2f}) | {r['median']} "
                    f"| {r['quantiles']['p99']} | {n(r['max'])} | {100 * wins / g:.3f}% | {100 * o.get('stalemate', 0) / g:.3f}% "
                    f"| {n(lo['count'])} = {100 * lo['share']:.4f}% ({100 * lo['ci95'][0]:.4f}–{100 * lo['ci95'][1]:.4f}%) |")
    return '\n'.join(rows)


def jitsu_table():
    rows = ['| player 1 strategy | games | mean rounds (95% interval) | median | p99 | max | player 1 wins (95% interval) |',
            '|---|---|---|---|---|---|---|']
    for strategy in ['random', 'greedy']:
        s = load(f'jitsu-{strategy}/summary.json')
        r, p1 = s['rounds'], s['shares']['p1']
        rows.append(f"| `{strategy}` | {n(s['games'])} | {r['mean']:.3f} ({r['ci95'][0]:.3f}–{r['ci95'][1]:.3f}) | {r['median']} "
                    f"| {r['quantiles']['p99']} | {r['max']} | {100 * p1['share']:.2f}% ({100 * p1['ci95'][0]:.2f}–{100 * p1['ci95'][1]:.2f}%) |")
    return '\n'.join(rows)


SECTIONS = {'jitsu-table': jitsu_table, 'snap-table': snap_table, 'war-table': war_table, 'war-bryer-vs-seed': bryer_vs_seed,
            'shotgun-table': shotgun_table, 'rps-table': rps_table}


def main(path):
    text = open(path).read()
    for name, make in SECTIONS.items():
        pat = re.compile(rf'(<!-- {name}:begin -->\n).*?(<!-- {name}:end -->)', re.S)
        if pat.search(text):
            text = pat.sub(lambda m: m.group(1) + make() + '\n' + m.group(2), text)
    open(path, 'w').write(text)


main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'README.md'))
