#!/usr/bin/env bash
# The binary wheel of the Python package: built by maturin from a clean clone of this
# repository's HEAD (what is committed, nothing else of this checkout) as one abi3 wheel,
# cp39-abi3, which every CPython from 3.9 on takes; then, for each interpreter given
# (default: python3), a fresh venv with nothing of this machine's, the wheel installed into it
# (numpy, its one dependency, from the registry or pip's cache), `import warsim` and a 1-game
# simulate. Prints the wheel's name and size, the build time, and each install's time: that
# install compiles nothing, unlike `pip install .`, which builds the crate (minutes).
# Usage: scripts/python-wheel.sh [PYTHON...]     (e.g. python3.9 python3.13)
# The wheel is left in target/wheels/.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
pythons=("$@")
[ ${#pythons[@]} -gt 0 ] || pythons=(python3)
command -v maturin >/dev/null ||
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore maturin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/clone"
mkdir -p "$root/target/wheels"
# Seconds since `since` (an $EPOCHREALTIME), to a tenth.
seconds() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$EPOCHREALTIME"; }
start=$EPOCHREALTIME
# The clone builds into this checkout's target folder: its compiled dependencies are reused,
# and the crate itself is compiled from the clone's sources.
(cd "$work/clone" && CARGO_TARGET_DIR=$root/target maturin build --release --quiet \
  --out "$work/dist")
took=$(seconds "$start")
wheel=$(ls "$work"/dist/warsim-*.whl)
case $wheel in
  *-cp39-abi3-*) ;;
  *) echo "python-wheel: $wheel is not a cp39-abi3 wheel" >&2; exit 1 ;;
esac
cp "$wheel" "$root/target/wheels/"
echo "wheel     $(basename "$wheel") ($(( $(stat -c %s "$wheel") / 1024 )) kB), built in $took s"
cat > "$work/check.py" <<'PY'
import sys

import warsim

r = warsim.simulate("war", games=1, seed=0)
assert r.summary["games"] == 1, r.summary
assert warsim.__file__.startswith(sys.prefix), f"not the venv's: {warsim.__file__}"
print(f"Python {sys.version.split()[0]}: import warsim {warsim.__version__}, "
      f"simulate('war', games=1): {r.summary['rounds']['max']} rounds")
PY
for py in "${pythons[@]}"; do
  venv=$work/venv-$(basename "$py")
  "$py" -m venv "$venv"
  start=$EPOCHREALTIME
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "$wheel"
  took=$(seconds "$start")
  # Run from the empty work folder, so the package imported is the installed one.
  played=$(cd "$work" && "$venv/bin/python" check.py)
  echo "install   $(basename "$py"): $took s (pip install of the wheel, numpy with it); $played"
done
