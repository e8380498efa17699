import type { SourceRef } from '../specs/types.js';

/** One rendered object, with the spec it came from (absent for objects of chart modules). */
export interface RenderedObject {
  readonly json: Obj;
  readonly source?: SourceRef;
  /** The path of the construct that made it (`chart/web`), for objects with no spec file behind them. */
  readonly origin?: string;
}

/** Loose view of a manifest for checks: field access without ceremony. */
export type Obj = { readonly [key: string]: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Kinds that are cluster-scoped: they must never carry a namespace. */
export const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set([
  'APIService',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'IngressClass',
  'MutatingWebhookConfiguration',
  'Namespace',
  'Node',
  'NodePool',
  'PersistentVolume',
  'PriorityClass',
  'RuntimeClass',
  'StorageClass',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'ValidatingWebhookConfiguration',
  'VolumeAttachment',
]);

/** `Kind/name` or `Kind namespace/name`, for messages. */
export function describeObject(o: Obj): string {
  const ns = o.metadata?.namespace;
  return ns === undefined ? `${o.kind}/${o.metadata?.name}` : `${o.kind} ${ns}/${o.metadata?.name}`;
}

/** The identity the API server keys objects by: group, kind, namespace, name. */
export function objectKey(o: Obj): string {
  const group = String(o.apiVersion).includes('/') ? String(o.apiVersion).split('/')[0] : '';
  return `${group}|${o.kind}|${o.metadata?.namespace ?? ''}|${o.metadata?.name}`;
}
