#!/usr/bin/env bash
# Installs what the local cluster and the tests need from Debian's packages,
# once: etcd (control plane), containerd + runc + CNI plugins + nftables +
# iproute2 + iptables (the node), gcc + libc6-dev (the static pause binary),
# PostgreSQL (the store tests). Idempotent and quiet when all is there.
# Without root or apt-get it lists what is missing and exits 2; callers fall
# back (npm start runs the control plane alone) or fail with that line.
set -euo pipefail
PACKAGES=(etcd-server containerd runc containernetworking-plugins nftables iproute2 iptables gcc libc6-dev postgresql)
need=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
[[ ${#need[@]} -eq 0 ]] && exit 0
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
