#!/usr/bin/env bash
# Mean rounds of N-player rock-paper-scissors elimination against N: warsim's simulation
# (GAMES games per N) beside the exact expectation warsim reports from the recurrence.
# Writes OUT_DIR/means.csv and OUT_DIR/means.png (gnuplot, installed from Debian when missing).
# Usage: scripts/rps-sweep.sh OUT_DIR [GAMES=1000000] [MAX_PLAYERS=12]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=$1
games=${2:-1000000}
max=${3:-12}
build_warsim
need gnuplot gnuplot-nox fonts-dejavu-core
mkdir -p "$out"
{
  echo "players,exact_mean,mean,ci95_lo,ci95_hi,games"
  for n in $(seq 2 "$max"); do
    "$warsim" simulate rps --players "$n" --games "$games" --seed "$n" --json |
      python3 -c 'import json,sys; d=json.load(sys.stdin); r=d["rounds"]
print(",".join(str(x) for x in [d["players"], d["exact"]["mean_rounds"], r["mean"], r["ci95"][0], r["ci95"][1], d["games"]]))'
  done
} > "$out/means.csv.tmp"
mv "$out/means.csv.tmp" "$out/means.csv"
gnuplot <<GP
set terminal pngcairo size 1000,620 font "DejaVu Sans,12"
set output "$out/means.png.tmp"
set datafile separator ","
set title "Rock-paper-scissors elimination: mean throws to one winner ($(python3 -c "print(f'{$games:,}')") games per N)"
set xlabel "players at the start (N)"
set ylabel "mean rounds (throws by all remaining players)"
set logscale y
set key top left
set grid
plot "$out/means.csv" every ::1 using 1:2 with lines lw 2 lc rgb "#c03030" title "exact (recurrence)", \
     "" every ::1 using 1:3:4:5 with yerrorbars pt 7 ps 1 lc rgb "#3060a0" title "simulated, 95% interval"
GP
mv "$out/means.png.tmp" "$out/means.png"
