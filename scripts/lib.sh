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
