# Sourced by build-control-plane.sh and build-nodes.sh: builds Kubernetes commands of one release from the Go module
# proxy, stamped with their version.
#
# kube_build OUT VERSION CMD...: builds each CMD (kube-apiserver, kubelet, ...) into OUT/CMD-VERSION unless a binary
# there already reports VERSION. Without the -X version flags every component reports `v0.0.0-master+$Format:%H$`:
# nodes show that VERSION, and `kubectl version` fails to parse it; a binary built so is rebuilt here.

# kube_stamped BIN VERSION: true when BIN reports VERSION (`kubectl version --client`, the others `--version`).
kube_stamped() {
  local bin=$1 version=$2 out
  [ -x "$bin" ] || return 1
  case "$(basename "$bin")" in
    kubectl*) out="$("$bin" version --client 2>/dev/null || true)" ;;
    *) out="$("$bin" --version 2>/dev/null || true)" ;;
  esac
  grep -q -- "$version\b" <<<"$out"
}

kube_build() {
  local out=$1 version=$2; shift 2
  local missing=() cmd
  for cmd in "$@"; do
    if kube_stamped "$out/$cmd-$version" "$version"; then
      echo "$cmd $version: cached at $out/$cmd-$version"
    else
      missing+=("$cmd")
    fi
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "${missing[*]} $version: building (several minutes on 2 cores)"
  local mod
  mod="$(mktemp -d)"
  (
    cd "$mod"
    go mod init specforge.local/kubernetes >/dev/null 2>&1
    # The staging modules are listed as v0.0.0 in k8s.io/kubernetes' go.mod; read the list from that go.mod
    # (never hard-coded) and point each at its published v0.Y.Z tag.
    local gomod staging minor="v0.${version#v1.}" minor_n="${version#v1.}"
    minor_n="${minor_n%%.*}"
    gomod="$(go mod download -json "k8s.io/kubernetes@$version" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",\{0,1\}$/\1/p')"
    staging="$(awk '/^require[[:space:]]*\(/{r=1;next} r&&/^\)/{r=0} r&&$2=="v0.0.0"{print $1}' "$gomod")"
    go mod edit -require="k8s.io/kubernetes@$version"
    for m in $staging; do go mod edit -replace="$m=$m@$minor"; done
    {
      printf '//go:build tools\n\npackage tools\n\nimport (\n'
      for cmd in "${missing[@]}"; do printf '\t_ "k8s.io/kubernetes/cmd/%s"\n' "$cmd"; done
      printf ')\n'
    } > tools.go
    go mod tidy >/dev/null 2>&1 || go get "k8s.io/kubernetes@$version"
    local vflags="" p
    for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
      vflags+=" -X $p.gitVersion=$version -X $p.gitMajor=1 -X $p.gitMinor=$minor_n -X $p.gitTreeState=clean"
    done
    for cmd in "${missing[@]}"; do
      go build -trimpath -ldflags "-s -w$vflags" -o "$out/$cmd-$version.tmp" "k8s.io/kubernetes/cmd/$cmd"
      mv "$out/$cmd-$version.tmp" "$out/$cmd-$version"
      echo "$cmd $version: built"
    done
  )
  local rc=$?
  rm -rf "$mod"
  return $rc
}
