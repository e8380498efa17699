#!/usr/bin/env bash
# Builds the test control plane (kube-apiserver, kube-controller-manager and etcd) from the Go module proxy, once per
# machine.
#
# Binaries land in $SPECFORGE_CP_DIR (default: ~/.cache/specforge/control-plane, outside any clone, so every
# checkout on the machine shares one build), keyed by version, so a second run is a no-op. The repo's
# .cache/control-plane (git-ignored) is linked to it for the test harness. See README "Cluster tests".
set -euo pipefail

KUBE_VERSION="${KUBE_VERSION:-v1.34.4}"
ETCD_VERSION="${ETCD_VERSION:-v3.6.16}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${SPECFORGE_CP_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/specforge/control-plane}"
mkdir -p "$out"

if ! command -v go >/dev/null 2>&1; then
  echo "build-control-plane: Go is not installed; install Go >= 1.24 to build kube-apiserver, kube-controller-manager and etcd" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export GOFLAGS="${GOFLAGS:-} -mod=mod"
export CGO_ENABLED=0

# kube-apiserver and kube-controller-manager (garbage collection, rollouts) for the test control plane, and kubectl
# (with its built-in kustomize) of the same release, for the apply tests a user would run by hand.
# shellcheck source=kube-build.sh
source "$root/scripts/kube-build.sh"
build_kubernetes() { kube_build "$out" "$KUBE_VERSION" kube-apiserver kube-controller-manager kubectl; }

build_etcd() {
  local dest="$out/etcd-$ETCD_VERSION"
  if [ -x "$dest" ]; then echo "etcd $ETCD_VERSION: cached at $dest"; return; fi
  echo "etcd $ETCD_VERSION: building"
  local mod="$work/etcd"
  mkdir -p "$mod"
  (
    cd "$mod"
    go mod init specforge.local/etcd >/dev/null 2>&1
    cat > main.go <<'GO'
// Command etcd wraps the etcd server's own entry point so it can be built from the Go module proxy.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
GO
    go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION" >/dev/null
    go mod tidy >/dev/null
    go build -trimpath -ldflags "-s -w" -o "$dest.tmp" .
    mv "$dest.tmp" "$dest"
  )
  echo "etcd $ETCD_VERSION: built"
}

build_etcd
build_kubernetes
ln -sf "kube-apiserver-$KUBE_VERSION" "$out/kube-apiserver"
ln -sf "kube-controller-manager-$KUBE_VERSION" "$out/kube-controller-manager"
ln -sf "kubectl-$KUBE_VERSION" "$out/kubectl"
ln -sf "etcd-$ETCD_VERSION" "$out/etcd"
mkdir -p "$root/.cache"
if [ "$(cd "$out" && pwd -P)" != "$(cd "$root/.cache" && pwd -P)/control-plane" ]; then
  rm -rf "$root/.cache/control-plane"
  ln -s "$out" "$root/.cache/control-plane"
fi
echo "control plane ready in $out"
