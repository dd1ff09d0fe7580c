"""Beggar-my-neighbour's sections of readme_tables.py (records, simulate, exact, search, loops, census,
reaching), each from its committed results in results/bmn*: kept apart so that no script file
passes 700 lines."""
from tables_common import load, n


def bmn_records():
    """The published records and Casella's loop, as warsim replays them."""
    rows = ['| record | deal (player 1 / player 2, top card first) | cards | tricks | winner |',
            '|---|---|---|---|---|']
    for r in load('bmn/records.json'):
        if r['outcome'] == 'loop':
            end = (f"never ends: the position before trick {r['loop_from_tricks'] + 1} returns "
                   f"{r['cycle_tricks']} tricks ({r['cycle_len']} cards) later")
            rows.append(f"| {r['who']} | `{r['deal']}` | loop | loop | {end} |")
        else:
            rows.append(f"| {r['who']} | `{r['deal']}` | {n(r['rounds'])} | {n(r['tricks'])} | player {r['players'][0]} |")
    return '\n'.join(rows)


def bmn_simulate():
    s = load('bmn/simulate/summary.json')
    r = s['rounds']
    loops = s['outcomes'].get('loop', 0)
    share = s['shares']['loop']
    return (f"{n(s['games'])} random deals (seed {s['seed']}, `results/bmn/simulate/`): "
            f"{r['mean']:.2f} cards on average ({r['ci95'][0]:.2f}–{r['ci95'][1]:.2f}), median "
            f"{n(r['median'])}, longest {n(r['max'])} cards; {s['tricks']['mean']:.2f} tricks per game, "
            f"at most {n(s['tricks']['max'])}; player 1 wins {100 * s['shares']['p1']['share']:.2f}%; "
            f"{n(loops)} never end (95% interval of the share {100 * share['ci95'][0]:.5f}% to "
            f"{100 * share['ci95'][1]:.5f}%).")


def bmn_exact():
    rows = ['| deck | cards | distinct deals | player 1 wins | never end | share never ending | mean cards | most cards (a loop: to its repeat) |',
            '|---|---|---|---|---|---|---|---|']
    for r in load('bmn/exact/table.json'):
        loop = r['fractions'].get('loop', '0')
        rows.append(f"| {r['ranks']} ranks × {r['suits']} | {r['cards']} | {n(r['deals'])} | {r['fractions'].get('p1', '0')} "
                    f"| {n(r['loop'])} | {loop} | {r['mean_cards']:.4f} | {r['max_cards']} |")
    return '\n'.join(rows)


def bmn_search():
    """The searches of scripts/bmn-search.sh: the record climb, backward play, the loop search."""
    s = load('bmn/search/climb/search.json')
    rows = [f"`search bmn --method climb --deals {s['deals']:,} --walkers {s['walkers']} --seed {s['seed']}` on "
            f"{s['threads']} threads took {s['elapsed_s'] / 60:.1f} minutes, "
            f"{s['deals_per_s']:,.0f} deals/s; it found {n(s['loops_found'])} deals that never end "
            f"and these longest games (`results/bmn/search/climb/best.txt` replays them; a deal "
            f"found by backward play names the deal its game reaches):", '',
            '| deal | cards | tricks | found |', '|---|---|---|---|']
    for f in s['best'][:5]:
        how = f"backward from `{f['ancestor_of']}`" if 'ancestor_of' in f else f"walker {f['walker']}"
        rows.append(f"| `{f['deal']}` | {n(f['cards'])} | {n(f['tricks'])} | {how} |")
    b = load('bmn/search/backward/search.json')
    start = next(f for f in b['best'] if f['deal'] == b['from'])
    longer = [f for f in b['best'] if f.get('ancestor_of')]
    rows += ['', f"Backward play from Mann and Wu's 2007 record deal (`{b['from']}`, "
             f"{n(start['cards'])} cards) finds {len(longer)} longer deals; the longest:", '',
             '| deal | cards | tricks |', '|---|---|---|']
    for f in longer[:3]:
        rows.append(f"| `{f['deal']}` | {n(f['cards'])} | {n(f['tricks'])} |")
    return '\n'.join(rows)


