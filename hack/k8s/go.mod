// Throwaway module used only by hack/build-control-plane.sh to build the
// pinned Kubernetes release. The script adds the require and replace lines in
// a temporary copy, so this file stays minimal.
module platform.local/hack/k8s

go 1.24
