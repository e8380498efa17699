#!/usr/bin/env bash
# Builds what the node suites need beyond the control plane (scripts/build-control-plane.sh), once per machine:
#
#   kube-scheduler, kubelet, kube-proxy   of the control plane's release, from the Go module proxy, version-stamped
#   containerd                            Debian's package, fetched with `apt-get download` and unpacked (not installed)
#   pause, workload                       the two test images' static programs (test/nodes/images), keyed by source
#   registry                              the reference OCI registry (distribution) of a release, from the Go module
#                                         proxy: it runs inside the cluster's network namespace and serves the images
#                                         pods pull (`imagePullPolicy: Always`, pod-route's operator)
#
# Binaries land in $SPECFORGE_NODES_DIR (default: ~/.cache/specforge/nodes), linked at the repo's .cache/nodes.
# runc, the CNI plugins and iptables come from Debian's packages, installed system-wide (.ci/run does it):
#   apt-get install runc containernetworking-plugins iptables
set -euo pipefail

KUBE_VERSION="${KUBE_VERSION:-v1.34.4}"
REGISTRY_VERSION="${REGISTRY_VERSION:-v3.1.2}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${SPECFORGE_NODES_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/specforge/nodes}"
mkdir -p "$out"

if ! command -v go >/dev/null 2>&1; then
  echo "build-nodes: Go is not installed; install Go >= 1.24 to build kube-scheduler, kubelet, kube-proxy, the registry" >&2
  exit 1
fi
missing=()
for f in /usr/sbin/runc /usr/bin/runc; do [ -x "$f" ] && runc=$f; done
[ -n "${runc:-}" ] || missing+=(runc)
[ -x /usr/lib/cni/bridge ] || missing+=(containernetworking-plugins)
command -v iptables >/dev/null 2>&1 || missing+=(iptables)
command -v apt-get >/dev/null 2>&1 || missing+=(apt-get)
if [ ${#missing[@]} -gt 0 ]; then
  echo "build-nodes: missing ${missing[*]}: apt-get install runc containernetworking-plugins iptables" >&2
  exit 1
fi
export GOFLAGS="${GOFLAGS:-} -mod=mod"
export CGO_ENABLED=0

# shellcheck source=kube-build.sh
source "$root/scripts/kube-build.sh"

fetch_containerd() {
  if [ -x "$out/containerd/usr/bin/containerd" ]; then
    echo "containerd: cached at $out/containerd ($("$out/containerd/usr/bin/containerd" --version | cut -d' ' -f3))"
    return
  fi
  local d
  d="$(mktemp -d)"
  chmod 755 "$d" # apt fetches as its own user (_apt) where it can
  (cd "$d" && apt-get download -qq containerd 2>&1 | grep -v 'Download is performed unsandboxed' || true)
  rm -rf "$out/containerd.tmp"
  dpkg -x "$d"/containerd_*.deb "$out/containerd.tmp"
  mv "$out/containerd.tmp" "$out/containerd"
  rm -rf "$d"
  echo "containerd: $("$out/containerd/usr/bin/containerd" --version | cut -d' ' -f3) unpacked into $out/containerd"
}

# The test images' programs, keyed by a digest of their sources so an edit rebuilds them.
build_programs() {
  local src="$root/test/nodes/images" key p
  key="$(cd "$src" && find . -type f \( -name '*.go' -o -name go.mod \) -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-12)"
  for p in pause workload; do
    if [ -x "$out/$p-$key" ]; then echo "$p: cached at $out/$p-$key"; continue; fi
    (cd "$src" && go build -trimpath -ldflags "-s -w" -o "$out/$p-$key.tmp" "./$p")
    mv "$out/$p-$key.tmp" "$out/$p-$key"
    ln -sf "$p-$key" "$out/$p"
    echo "$p: built"
  done
  ln -sf "pause-$key" "$out/pause"
  ln -sf "workload-$key" "$out/workload"
}

# The registry of a release, keyed by its version (a binary that does not report it is rebuilt). `go install
# module@version` builds it with the module's own go.mod (v3.1 needs Go >= 1.26; GOTOOLCHAIN=auto fetches it).
build_registry() {
  local v=$REGISTRY_VERSION bin="$out/registry-$REGISTRY_VERSION" tmp
  if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q -- "$v\b"; then
    echo "registry $v: cached at $bin"
  else
    echo "registry $v: building (a few minutes on 2 cores)"
    tmp="$(mktemp -d)"
    GOFLAGS="" GOBIN="$tmp" go install -trimpath \
      -ldflags "-s -w -X github.com/distribution/distribution/v3/version.version=$v" \
      "github.com/distribution/distribution/v3/cmd/registry@$v"
    mv "$tmp/registry" "$bin"
    rm -rf "$tmp"
    echo "registry $v: built"
  fi
  ln -sf "registry-$v" "$out/registry"
}

fetch_containerd
build_programs
build_registry
kube_build "$out" "$KUBE_VERSION" kube-scheduler kubelet kube-proxy
for cmd in kube-scheduler kubelet kube-proxy; do ln -sf "$cmd-$KUBE_VERSION" "$out/$cmd"; done
mkdir -p "$root/.cache"
if [ "$(cd "$out" && pwd -P)" != "$(cd "$root/.cache" && pwd -P)/nodes" ]; then
  rm -rf "$root/.cache/nodes"
  ln -s "$out" "$root/.cache/nodes"
fi
echo "node components ready in $out"
