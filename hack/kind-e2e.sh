#!/usr/bin/env bash
# The install path end to end on kind, for users with Docker: for each variant
# (the dev overlay with kubectl, then the Helm chart with values-dev.yaml) a
# fresh kind cluster, the locally built images loaded, the platform installed
# (hack/kind-up.sh), the platform image's local model as the agents' model,
# config/samples applied; then it waits for the sample agent release-bot to be
# Ready with its sidecars injected and makes one governed call from inside its
# pod (the reference agent's /v1/ask: model call through the auditor chain,
# Evidence recorded). Prints PASS or FAIL per variant and deletes the clusters.
#   hack/kind-e2e.sh [kustomize|helm|all]      (default all)
# Environment: KEEP_CLUSTER=1 keeps the last cluster; KIND_NODE_IMAGE, KUBECTL,
# HELM as for hack/kind-up.sh. Not run by CI (no Docker engine there).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
KUBECTL="${KUBECTL:-kubectl}"
NAMESPACE=platform-system
CLUSTER=platform-e2e
MODEL_PORT=11434
MODEL_URL="http://platform-model.$NAMESPACE.svc:$MODEL_PORT/v1"
MODEL_IDS=local-echo,gpt-4o,gpt-4o-mini,claude-sonnet,llama-3-8b
AGENT=release-bot
AGENT_NAMESPACE=default

case "${1:-all}" in
  kustomize | helm) VARIANTS=("$1") ;;
  all) VARIANTS=(kustomize helm) ;;
  *) echo "usage: hack/kind-e2e.sh [kustomize|helm|all]" >&2; exit 2 ;;
esac

# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  if [[ "${KEEP_CLUSTER:-}" == 1 ]]; then
    echo "keeping kind cluster $CLUSTER (kind delete cluster --name $CLUSTER)"
  else
    kind delete cluster --name "$CLUSTER" >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

# The local deterministic model (`platform run model`) in the platform
# namespace, and the webhook and operator pointed at it: agents' model calls
# are redirected to their gateway by port, and the gateway calls this URL.
local_model() {
  "$KUBECTL" -n "$NAMESPACE" apply -f - <<EOF
apiVersion: apps/v1
kind: Deployment
metadata: { name: platform-model, labels: { app.kubernetes.io/name: platform-model } }
spec:
  selector: { matchLabels: { app.kubernetes.io/name: platform-model } }
  template:
    metadata: { labels: { app.kubernetes.io/name: platform-model } }
    spec:
      securityContext: { runAsNonRoot: true, runAsUser: 10001 }
      containers:
        - name: model
          image: localhost/agent-platform/platform:dev
          imagePullPolicy: IfNotPresent
          args: [run, model]
          env:
            - { name: PORT, value: '$MODEL_PORT' }
            - { name: PLATFORM_MODEL_IDS, value: '$MODEL_IDS' }
          ports: [{ name: http, containerPort: $MODEL_PORT }]
          readinessProbe: { httpGet: { path: /readyz, port: http } }
---
apiVersion: v1
kind: Service
metadata: { name: platform-model }
spec:
  selector: { app.kubernetes.io/name: platform-model }
  ports: [{ name: http, port: $MODEL_PORT, targetPort: http }]
EOF
  "$KUBECTL" -n "$NAMESPACE" rollout status deploy/platform-model --timeout=180s
  "$KUBECTL" -n "$NAMESPACE" set env deploy/platform-webhook \
    "PLATFORM_MODEL_URL=$MODEL_URL" "PLATFORM_WEBHOOK_MODEL_PORTS=$MODEL_PORT"
  "$KUBECTL" -n "$NAMESPACE" set env deploy/platform-operator "PLATFORM_MODEL_URL=$MODEL_URL"
  local d
  for d in platform-webhook platform-operator; do
    "$KUBECTL" -n "$NAMESPACE" rollout status "deploy/$d" --timeout=300s
  done
}

# Ready agent, and its pod carries more than the agent container: the webhook injected it.
agent_injected() {
  "$KUBECTL" -n "$AGENT_NAMESPACE" wait "platformagent/$AGENT" --for=condition=Ready --timeout=420s
  local containers
  containers="$("$KUBECTL" -n "$AGENT_NAMESPACE" get pod "agent-$AGENT" \
    -o jsonpath='{.spec.initContainers[*].name} {.spec.containers[*].name}')"
  echo "pod agent-$AGENT: $containers"
  [[ "$(wc -w <<<"$containers")" -gt 1 ]] || { echo "no sidecars injected" >&2; return 1; }
  "$KUBECTL" get pods -A -l platform.io/secured=true
}

# One call through the reference agent inside its pod: node's fetch (the image has no curl).
governed_call() {
  local script answer
  script='fetch("http://127.0.0.1:8080/v1/ask", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ prompt: "What is 2+2?" }) })
    .then(async (r) => { const b = await r.json(); console.log(JSON.stringify({ http: r.status, decision: b.decision, evidence_id: b.evidence_id })); })
    .catch((e) => { console.error(String(e)); process.exit(1); });'
  answer="$("$KUBECTL" -n "$AGENT_NAMESPACE" exec "agent-$AGENT" -c agent -- node -e "$script")"
  echo "governed call: $answer"
  grep -q '"http":200' <<<"$answer" && grep -q '"decision":"allow"' <<<"$answer" &&
    grep -Eq '"evidence_id":"[^"]+"' <<<"$answer"
}

variant() {
  local mode="$1" flag=()
  [[ "$mode" == helm ]] && flag=(--helm)
  kind delete cluster --name "$CLUSTER" >/dev/null 2>&1 || true
  KIND_CLUSTER="$CLUSTER" bash "$HERE/kind-up.sh" "${flag[@]}"
  local_model
  "$KUBECTL" apply -f "$ROOT/config/samples/"
  agent_injected
  governed_call
}

declare -A RESULT=()
built=0
for mode in "${VARIANTS[@]}"; do
  echo "=== $mode"
  # Build once; the second variant loads the same images.
  if (( built )); then export SKIP_BUILD=1; fi
  if (variant "$mode"); then RESULT[$mode]=PASS; else RESULT[$mode]=FAIL; fi
  built=1
done

status=0
for mode in "${VARIANTS[@]}"; do
  echo "kind-e2e $mode: ${RESULT[$mode]}"
  [[ "${RESULT[$mode]}" == PASS ]] || status=1
done
exit "$status"
