# Shared by the scripts (source it): where things are, building warsim, and installing the
# Debian packages a script needs when its program is missing (this machine and CI start bare).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
warsim=$root/target/release/warsim

build_warsim() {
  cargo build --release --quiet --manifest-path "$root/Cargo.toml"
}

# build_speed: for the scripts that publish speed figures, warsim built with Cargo.toml's
# `speed` profile (one codegen unit, thin LTO) into target/speed/warsim, and $warsim pointed
# at it. Their figures say which profile made them.
build_speed() {
  cargo build --profile speed --quiet --manifest-path "$root/Cargo.toml"
  warsim=$root/target/speed/warsim
}

# need PROGRAM PACKAGE...: installs PACKAGEs from Debian unless PROGRAM (a command name, or a
# path) is already there.
need() {
  local prog=$1
  shift
  if [[ $prog == */* ]]; then [ -x "$prog" ] && return 0; else command -v "$prog" >/dev/null && return 0; fi
  echo "installing $* from Debian (for $prog)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq "$@" >/dev/null
}

# war_paths: the War paths this CPU runs, fastest first, as core/src/games/war/fast.rs
# (Path::or_available) finds them: the AVX-512 block path needs F, BW, VL and VBMI2, the
# AVX-512 lanes DQ and POPCNT besides, the AVX2 lanes AVX2 and POPCNT; the scalar path runs
# everywhere. Scripts time these only, so no row is labelled with a path that fell back.
war_paths() {
  local flags paths= block=1 f
  flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
  for f in avx512f avx512bw avx512vl avx512_vbmi2; do
    [[ $flags == *" $f "* ]] || block=
  done
  if [ -n "$block" ] && [[ $flags == *" avx512dq "* && $flags == *" popcnt "* ]]; then
    paths="lanes "
  fi
  if [[ $flags == *" avx2 "* && $flags == *" popcnt "* ]]; then paths+="lanes-avx2 "; fi
  if [ -n "$block" ]; then paths+="avx512 "; fi
  echo "${paths}scalar"
}

# cpu_name: the CPU's model name and family (hex, as vendors number them: AMD's 19h is Zen 3
# and Zen 4), for the first line of each speed table.
cpu_name() {
  local name family model
  name=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)
  family=$(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | xargs)
  model=$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | cut -d: -f2 | xargs)
  printf '%s (family %xh, model %xh)\n' "$name" "$family" "$model"
}
