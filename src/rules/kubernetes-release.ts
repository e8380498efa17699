/**
 * The Kubernetes release whose API server the gate checks every object for: its OpenAPI v3 documents are vendored
 * from it (schemas/vendor/kubernetes/index.json `release`), its validation is what src/rules/ mirrors, and it is the
 * release of the test kube-apiserver (scripts/build-control-plane.sh `KUBE_VERSION`; test/cluster/kubernetes-release.test.ts
 * asks it for `/version`). Named in the provenance file (src/output/provenance.ts) and in `specforge --help`.
 */
export const KUBERNETES_RELEASE = 'v1.34.4';
