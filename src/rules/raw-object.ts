/**
 * A Kubernetes object as it comes off the wire, loosely typed: the fields the NodePool controller and migration read
 * from the API server's answers. (The one plain-JSON manifest type may absorb it; until then it is the API answer's
 * shape, shared by `src/kube/` users without either importing the other.)
 */

/** The object metadata read from API answers. */
export interface RawMeta {
  name?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  deletionTimestamp?: string;
  finalizers?: string[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** A Kubernetes object as it comes off the wire, loosely typed. */
export interface RawObject {
  apiVersion?: string;
  kind?: string;
  metadata?: RawMeta;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}
