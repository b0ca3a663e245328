#!/usr/bin/env bash
# Builds the pinned Helm 3 CLI (HELM_VERSION in versions.env) from its Go module
# into the cache next to the control-plane binaries, for the chart tests
# (`helm lint`, `helm template`). Idempotent: exits at once when it is there.
# Prints the binary's path on its last line.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"
CACHE_ROOT="${PLATFORM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/agent-platform}"
OUT="$CACHE_ROOT/helm-$HELM_VERSION"
BIN="$OUT/helm"

# Counts as built only with its stamp, written after `helm version` answered.
if [[ -x "$BIN" && -f "$OUT/.stamp-k8s-version" ]]; then
  echo "helm $HELM_VERSION cached in $BIN"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  echo "error: Go is not installed, so helm $HELM_VERSION cannot be built." >&2
  echo "       Install Go 1.24+ or put a helm $HELM_VERSION binary at $BIN." >&2
  exit 2
fi

echo "building helm $HELM_VERSION (first time only; a few minutes on 2 cores)..." >&2
start=$(date +%s)
mkdir -p "$OUT"
TMPBIN="$(mktemp -d)"
trap 'rm -rf "$TMPBIN"' EXIT
# The module's own go.mod is used as it is. Stamped as helm's Makefile does a
# release: its version, and the Kubernetes version `helm template` and `helm
# lint` assume (without it v1.20, below any chart's kubeVersion), from the
# k8s.io/client-go it is built with (v0.37.x is Kubernetes 1.37).
modfile="$(GOFLAGS=-mod=mod go mod download -json "helm.sh/helm/v3@v$HELM_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')"
client_go="$(awk '$1 == "k8s.io/client-go" { print $2 }' "$modfile")"
kube_minor="$(echo "$client_go" | cut -d. -f2)"
[[ "$kube_minor" =~ ^[0-9]+$ ]] || { echo "error: no k8s.io/client-go version in $modfile" >&2; exit 3; }
LDFLAGS="-s -w -X helm.sh/helm/v3/internal/version.version=v$HELM_VERSION"
LDFLAGS+=" -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
for pkg in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
  LDFLAGS+=" -X $pkg.k8sVersionMajor=1 -X $pkg.k8sVersionMinor=$kube_minor"
done
if ! GOBIN="$TMPBIN" GOFLAGS=-mod=mod GOWORK=off CGO_ENABLED=0 \
  go install -trimpath -ldflags="$LDFLAGS" "helm.sh/helm/v3/cmd/helm@v$HELM_VERSION"; then
  echo "error: building helm $HELM_VERSION failed; see above." >&2
  exit 3
fi
mv "$TMPBIN/helm" "$BIN"
"$BIN" version --short >/dev/null
touch "$OUT/.stamp-k8s-version"
echo "built helm $HELM_VERSION in $(($(date +%s) - start))s into $BIN"
