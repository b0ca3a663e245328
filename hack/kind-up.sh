#!/usr/bin/env bash
# A kind cluster with the platform installed as a user would, for users with
# Docker: creates the cluster (unless it exists), builds the images with the
# Dockerfile under their local names (docs/images.md), loads them into the
# node, and installs config/overlays/dev (or, with --helm, the chart with
# values-dev.yaml), then waits for the three roles. Not used by CI (no Docker
# engine there); hack/kind-e2e.sh runs it and then the samples.
#   hack/kind-up.sh [--helm]
# Environment: KIND_CLUSTER (platform), KIND_NODE_IMAGE (kindest/node at the
# pinned release), SKIP_BUILD=1 (load images already built), KUBECTL, HELM.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
# shellcheck source=versions.env
source "$HERE/versions.env"
CLUSTER="${KIND_CLUSTER:-platform}"
NODE_IMAGE="${KIND_NODE_IMAGE:-kindest/node:v$K8S_VERSION}"
PLATFORM_IMAGE=localhost/agent-platform/platform:dev
AGENT_IMAGE=localhost/agent-platform/agent-runtime:dev
NAMESPACE=platform-system
KUBECTL="${KUBECTL:-kubectl}"
HELM="${HELM:-helm}"
MODE=kustomize

usage() { echo "usage: hack/kind-up.sh [--helm]" >&2; exit 2; }
for arg in "$@"; do
  case "$arg" in
    --helm) MODE=helm ;;
    *) usage ;;
  esac
done

need() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool is required (hack/kind-up.sh)" >&2; exit 2; }
  done
}

create_cluster() {
  if kind get clusters 2>/dev/null | grep -qx "$CLUSTER"; then
    echo "kind cluster $CLUSTER exists"
  else
    kind create cluster --name "$CLUSTER" --image "$NODE_IMAGE" --wait 180s
  fi
  "$KUBECTL" config use-context "kind-$CLUSTER" >/dev/null
}

# The agent runtime is the platform image with its own command (docs/images.md).
build_images() {
  docker build -t "$PLATFORM_IMAGE" "$ROOT"
  printf 'FROM %s\nLABEL org.opencontainers.image.title="agent-platform-agent-runtime"\nCMD ["run", "agent"]\n' \
    "$PLATFORM_IMAGE" | docker build -t "$AGENT_IMAGE" -
}

install_kustomize() {
  # CRDs first, established before anything that refers to them.
  "$KUBECTL" apply --server-side -k "$ROOT/config/crds"
  "$KUBECTL" wait --for=condition=Established crd --all --timeout=60s
  "$KUBECTL" apply --server-side -k "$ROOT/config/overlays/dev"
}

install_helm() {
  "$HELM" upgrade --install platform "$ROOT/charts/agent-platform" \
    --namespace "$NAMESPACE" --create-namespace \
    -f "$ROOT/charts/agent-platform/values-dev.yaml" --wait --timeout 5m
}

main() {
  need docker kind "$KUBECTL"
  [[ "$MODE" == helm ]] && need "$HELM"
  create_cluster
  [[ "${SKIP_BUILD:-}" == 1 ]] || build_images
  kind load docker-image "$PLATFORM_IMAGE" "$AGENT_IMAGE" --name "$CLUSTER"
  if [[ "$MODE" == helm ]]; then install_helm; else install_kustomize; fi
  local d
  for d in platform-operator platform-webhook platform-verifier; do
    "$KUBECTL" -n "$NAMESPACE" rollout status "deploy/$d" --timeout=300s
  done
  echo "kind cluster '$CLUSTER' ready ($MODE): $KUBECTL get platform -A"
}

main
