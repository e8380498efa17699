/**
 * The cluster's image registry: the reference OCI registry (distribution, built by scripts/build-nodes.sh), run
 * inside the cluster's network namespace on its loopback, storage in the cluster's directory. Every node's containerd
 * takes the mirrored hosts' images from it over plain HTTP (a `hosts.toml` per host, containerd's `config_path`), so
 * a pod with `imagePullPolicy: Always` (pod-route's operator writes it) pulls as it would from quay.io. The images
 * are pushed with `ctr images push` from a containerd namespace of their own, never the kubelet's (`k8s.io`): a
 * node has them only by pulling.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the registry listens, inside the cluster's network namespace (its loopback: never proxied, never the host). */
export const REGISTRY_ADDR = '127.0.0.1:5000';

/** The containerd namespace the images are imported into for pushing (not the kubelet's `k8s.io`). */
export const PUSH_NAMESPACE = 'specforge-push';

/** What tests need of the registry. */
export interface RegistryInfo {
  /** host:port inside the cluster's network namespace. */
  readonly addr: string;
  /** The hosts whose images come from it (e.g. quay.io). */
  readonly mirrors: readonly string[];
  /** Its log, access log included (one Apache-style line per request). */
  readonly log: string;
}

/** The registry's configuration: filesystem storage under `root`, plain HTTP on {@link REGISTRY_ADDR}. */
export function registryConfig(root: string): string {
  return `version: 0.1
log:
  level: info
  accesslog: {disabled: false}
storage:
  filesystem: {rootdirectory: ${root}}
  delete: {enabled: true}
  maintenance: {uploadpurging: {enabled: false}}
http:
  addr: ${REGISTRY_ADDR}
health:
  storagedriver: {enabled: false}
`;
}

/**
 * containerd's hosts directory (`config_path`): for each mirrored host, the registry as its mirror and as its server,
 * so a pull never falls back to the real host (the namespace has no route out; this makes it explicit).
 */
export function writeHostsDir(dir: string, mirrors: readonly string[]): void {
  for (const host of mirrors) {
    mkdirSync(join(dir, host), { recursive: true });
    writeFileSync(
      join(dir, host, 'hosts.toml'),
      `# ${host} images come from the test cluster's registry, inside its network namespace, over plain HTTP
server = "http://${REGISTRY_ADDR}"

[host."http://${REGISTRY_ADDR}"]
  capabilities = ["pull", "resolve"]
`,
    );
  }
}

/** The registry's own name for an image named under a mirrored host: `quay.io/a/b:v1` → `127.0.0.1:5000/a/b:v1`. */
export function pushRef(ref: string, mirrors: readonly string[]): string {
  const slash = ref.indexOf('/');
  const host = ref.slice(0, slash);
  if (slash < 0 || !mirrors.includes(host))
    throw new Error(`image ${ref} is not under a mirrored host (${mirrors.join(', ')})`);
  return `${REGISTRY_ADDR}/${ref.slice(slash + 1)}`;
}
