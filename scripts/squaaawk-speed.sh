#!/usr/bin/env bash
# warsim beside the peer program squaaawk/war on one thread, side by side (issue 25): the peer's
# "Standard war (shuffled)" game; warsim's classic preset (`simulate war`, the default preset)
# and the peer's rules (`--pickup won-pile --short-war last-card --war-down 3`, docs/war.md,
# "Experiments from other simulators"), each on every War path this CPU runs (lib.sh's
# war_paths: of WARSIM_PATH=lanes, lanes-avx2, avx512 and scalar). REPS rounds of alternating
# runs; the median and lowest-highest games/s of each and the ratios to the peer. Writes the
# table on stdout: scripts/squaaawk-speed.sh 5 PEER_DIR > results/squaaawk-speed.txt
# Usage: scripts/squaaawk-speed.sh [REPS=5] [PEER_DIR] [CLASSIC_GAMES=1000000]
#          [WON_PILE_GAMES=500000]
#   PEER_DIR: a git clone, or a bare git directory, of github.com/squaaawk/war (this script
#   never fetches: `git clone https://github.com/squaaawk/war DIR` makes one); its HEAD is
#   timed. Without it (or with "") only warsim is timed, and stderr says how to pass the peer.
#   (The game counts give warsim runs of about 1-2 s on one thread; the won-pile rules play
#   about half as many games per second as classic.)
#
# The peer is not a dependency of warsim: it is built here from PEER_DIR, its HEAD extracted
# into a temporary directory and
# built with `cargo build --release` from its own Cargo.toml and Cargo.lock (offline when the
# crates are cached, else cargo downloads them), into target/squaaawk-war so its dependencies
# are built once. Its src/sim.rs (the game) is used unchanged. Its src/main.rs gets three edits,
# none of them in what is timed: standard_games returns after its first block, "Standard war
# (shuffled)", and main no longer calls small_games (otherwise the program goes on through nine
# more setups and a 130-cell table, minutes of single-thread work after the block we time); and
# that first block saves no standard_war.json (the file is written after the block has read its
# clock, so the printed time is the same; without it the process's CPU time is the block's).
#
# Times. The peer reads its own clock (wall time, std::time::Instant) around its game loop and
# prints "N games in ELAPSED"; its "own clock" figure is N / ELAPSED. Its CPU figure is N over
# the whole process's user + sys time (/usr/bin/time, to 10 ms, under 1% of a run: the block,
# plus about a millisecond of start-up). warsim's CPU figure is games over the process's user +
# sys time, as scripts/lanes-speed.sh measures it, and its own-clock figure is the JSON's
# games_per_s (wall time around the simulation). CPU time is the one to compare on this shared
# machine (other jobs stretch wall time); the ratios are taken CPU to CPU and own clock to own
# clock.
#
# The peer's game count is adaptive: it plays games in batches, 900 then +100 up to 1,000, +1,000
# up to 10,000, +10,000 up to 100,000, +100,000 up to 1,000,000 and so on, and reads its clock
# only between batches, stopping once more than 1 s has passed. So it plays a round number of
# games (300,000 at about 230,000 games/s) and runs for 1 s plus up to one batch (about 1.3 s
# here); its figure is still games over the time they took. It seeds itself from the system
# (fastrand's Rng::new), so its games differ from run to run; warsim's runs use --seed 1.
#
# Rules check: the peer counts a turn also when a player turns out to have no card, one more than
# warsim's rounds (docs/war.md), so the footer sets the peer's mean turns (pooled over its runs)
# beside warsim's mean rounds + 1 under the peer's rules (the same on every path; one seed).
# Without PEER_DIR the footer gives warsim's figure alone.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
reps=${1:-5}
peer_dir=${2:-}
classic_games=${3:-1000000}
won_pile_games=${4:-500000}
if [ -n "$peer_dir" ] && ! git -C "$peer_dir" rev-parse --verify -q HEAD >/dev/null 2>&1; then
  echo "squaaawk-speed: $peer_dir is not a git clone (or bare git directory) of squaaawk/war" >&2
  exit 2