def bmn_loops():
    """The loop search of scripts/bmn-search.sh: the standard deck from Casella's cycle, and a 14-card deck."""
    rows = ['| deck | started from | tries | fell into a cycle | ended | undecided | new cycles | tries/s | threads |',
            '|---|---|---|---|---|---|---|---|---|']
    for path, deck in (('bmn/search/loops/search.json', '52 cards'),
                       ('bmn/search/loops-small/search.json', '14 cards (`--ranks 7 --suits 2`)')):
        s = load(path)
        seeds = ', '.join(f"cycle `{c['id']}` ({c['tricks']} tricks)" for c in s['seeds']) or 'random positions'
        rows.append(f"| {deck} | {seeds} | {n(s['tries'])} | {n(s['looped'])} | {n(s['ended'])} "
                    f"| {n(s['undecided'])} | {len(s['cycles'])} | {s['tries_per_s']:,.0f} | {s['threads']} |")
    big = load('bmn/search/loops/search.json')
    if big['cycles']:
        rows += ['', "The 52-card cycles found besides the seed, each with what backward play from it finds "
                 "(`search bmn --reaching`; `results/bmn/search/loops-reaching/` has a folder per cycle id):", '',
                 '| cycle | tricks / cards | canonical position | found by | positions entering it | depth '
                 '| balanced deals, player 1 leads | either leads | one of them |',
                 '|---|---|---|---|---|---|---|---|---|']
        for c in big['cycles']:
            r = load(f"bmn/search/loops-reaching/{c['id']}/reaching.json")
            one = r['deals'][0]['deal'] if r['deals'] else '-'
            rows.append(f"| `{c['id']}` | {c['tricks']} / {n(c['cards'])} | `{c['position']}` "
                        f"| walker {c['walker']}, try {n(c['at'])} | {n(r['basin_positions'])} | {r['depth']} "
                        f"| {r['balanced_player_1_leads']} | {r['balanced_either_leads']} | `{one}` |")
    small = load('bmn/search/loops-small/search.json')
    rows += ['', f"The 14-card deck's cycles, by length (`results/bmn/search/loops-small/best.txt` replays "
             f"each canonical position):", '', '| tricks | cards | cycles | one of them |', '|---|---|---|---|']
    by = {}
    for c in small['cycles']:
        by.setdefault((c['tricks'], c['cards']), []).append(c)
    for (t, cards), cs in sorted(by.items()):
        rows.append(f"| {t} | {cards} | {len(cs)} | `{cs[0]['position']}` |")
    return '\n'.join(rows)


def bmn_reaching():
    """Basins walked back from cycles (scripts/bmn-reaching.sh): Casella's and Camicia's 15."""
    t = load('bmn-reaching/table.json')
    c = t['walks'][0]
    rows = [f"Casella et al.'s cycle ({c['cycle_tricks']} tricks, {n(c['cycle_cards'])} cards, "
            f"entered {c['entered_after_tricks']} tricks into their deal): {n(c['basin_positions'])} "
            f"positions enter it, {c['cycle_tricks']} on the cycle and {n(c['leading_in'])} leading "
            f"into it, at most {c['depth']} tricks from it. Balanced ones: {c['player_1_leads']} "
            f"with player 1 to lead, {c['either_leads']} with either player to lead, the paper's "
            f"{c['published']}. Every walk below took at most "
            f"{1000 * max(w['elapsed_s'] for w in t['walks']):.0f} ms on one core of an {t['cpu']}.",
            '', '| cycle | rules | a deal entering it | cycle tricks / cards | positions (off the cycle) | depth '
            '| balanced deals, player 1 leads | either leads | published |',
            '|---|---|---|---|---|---|---|---|---|']
    for w in t['walks']:
        rows.append(f"| {w['name']} | {w['preset']} | `{w['deal']}` | {w['cycle_tricks']} / {n(w['cycle_cards'])} "
                    f"| {n(w['basin_positions'])} ({n(w['leading_in'])}) | {w['depth']} | {w['player_1_leads']} "
                    f"| {w['either_leads']} | {w['published']} |")
    return '\n'.join(rows)


