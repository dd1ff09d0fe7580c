#!/usr/bin/env bash
# What a newcomer waits for: the README's two commands timed from a fresh clone of this
# checkout's HEAD, with an empty target folder (the crates already downloaded into cargo's
# cache, as after any first fetch), on this machine; then the same two with the `speed`
# profile in place of `release`, for the cost of the profile the speed figures use. Run it on
# a quiet machine. Usage: scripts/build-times.sh OUT [PROFILES] (default: "release speed")
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:?usage: scripts/build-times.sh OUT [PROFILES]}
profiles=${2:-release speed}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/clone"
cd "$work/clone"
cargo fetch --quiet
secs() { local s; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || { echo "build-times: failed: $*" >&2; return 1; }; awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
{
  echo "# scripts/build-times.sh at $(git rev-parse --short HEAD), $(date -u +%Y-%m-%d)"
  echo "# CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores"
  for profile in $profiles; do
    export CARGO_TARGET_DIR=$work/target-$profile
    flag=(--profile "$profile")
    first=$(secs cargo build "${flag[@]}")
    run=$(secs "$CARGO_TARGET_DIR/$profile/warsim" simulate war --out "$work/war-$profile" --quiet)
    tests=$(secs cargo test "${flag[@]}")
    printf '%-8s first command: build %6.1f s + run %5.1f s; then cargo test: %6.1f s\n' \
      "$profile" "$first" "$run" "$tests"
  done
} | tee "$out"