fi
if [ -z "$peer_dir" ]; then
  echo "squaaawk-speed: warsim only; to time squaaawk/war beside it, pass a clone as PEER_DIR:" \
    "git clone https://github.com/squaaawk/war DIR; scripts/squaaawk-speed.sh $reps DIR" >&2
fi
build_speed
need /usr/bin/time time
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

progs=()
for rules in classic won-pile; do
  for p in $(war_paths); do progs+=("$rules-$p"); done
done
if [ -n "$peer_dir" ]; then
  # The peer: extract, edit main.rs as described above (each edit must match exactly once), build.
  peer_commit=$(git -C "$peer_dir" rev-parse HEAD)
  mkdir "$tmp/war"
  git -C "$peer_dir" archive HEAD | tar -x -C "$tmp/war"
  python3 - "$tmp/war/src/main.rs" <<'EOF'
import sys
path = sys.argv[1]
src = open(path).read()
edits = [
    # After the first block ("Standard war (shuffled)"), leave standard_games.
    ('  println!();\n  println!("Standard war (evenly split):");',
     '  return;\n  println!();\n  println!("Standard war (evenly split):");'),
    # Skip the small-games table.
    ('  standard_games();\n  small_games();\n', '  standard_games();\n'),
    # No standard_war.json (written after the block's clock is read).
    ('simulate(Some("standard_war.json"), Params::default()', 'simulate(None, Params::default()'),
]
for old, new in edits:
    if src.count(old) != 1:
        sys.exit(f"squaaawk-speed: the peer's src/main.rs changed; cannot apply: {old!r}")
    src = src.replace(old, new)
open(path, "w").write(src)
EOF
  export CARGO_TARGET_DIR=$root/target/squaaawk-war
  peer_build=(cargo build --release --quiet --manifest-path "$tmp/war/Cargo.toml")
  # Its main.rs edits leave two warnings (unreachable code, small_games unused): cargo's messages
  # are shown only when the build fails.
  if ! "${peer_build[@]}" --offline 2>"$tmp/build.log" &&
    ! "${peer_build[@]}" 2>"$tmp/build.log"; then
    cat "$tmp/build.log" >&2
    exit 1
  fi
  peer=$CARGO_TARGET_DIR/release/war
  unset CARGO_TARGET_DIR
  progs=(peer "${progs[@]}")
fi

wp=(--pickup won-pile --short-war last-card --war-down 3)