def bmn_record_search():
    """scripts/bmn-record-search.sh: the swap climb, plain sampling and the record search
    (sampling, then backward joining) at the same deals and for the same minutes, and joining
    from two records."""
    s = load('bmn/record-search/summary.json')
    rows = {r['run']: r for r in s['rows']}
    busy = max(max(r['load_before'], r['load_after']) for r in s['rows'])
    threads = rows['sample-deals']['threads']
    # A run's own threads hold the load average near their count: only more is other work.
    out = [f"CPU: {s['cpu']}, {s['cores']} cores, every run on {threads} threads, seed 0. "
           + (f"The machine was busy (load average up to {busy:.2f} while these ran, other work "
              f"sharing its {s['cores']} cores), so the deals/s figures are low and the time-bound "
              f"runs played fewer deals than a quiet machine would; the deal-bound runs' games "
              f"do not depend on it." if busy > threads + 0.5 else "Nothing else ran (load "
              f"average at most {busy:.2f}, the runs' own {threads} threads)."), '',
           '| budget | method | deals played | seconds | deals/s | longest game (cards) | tricks | load before → after |',
           '|---|---|---|---|---|---|---|---|']
    for name in ['climb-deals', 'sample-deals', 'record-deals', 'climb-minutes', 'sample-minutes',
                 'record-minutes']:
        r = rows.get(name)
        if r is None:
            continue
        budget = (f"{n(rows['sample-deals']['deals'])} deals" if name.endswith('deals')
                  else f"{rows[name]['seconds'] / 60:.0f} minutes")
        method = {'climb': 'swap climb (64 walkers)', 'sample': 'plain sampling',
                  'record': f"sampling + joining ({n(r['bases'])} bases)"}[r['method']]
        played = n(r['played'])
        if r['method'] == 'record':
            played += f" ({n(r['deals'])} sampled + {n(r['replayed'])} replayed)"
        out.append(f"| {budget} | {method} | {played} | {r['seconds']:.1f} | {n(r['deals_per_s'])} "
                   f"| {n(r['longest'])} | {n(r['tricks'])} | {r['load_before']:.2f} → {r['load_after']:.2f} |")
    def verdict(kind, budget):
        c, sa, re_ = (rows.get(f'{m}-{kind}') for m in ('climb', 'sample', 'record'))
        if not (c and sa and re_):
            return ''
        return (f"{budget}: the swap climb's longest game is {n(c['longest'])} cards, plain "
                f"sampling's {n(sa['longest'])}, the record search's {n(re_['longest'])}. ")
    best = max(r['longest'] for k, r in rows.items() if not k.startswith('from-'))
    out += ['', verdict('deals', f"At {n(rows['sample-deals']['deals'])} deals each")
            + verdict('minutes', f"In {rows['sample-minutes']['seconds'] / 60:.0f} minutes each"
                      if 'sample-minutes' in rows else '')
            + f"The longest game from seed 0, {n(best)} cards, is "
            + ('longer' if best > 4791 else 'no longer') + " than Paulhus's 4,791 of 1999."]
    out += ['', 'The longest game of each method (`results/bmn/record-search/*/best.txt` replays them):', '',
            '| run | deal | cards | joins the game of |', '|---|---|---|---|']
    for name in ['climb-deals', 'sample-deals', 'record-deals', 'climb-minutes', 'sample-minutes',
                 'record-minutes', 'from-collins', 'from-kleber']:
        r = rows.get(name)
        if r is None:
            continue
        joins = f"`{r['joins']}`" if r['joins'] else '—'
        out.append(f"| {name} | `{r['deal']}` | {n(r['longest'])} | {joins} |")
    return '\n'.join(out)


def minutes(seconds):
    """A time as minutes, or seconds below one."""
    return f"{seconds / 60:.1f} min" if seconds >= 60 else f"{seconds:.1f} s"


