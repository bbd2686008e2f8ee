# scripts/apt.sh — Debian package helpers shared by scripts/deps.sh and
# bench/deps.sh (sourced, not run).
#
#   apt_missing PKG...        print the packages that are not installed
#   apt_install TAG PKG...    install them with apt-get, through sudo when not
#                             root; a clear message and exit 1 when neither works

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
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@"
}
