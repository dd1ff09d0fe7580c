#!/usr/bin/env bash
# Deck War under every common house rule: war-down 1 and 3 × short-war lose and last-card ×
# every pickup, GAMES deals each (the same deals for every rule set: seed 0), as one
# `warsim sweep`. Writes OUT_DIR/sweep.json, sweep.csv, sweep.png (survival), means.png and one
# output directory per rule set; the table of docs/war.md is made from sweep.json.
# Usage: scripts/war-rules.sh [OUT_DIR=results/war-rules] [GAMES=1000000]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:-$root/results/war-rules}
games=${2:-1000000}
build_warsim
"$warsim" sweep war --war-down 1,3 --short-war lose,last-card \
  --pickup shuffled,won-pile,p1-first,table,winner-first,loser-first \
  --games "$games" --seed 0 --out "$out"