def bmn_census():
    """The census of cycles (scripts/bmn-census.sh, results/bmn/census/): the decks, then the
    52-card cycles one by one, with the exact counts of never-ending deals for the small decks."""
    m = load('bmn/census/machine.json')
    exact = {(e['ranks'], e['suits']): e['loop'] for e in load('bmn/exact/table.json')}
    rows = ['| deck | started from | tries | rounds | time | cycles | entered by a deal | balanced deals, '
            'player 1 leads | either leads | distinct deals | deals that never end (`exact`) |',
            '|---|---|---|---|---|---|---|---|---|---|---|']
    decks = (('standard', '52 cards', None), ('cards-14', '14 cards (`--ranks 7 --suits 2`)', (7, 2)),
             ('cards-16', '16 cards (`--ranks 8 --suits 2`)', (8, 2)))
    for name, deck, key in decks:
        s = load(f'bmn/census/{name}/census.json')
        start = 'random positions' if not s['cycles'] or s['cycles'][0]['round'] > 0 else \
            f"cycle `{s['cycles'][0]['id']}`"
        distinct = sum(c['distinct_deals'] for c in s['cycles'])
        rows.append(f"| {deck} | {start} | {n(s['tries'])} | {n(s['rounds'])} | {minutes(s['elapsed_s'])} "
                    f"| {n(len(s['cycles']))} | {s['reached_from_a_deal']} | {n(s['balanced_player_1_leads'])} "
                    f"| {n(s['balanced_either_leads'])} | {n(distinct)} | {n(exact[key]) if key else 'unknown'} |")
    big = load('bmn/census/standard/census.json')
    rows += ['', f"`search bmn --census --minutes` from seed 0 with 16 walkers on {m['cores']} cores ({m['cpu']}; "
             f"load average {m['load_before']} before, {m['load_after']} after). Its cycles, each counted from its "
             "canonical position with player 1 to lead (`results/bmn/census/standard/deals.txt` replays every deal):", '',
             '| cycle | tricks / cards | canonical position | found (round) | positions entering it, by depth '
             '| balanced deals, player 1 leads | either leads | one of them |',
             '|---|---|---|---|---|---|---|---|']
    # The cycles a balanced deal enters are listed one by one; the rest (a census can find
    # thousands) are counted by length, and census.json and cycles.txt list every one.
    dealt = [c for c in big['cycles'] if c['balanced_either_leads'] > 0]
    for c in dealt:
        one = c['deals'][0]['deal'] if c['deals'] else '-'
        depth = ' + '.join(n(d) for d in c['per_depth'])
        rows.append(f"| `{c['id']}` | {c['tricks']} / {n(c['cards'])} | `{c['position']}` | {c['by']} ({c['round']}) "
                    f"| {n(c['basin_positions'])} = {depth} | {c['balanced_player_1_leads']} "
                    f"| {c['balanced_either_leads']} | `{one}` |")
    rest = [c for c in big['cycles'] if c['balanced_either_leads'] == 0]
    if rest:
        lengths = sorted({c['cards'] for c in rest})
        rounds = sorted(c['round'] for c in rest)
        rows += ['', f"{n(len(rest))} more cycles that no balanced deal enters, of {n(lengths[0])} to {n(lengths[-1])} cards, found in rounds {n(rounds[0])} to "
                 f"{n(rounds[-1])}; `results/bmn/census/standard/cycles.txt` and census.json list every one."]
    grown = big.get('grown') or []
    if any(grown):
        top = max(k for k, c in enumerate(grown) if c)
        rows += ['', f"Insertion, grown from random positions of the 16-card deck (`--ranks 8 --suits 2`) toward the "
                 f"52 cards, one card at a time: it kept {n(sum(grown))} cycles of 16 to {top} cards "
                 f"({n(grown[top])} of {top} cards); " + ('none of 52.' if top < 52 else
                 f"{n(grown[52])} of 52, listed above as found by insertion.")]
    v = big.get('construction')
    if v:
        found = {c['id'] for c in big['cycles']}
        closed = ', '.join(f"`{c['id']}`" + ('' if c['id'] in found else ' (not found by the pool search)')
                           for c, _ in v['closed'])
        same = all(o[0] == o[1] for _, o in v['closed'])
        rows += ['', f"The exact construction over the pieces of Casella et al.'s half-period (lengths in tricks "
                 f"{'·'.join(str(p) for p in v['pieces'])}): {n(v['orders_per_half'])} orders of each half's pieces "
                 f"(the first kept first), of which {v['chaining'][0]} and {v['chaining'][1]} distinct ones chain; "
                 f"{n(v['periods'])} whole periods decided (the same order in both halves or mixed), and "
                 f"{len(v['closed'])} close: {closed}" + (", each with the same order in both halves." if same else ".")]
    return '\n'.join(rows)
