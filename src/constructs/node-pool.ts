import { Construct } from 'constructs';
import type { V1RuntimeClass, V1Toleration } from './k8s-objects.js';
import type {
  AdoptMembership,
  AdoptNodeKeys,
  NodePoolAdoptPins,
  NodePoolSpec,
  Taint,
} from '../specs/types.js';
import { NODEPOOL_API_VERSION } from '../rules/vocabulary.js';
import { named } from './adopt.js';
import { resolveCommon, type CommonProps } from './common.js';
import type { ManifestOf } from '../rules/manifest.js';
import { ManifestObject } from './manifest-object.js';

export { NODEPOOL_API_VERSION } from '../rules/vocabulary.js';

/**
 * Props of {@link NodePool}: the spec fields of a NodePool (its `labels` and `taints` go on Nodes), plus the
 * object settings of {@link CommonProps} that apply to cluster-scoped objects.
 */
export interface NodePoolProps extends Omit<CommonProps, 'namespace' | 'hardening'> {
  /**
   * Labels the controller puts on member Nodes; the RuntimeClass' nodeSelector.
   * @default - none
   */
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Taints the controller puts on member Nodes; tolerated by the RuntimeClass.
   * @default - none
   */
  readonly taints?: readonly Taint[];
  /**
   * RuntimeClass handler.
   * @default 'runc'
   */
  readonly handler?: string;
  /**
   * Labels on the rendered objects themselves (not on Nodes).
   * @default - none
   */
  readonly objectLabels?: Readonly<Record<string, string>>;
  /**
   * Adoption pins: the RuntimeClass name a running NodePool operator made (`node-pool-<name>`), the Node keys it
   * wrote that the pool adopts (the NodePool resource's `spec.adopt`), and the seed's membership rule
   * (`spec.membership`). What `specforge import` writes as a spec's `adopt`.
   * @default - none: the RuntimeClass named after the pool, no keys adopted, specforge's membership rule
   */
  readonly adopt?: NodePoolAdoptPins;
}

/** The `spec` of the NodePool resource the controller reads: the pool's fields and its adoption pins. */
interface NodePoolResourceSpec extends NodePoolSpec {
  /** Label keys and `key:effect` taints the pool adopts on member Nodes. */
  readonly adopt?: AdoptNodeKeys;
  /** The seed's membership rule: the membership label with exactly this value. */
  readonly membership?: AdoptMembership;
}

/**
 * A NodePool (blog-code node-pool-operator): a RuntimeClass whose scheduling sends pods to the pool's Nodes, and
 * the NodePool resource the controller acts on. Both cluster-scoped: never a namespace.
 */
export class NodePool extends Construct {
  public readonly runtimeClass: ManifestObject;
  public readonly nodePool: ManifestObject;

  constructor(scope: Construct, id: string, props: NodePoolProps = {}) {
    super(scope, id);
    const r = resolveCommon(this, 'NodePool', id, props);
    const handler = props.handler ?? 'runc';
    const taints = props.taints ?? [];
    const nodeLabels = props.labels ?? {};
    const runtimeClass: ManifestOf<V1RuntimeClass> = {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: named(r.clusterMeta, props.adopt?.runtimeClassName ?? r.name),
      handler,
      ...schedulingFor(nodeLabels, taints),
    };
    this.runtimeClass = new ManifestObject(this, 'runtime-class', runtimeClass);
    const nodePool: ManifestOf<{ spec: NodePoolResourceSpec }> = {
      apiVersion: NODEPOOL_API_VERSION,
      kind: 'NodePool',
      metadata: r.clusterMeta,
      spec: {
        ...(props.labels === undefined ? {} : { labels: { ...props.labels } }),
        ...(props.taints === undefined ? {} : { taints: props.taints.map((t) => ({ ...t })) }),
        handler,
        ...adoptionOf(props.adopt),
      },
    };
    this.nodePool = new ManifestObject(this, 'node-pool', nodePool);
  }
}

/** The NodePool resource's `spec.adopt` and `spec.membership`, from the pool's pins (copied, lists in order). */
function adoptionOf(pins: NodePoolAdoptPins | undefined): Pick<NodePoolResourceSpec, 'adopt' | 'membership'> {
  const keys = pins?.nodeKeys;
  return {
    ...(keys === undefined
      ? {}
      : {
          adopt: {
            ...(keys.labels === undefined ? {} : { labels: [...keys.labels] }),
            ...(keys.taints === undefined ? {} : { taints: [...keys.taints] }),
          },
        }),
    ...(pins?.membership === undefined ? {} : { membership: { value: pins.membership.value } }),
  };
}

/** The RuntimeClass scheduling of a pool: its labels as nodeSelector, a toleration per taint. */
export function schedulingFor(
  labels: Readonly<Record<string, string>>,
  taints: readonly Taint[],
): Pick<V1RuntimeClass, 'scheduling'> {
  const hasLabels = Object.keys(labels).length > 0;
  if (!hasLabels && taints.length === 0) return {};
  return {
    scheduling: {
      ...(hasLabels ? { nodeSelector: { ...labels } } : {}),
      ...(taints.length > 0 ? { tolerations: taints.map(tolerationFor) } : {}),
    },
  };
}

function tolerationFor(t: Taint): V1Toleration {
  return {
    key: t.key,
    operator: 'Equal',
    ...(t.value === undefined ? {} : { value: t.value }),
    effect: t.effect,
  };
}
