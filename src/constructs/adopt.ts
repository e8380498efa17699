import type { AdoptContainerPort, AdoptExposedNames, WorkloadAdoptPins } from '../specs/types.js';
import type { Resolved } from './common.js';
import { selectorLabels } from '../rules/labels.js';

/**
 * What a workload construct (AppService, Myapp, Podroute) renders once its adoption pins (the `adopt` prop, a spec's
 * `adopt` block) are applied: object names, the Deployment and Service selector, the pod labels, the container's
 * name, pull policy and port names. Without pins, every value is specforge's default, so the output is exactly
 * what it is without an `adopt` block. Container ports pinned as live are emitted exactly as pinned (an entry's keys
 * only where the pin has them): no name, no protocol added, for that resource only. Container ports pinned
 * `unmanaged` are not rendered, and the Deployment says so in its `specforge.dev/container-ports` label.
 */
export interface PinnedWorkload {
  readonly deploymentName: string;
  readonly serviceName: string;
  readonly routeName: string;
  readonly ingressName: string;
  /** The HTTPRoute's: the spec's name (no operator made one, so nothing pins it). */
  readonly httpRouteName: string;
  /** `spec.selector.matchLabels` of the Deployment and the Service's selector. */
  readonly selector: Record<string, string>;
  /** The pod template labels. */
  readonly podLabels: Record<string, string>;
  readonly containerName: string;
  readonly imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  /** Container port number → name. */
  readonly portNames?: Readonly<Record<string, string>>;
  /** The container ports exactly as live, rendered as given; `unmanaged`: none rendered, the live ones kept. */
  readonly ports?: readonly AdoptContainerPort[] | 'unmanaged';
  /** The Deployment's replicas as live, for a spec without a pod count. */
  readonly replicas?: number;
}

/** A workload's pins, whatever its kind (the schema has refused those that do not apply to it). */
export type AnyWorkloadPins = Omit<WorkloadAdoptPins, 'names'> & { readonly names?: AdoptExposedNames };

/**
 * Applies a workload's pins to its resolved defaults. Pod labels are the pinned ones exactly; with only a
 * selector pinned, specforge's labels with the selector over them (so the pods still match it). Pure.
 */
export function pinnedWorkload(r: Resolved, adopt: AnyWorkloadPins | undefined): PinnedWorkload {
  return {
    ...pinnedNames(r.name, adopt?.names),
    ...pinnedLabels(r, adopt),
    ...pinnedContainer(r.name, adopt?.container),
    ...(adopt?.replicas === undefined ? {} : { replicas: adopt.replicas }),
  };
}

function pinnedContainer(
  name: string,
  c: AnyWorkloadPins['container'],
): Pick<PinnedWorkload, 'containerName' | 'imagePullPolicy' | 'portNames' | 'ports'> {
  return {
    containerName: c?.name ?? name,
    ...(c?.imagePullPolicy === undefined ? {} : { imagePullPolicy: c.imagePullPolicy }),
    ...(c?.portNames === undefined ? {} : { portNames: c.portNames }),
    ...(c?.ports === undefined ? {} : { ports: c.ports }),
  };
}

function pinnedNames(
  name: string,
  names: AdoptExposedNames | undefined,
): Pick<PinnedWorkload, 'deploymentName' | 'serviceName' | 'routeName' | 'ingressName' | 'httpRouteName'> {
  return {
    deploymentName: names?.deployment ?? name,
    serviceName: names?.service ?? name,
    routeName: names?.route ?? name,
    ingressName: names?.ingress ?? name,
    httpRouteName: name,
  };
}

function pinnedLabels(
  r: Resolved,
  adopt: AnyWorkloadPins | undefined,
): Pick<PinnedWorkload, 'selector' | 'podLabels'> {
  const { selector, podLabels } = adopt ?? {};
  return {
    selector: selector === undefined ? selectorLabels(r.name) : { ...selector },
    podLabels:
      podLabels !== undefined
        ? { ...podLabels }
        : selector !== undefined
          ? { ...r.labels, ...selector }
          : r.labels,
  };
}

/** `meta` renamed: an object's metadata with a pinned name, everything else (labels first) kept. */
export function named<M extends { name: string }>(meta: M, name: string): M {
  return name === meta.name ? meta : { ...meta, name };
}
