# scripts/apt.sh — Debian package helpers shared by scripts/deps.sh and
# bench/deps.sh (sourced, not run).
#
#   apt_missing PKG...        print the packages that are not installed
#   apt_install TAG PKG...    install them with apt-get, through sudo when not
#                             root, waiting while another apt holds the lock; a
#                             clear message and exit 1 when neither works

apt_missing() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

apt_install() {
  local tag=$1; shift
  local sudo=()
  echo "$tag: installing Debian packages: $*"
  if [ "$(id -u)" -eq 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
  else
    echo "$tag: error: need root or passwordless sudo to install: $*" >&2
    echo "$tag: install them yourself with: sudo apt-get install $*" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt_waiting "$tag" "${sudo[@]}" apt-get update -qq
  apt_waiting "$tag" "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@"
}

# apt_waiting TAG CMD...: run an apt-get command; while another apt-get or
# dpkg holds the package lock (an unattended upgrade, a second make), wait
# for it -- up to 10 minutes, with one line saying so -- instead of failing.
apt_waiting() {
  local tag=$1 out i; shift
  for i in $(seq 120); do
    if out=$("$@" 2>&1); then
      [ -z "$out" ] || printf '%s\n' "$out"
      return 0
    fi
    if ! grep -qE "Could not get lock|Unable to lock|Unable to acquire the dpkg frontend lock" <<< "$out"; then
      printf '%s\n' "$out" >&2
      return 1
    fi
    [ "$i" -eq 1 ] && echo "$tag: another apt-get or dpkg holds the package lock; waiting for it (up to 10 minutes)" >&2
    sleep 5
  done
  printf '%s\n' "$out" >&2
  echo "$tag: the package lock was still held after 10 minutes" >&2
  return 1
}
