#!/usr/bin/env bash
# End-to-end cluster for users with Docker: a kind cluster on the pinned
# Kubernetes release, the operator image loaded into it, and config/overlays/dev
# applied. Not used by CI (no Docker engine there).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
source "$HERE/versions.env"
CLUSTER="${KIND_CLUSTER:-platform}"
IMAGE="${IMAGE:-platform-operator:dev}"

for tool in docker kind kubectl; do
  command -v "$tool" >/dev/null || { echo "error: $tool is required for the kind cluster" >&2; exit 2; }
done

if ! kind get clusters | grep -qx "$CLUSTER"; then
  kind create cluster --name "$CLUSTER" --image "kindest/node:v$K8S_VERSION" --wait 120s
fi
docker build -t "$IMAGE" "$HERE/.."
kind load docker-image "$IMAGE" --name "$CLUSTER"
kubectl apply -k "$HERE/../config/overlays/dev"
kubectl -n platform-system rollout status deploy/platform-operator --timeout=180s
echo "kind cluster '$CLUSTER' ready: kubectl get platform -A"
