#!/usr/bin/env bash
# Makes the canonical runs in results/ and the tables of README.md and docs/ drawn from them
# (scripts/readme_tables.py rewrites every file holding a table's markers).
# Usage: scripts/make-results.sh [war ...]   (default: every section; war-presets is war
# without the comparison with R)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$root"
build_warsim
sections=${*:-war war-rules war-literature war-players war-experiments war-exact war-quit snap shotgun rps jitsu bmn}

for section in $sections; do
  case $section in
    war | war-presets)
      # war-presets: the two canonical runs alone; war adds the comparison with R (which
      # installs R when missing).
      for preset in classic bryer; do
        echo "make-results: war $preset, 10,000,000 games" >&2
        $warsim simulate war --rules "$preset" --games 10000000 --seed 0 --out "results/war-$preset"
      done
      if [ "$section" = war ]; then
        scripts/compare-r.sh 100000 1000000 2000 results/war-bryer-vs-r
      fi
      ;;
    war-rules) scripts/war-rules.sh results/war-rules 1000000 ;;
    war-literature) scripts/war-literature.sh results/war-literature ;;
    war-players) scripts/war-players.sh results/war-players ;;
    war-exact) scripts/war-exact.sh results/war-exact ;;
    war-quit) scripts/war-quit.sh results/war-quit ;;
    war-experiments)
      scripts/war-experiments.sh results/war-experiments
      scripts/deck-speed.sh > results/deck-speed.txt
      ;;
    snap)
      for cfg in "2 13 4" "3 13 3" "4 4 4"; do
        set -- $cfg
        $warsim simulate snap --players "$1" --faces "$2" --copies "$3" --games 1000000 --seed 0 \
          --out "results/snap-${1}p-${2}x${3}"
      done
      ;;
    shotgun)
      $warsim simulate shotgun --games 10000000 --seed 0 --out results/shotgun-uniform
      $warsim simulate shotgun --mix 0.5,0.25,0.25 --games 10000000 --seed 0 --out results/shotgun-half-reload
      ;;
    rps)
      $warsim simulate rps --players 10 --games 1000000 --seed 0 --out results/rps-10
      scripts/rps-sweep.sh results/rps-sweep 1000000 12
      ;;
    jitsu)
      for strategy in random greedy; do
        $warsim simulate jitsu --strategy "$strategy" --games 1000000 --seed 0 --out "results/jitsu-$strategy"
      done
      ;;
    bmn) scripts/bmn-results.sh results/bmn ;;
    *) echo "make-results: unknown section $section" >&2; exit 2 ;;
  esac
done
python3 scripts/readme_tables.py
