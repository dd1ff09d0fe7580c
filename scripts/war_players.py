#!/usr/bin/env python3
"""The Theta(n^2) fit of N-player War's mean length (scripts/war-players.sh): reads
OUT_DIR/sweep/sweep.csv, writes OUT_DIR/fit.csv and OUT_DIR/players.png.

For each number of players m, two fits over the deck sizes n: mean = c * n^2 + d * n (least
squares weighted by 1/sem^2: the Theta(n^2) law of Adjei, Krishnan and Mossel, arXiv
2409.05201, with the next term, since a pure c * n^2 misses small decks by dozens of standard
errors), and mean = a * n^b (least squares on logs, unweighted): the exponent b that decks of
these sizes show, below 2 while the n term still matters."""
import csv, math, os, sys

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt

out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, 'sweep', 'sweep.csv'))))
by = {}
for r in rows:
    # Two-player rows leave `players` out of their rules (it is the default).
    m = int(r['rule_players'] or 2)
    n = int(r['rule_ranks']) * int(r['rule_suits'])
    by.setdefault(m, []).append((n, float(r['mean']), float(r['sem'])))

fits = []
for m, pts in sorted(by.items()):
    pts.sort()
    # Normal equations of y = c n^2 + d n, weights 1/sem^2.
    w = [1 / s ** 2 for _, _, s in pts]
    s44 = sum(wi * n ** 4 for wi, (n, _, _) in zip(w, pts))
    s33 = sum(wi * n ** 3 for wi, (n, _, _) in zip(w, pts))
    s22 = sum(wi * n ** 2 for wi, (n, _, _) in zip(w, pts))
    y2 = sum(wi * y * n ** 2 for wi, (n, y, _) in zip(w, pts))
    y1 = sum(wi * y * n for wi, (n, y, _) in zip(w, pts))
    det = s44 * s22 - s33 ** 2
    c = (y2 * s22 - y1 * s33) / det
    d = (s44 * y1 - s33 * y2) / det
    xs = [math.log(n) for n, _, _ in pts]
    ys = [math.log(y) for _, y, _ in pts]
    k = len(xs)
    mx, my = sum(xs) / k, sum(ys) / k
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    a = math.exp(my - b * mx)
    # The largest deviation of the fit from the measured means, in their own sem.
    worst = max(abs(y - c * n ** 2 - d * n) / s for n, y, s in pts)
    fits.append({'players': m, 'c': c, 'd': d, 'worst_z': worst, 'exponent': b, 'a': a,
                 'decks': ' '.join(str(n) for n, _, _ in pts)})

with open(os.path.join(out, 'fit.csv'), 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=list(fits[0]))
    w.writeheader()
    w.writerows(fits)

fig, ax = plt.subplots(figsize=(8, 5.5), dpi=100)
for fit in fits:
    m = fit['players']
    pts = by[m]
    ns = [n for n, _, _ in pts]
    line = ax.errorbar(ns, [y for _, y, _ in pts], yerr=[1.96 * s for _, _, s in pts], fmt='o',
                       capsize=3, label=f"{m} players: {fit['c']:.4f}·n² + {fit['d']:.2f}·n")
    grid = [ns[0] + (ns[-1] - ns[0]) * i / 100 for i in range(101)]
    ax.plot(grid, [fit['c'] * g ** 2 + fit['d'] * g for g in grid], '--', color=line[0].get_color(), lw=1)
ax.set_xlabel('cards in the deck, n (13 ranks × 2, 4, 8, 12 suits)')
ax.set_ylabel('mean rounds (95% interval)')
ax.set_title('War: mean length against deck size and players, with fits c·n² + d·n (dashed)')
ax.legend(fontsize=8)
ax.grid(alpha=0.3)
fig.tight_layout()
fig.savefig(os.path.join(out, 'players.png'))
