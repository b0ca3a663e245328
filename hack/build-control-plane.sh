#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kube-scheduler, kubelet,
# kube-proxy (and kubectl unless --no-kubectl) from the k8s.io/kubernetes Go
# module of the pinned release, into a cache outside the repo; first the pinned
# helm for the chart tests (hack/build-helm.sh). Idempotent: exits at once when
# the binaries exist.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"
CACHE_ROOT="${PLATFORM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-platform}"
OUT="$CACHE_ROOT/k8s-$K8S_VERSION"
WANT=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy)
[[ "${1:-}" == "--no-kubectl" ]] || WANT+=(kubectl)

# Not fatal here: without it only the chart tests fail, and they say how to build it.
bash "$HERE/build-helm.sh" || echo "warning: helm was not built; the chart tests need it (bash hack/build-helm.sh)" >&2

# A binary counts as built only with its stamp: the stamp is written after a
# build that embedded the release version (so `--version` and /version tell).
missing=()
for b in "${WANT[@]}"; do [[ -x "$OUT/$b" && -f "$OUT/.$b.v$K8S_VERSION" ]] || missing+=("$b"); done
if [[ ${#missing[@]} -eq 0 ]]; then echo "control plane binaries cached in $OUT"; exit 0; fi

if ! command -v go >/dev/null 2>&1; then
  echo "error: Go is not installed, so the local control plane cannot be built." >&2
  echo "       Install Go 1.24+ (https://go.dev/dl) or point KUBECONFIG at an existing cluster." >&2
  exit 2
fi

MINOR="${K8S_VERSION#1.}"          # 34.4
STAGING_VERSION="v0.$MINOR"        # v0.34.4
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export GOFLAGS=-mod=mod GOTOOLCHAIN=local GOWORK=off
cp "$HERE/k8s/go.mod" "$WORK/go.mod"
cd "$WORK"

# Staging modules are required as v0.0.0 by k8s.io/kubernetes; map each to its
# published tag. The list comes from the release's own go.mod.
modfile="$(go mod download -json "k8s.io/kubernetes@v$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')"
while read -r m; do
  go mod edit -replace "$m=$m@$STAGING_VERSION"
done < <(grep -E '^\s+k8s\.io/[a-z0-9-]+ v0\.0\.0$' "$modfile" | awk '{print $1}')
go mod edit -require "k8s.io/kubernetes@v$K8S_VERSION"

VPKG=k8s.io/component-base/version
CPKG=k8s.io/client-go/pkg/version
LDFLAGS="-s -w"
for pkg in $VPKG $CPKG; do
  LDFLAGS+=" -X $pkg.gitVersion=v$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=${MINOR%%.*}"
  LDFLAGS+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done

start=$(date +%s)
mkdir -p "$OUT"
echo "building ${missing[*]} $K8S_VERSION (first time only; 10-20 minutes on 2 cores)..."
pkgs=()
for b in "${missing[@]}"; do
  go get "k8s.io/kubernetes/cmd/$b@v$K8S_VERSION" >/dev/null 2>&1 || true
  pkgs+=("k8s.io/kubernetes/cmd/$b")
done
# One go build for all of them: shared packages compile once.
TMPOUT="$OUT/.build.tmp"
rm -rf "$TMPOUT" && mkdir -p "$TMPOUT"
if ! go build -trimpath -ldflags="$LDFLAGS" -o "$TMPOUT/" "${pkgs[@]}"; then
  echo "error: building ${missing[*]} failed; see above. Alternatively set KUBECONFIG to an existing cluster." >&2
  exit 3
fi
for b in "${missing[@]}"; do
  mv "$TMPOUT/$b" "$OUT/$b"
  touch "$OUT/.$b.v$K8S_VERSION"
done
rm -rf "$TMPOUT"
echo "built ${missing[*]} in $(( $(date +%s) - start ))s into $OUT"
du -sh "$OUT"/* || true
# Keep the module cache (re-downloads are slow) but drop the build cache.
go clean -cache || true
