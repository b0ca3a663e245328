#!/usr/bin/env bash
# Installs what the local cluster and the tests need from Debian's packages,
# once: etcd (control plane), containerd + runc + CNI plugins + nftables +
# iproute2 + iptables (the node), gcc + libc6-dev (the static pause binary),
# PostgreSQL (the store tests), python3-venv (for the next), shellcheck (the
# test that lints hack/*.sh), chromium (the UI tests drive it with
# playwright-core; no browser download); then, from PyPI,
# the pinned Schemathesis (the API fuzzer the integration suite runs) into a
# venv under the cache dir. Idempotent and quiet when all is there.
# Without root or apt-get it lists what is missing and exits 2; callers fall
# back (npm start runs the control plane alone) or fail with that line.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"
CACHE_ROOT="${PLATFORM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-platform}"
PACKAGES=(etcd-server containerd runc containernetworking-plugins nftables iproute2 iptables gcc libc6-dev postgresql python3-venv shellcheck chromium)

debian_packages() {
  local need=() p svc
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
  done
  [[ ${#need[@]} -eq 0 ]] && return 0
  if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "prerequisites missing: ${need[*]} (install them with your package manager; apt-get needs root)" >&2
    exit 2
  fi
  echo "installing ${need[*]} (first run only)..." >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  # Debian starts services from postinst where it can; the project runs its own.
  for svc in containerd postgresql; do
    if command -v service >/dev/null 2>&1; then service "$svc" stop >/dev/null 2>&1 || true; fi
  done
}

# The venv is complete only once its marker exists: an interrupted install is redone.
schemathesis() {
  local venv="$CACHE_ROOT/schemathesis-venv"
  local marker="$venv/.installed-$SCHEMATHESIS_VERSION"
  [[ -f "$marker" ]] && return 0
  echo "installing schemathesis $SCHEMATHESIS_VERSION into $venv (first run only)..." >&2
  rm -rf "$venv"
  mkdir -p "$CACHE_ROOT"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >/dev/null
  "$venv/bin/st" --version >/dev/null
  touch "$marker"
}

debian_packages
schemathesis