# run PROG: appends "PROG games cpu_s own_games_per_s mean sd" to $tmp/all
run() {
  local games
  case $1 in
    peer)
      (cd "$tmp" && /usr/bin/time -f "%U %S" -o "$tmp/t" "$peer" >"$tmp/out")
      # "  300,000 games in 1.300663026s" / "  mean turns: 268.59 +/- 218.04"
      read -r games own < <(awk '/ games in / {
          n = $1; gsub(",", "", n); e = $4
          if (e ~ /ms$/) { sub("ms", "", e); e /= 1000 } else { sub("s", "", e) }
          print n, n / e }' "$tmp/out")
      read -r mean sd < <(awk '/mean turns:/ {print $3, $5}' "$tmp/out")
      ;;
    *)
      local path=${1#classic-} rules=()
      games=$classic_games
      if [[ $1 == won-pile-* ]]; then
        path=${1#won-pile-} rules=("${wp[@]}") games=$won_pile_games
      fi
      /usr/bin/time -f "%U %S" -o "$tmp/t" env "WARSIM_PATH=$path" "$warsim" simulate war \
        ${rules[@]+"${rules[@]}"} --games "$games" --seed 1 --threads 1 --json >"$tmp/out"
      read -r own mean sd < <(python3 -c 'import json,sys; s=json.load(sys.stdin)
print(s["games_per_s"], s["rounds"]["mean"], s["rounds"]["sd"])' <"$tmp/out")
      ;;
  esac
  echo "$1 $games $(awk '{print $1 + $2}' "$tmp/t") $own $mean $sd" >>"$tmp/all"
}
for _ in $(seq "$reps"); do
  for p in "${progs[@]}"; do run "$p"; done
done

echo "machine: $(nproc) cores, $(cpu_name);" \
  "1 thread; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -n "$peer_dir" ]; then
  echo "squaaawk/war $peer_commit (its first block only, see scripts/squaaawk-speed.sh);" \
    "warsim $classic_games classic games, $won_pile_games won-pile games per run, --seed 1"
else
  echo "squaaawk/war not run (no PEER_DIR, see scripts/squaaawk-speed.sh);" \
    "warsim $classic_games classic games, $won_pile_games won-pile games per run, --seed 1"
fi
echo "median of $reps alternating runs; games/s from CPU time (user + sys, lowest-highest) and" \
  "from each program's own wall clock"
python3 - "$tmp/all" <<'EOF'
import math, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    p, games, cpu, own, mean, sd = line.split()
    rows.setdefault(p, []).append((int(games), float(cpu), float(own), float(mean), float(sd)))
peer = "peer" in rows  # without PEER_DIR: warsim's rows only, no ratios
label = {"peer": "squaaawk/war standard (shuffled)"} if peer else {}
for p in rows:
    if p.startswith("classic-"):
        label[p] = f"warsim classic [{p.removeprefix('classic-')}]"
    elif p.startswith("won-pile-"):
        label[p] = f"warsim won-pile last-card 3 [{p.removeprefix('won-pile-')}]"
def rates(p):
    cpu = sorted(g / c for g, c, *_ in rows[p])
    own = statistics.median(o for _, _, o, *_ in rows[p])
    return statistics.median(cpu), cpu[0], cpu[-1], own
if peer:
    peer_cpu, _, _, peer_own = rates("peer")
    print(f"{'run':<38} {'games/s CPU':>12} {'range':>17} {'vs peer':>8} {'games/s own':>12}"
          f" {'vs peer':>8}")
else:
    print(f"{'run':<38} {'games/s CPU':>12} {'range':>17} {'games/s own':>12}")
for p in label:
    cpu, lo, hi, own = rates(p)
    if peer:
        print(f"{label[p]:<38} {cpu:12.0f} {f'{lo:.0f}-{hi:.0f}':>17} {cpu / peer_cpu:7.2f}x"
              f" {own:12.0f} {own / peer_own:7.2f}x")
    else:
        print(f"{label[p]:<38} {cpu:12.0f} {f'{lo:.0f}-{hi:.0f}':>17} {own:12.0f}")
# Rules check: the peer's mean turns pooled over its runs (weighted by games, with the standard
# error of the pooled games), beside warsim's mean rounds + 1 under the same rules.
won_pile = [p for p in rows if p.startswith("won-pile-")]
w = rows[won_pile[0]][0]
same = all(r[3] == w[3] for q in won_pile for r in rows[q])
wse = w[4] / math.sqrt(w[0])
if not peer:
    print(f"rules check: squaaawk/war not run; warsim won-pile mean rounds {w[3]:.2f} + 1 ="
          f" {w[3] + 1:.2f} (se {wse:.2f}, {w[0]:,} games,"
          f" {'the same' if same else 'DIFFERENT'} on every path)")
    sys.exit(0)
n = sum(g for g, *_ in rows["peer"])
m = sum(g * mean for g, _, _, mean, _ in rows["peer"]) / n
var = sum(g * (sd * sd + (mean - m) ** 2) for g, _, _, mean, sd in rows["peer"]) / n
se = math.sqrt(var / n)
z = (w[3] + 1 - m) / math.hypot(se, wse)
print(f"rules check: squaaawk/war mean turns {m:.2f} (se {se:.2f}, {n:,} games over"
      f" {len(rows['peer'])} runs); warsim won-pile mean rounds {w[3]:.2f} + 1 = {w[3] + 1:.2f}"
      f" (se {wse:.2f},"
      f" {w[0]:,} games, {'the same' if same else 'DIFFERENT'} on every path); z = {z:+.2f}")
EOF
