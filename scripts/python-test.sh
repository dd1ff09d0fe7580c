#!/usr/bin/env bash
# The Python package: installs what it needs from PyPI when missing (maturin, pytest, numpy,
# pandas, matplotlib), installs warsim from this checkout with docs/python.md's command
# (`pip install '.[notebook]'`), and runs its tests with pytest from outside the source tree, so
# that the installed package (with its compiled extension) is the one tested. The tests compare
# it with target/release/warsim, which this script builds.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
build_warsim
python3 -c 'import maturin, pytest, numpy, pandas, matplotlib' 2>/dev/null ||
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore maturin pytest numpy pandas matplotlib
python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore "$root[notebook]"
cd "$(mktemp -d)"
WARSIM=$warsim python3 -m pytest -q -p no:cacheprovider "$root/python/tests"
