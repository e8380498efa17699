/**
 * The test workload's image names, each with the ports it listens on (test/nodes/images/workload). Specs in the node
 * suites name these images; `v2` is the same program under a new tag, for rollouts.
 */
export const WORKLOAD_PORTS = '80 8080 8081 9090 53/udp 5353/udp';

export const WORKLOAD_V1 = 'specforge.test/workload:v1';
export const WORKLOAD_V2 = 'specforge.test/workload:v2';

/** The same program with a numeric non-root USER (65532), as images must have to run under `runAsNonRoot`. */
export const WORKLOAD_NONROOT = 'specforge.test/workload-nonroot:v1';

export interface WorkloadImage {
  readonly ports: string;
  /** The image's USER. @default root */
  readonly user?: string;
}

export const WORKLOAD_IMAGES: Readonly<Record<string, WorkloadImage>> = {
  [WORKLOAD_V1]: { ports: WORKLOAD_PORTS },
  [WORKLOAD_V2]: { ports: WORKLOAD_PORTS },
  [WORKLOAD_NONROOT]: { ports: WORKLOAD_PORTS, user: '65532:65532' },
};

/**
 * The same program served only by the cluster's registry (test/nodes/cluster/registry.ts), never imported into a
 * node: pods with `imagePullPolicy: Always` pull it. Named under quay.io, which every node mirrors to that registry.
 */
export const WORKLOAD_PULLED = 'quay.io/specforge-test/workload:v1';

/** The hosts every node's containerd takes from the cluster's registry. */
export const REGISTRY_MIRRORS: readonly string[] = ['quay.io'];

export const REGISTRY_IMAGES: Readonly<Record<string, WorkloadImage>> = {
  [WORKLOAD_PULLED]: { ports: WORKLOAD_PORTS },
};
