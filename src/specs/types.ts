/**
 * Typed specs: what the loader hands to the constructs once a document has passed validation.
 * Field names follow the seeds' CRDs; see design §1.
 */

/** core/v1 EnvVar. */
export interface EnvVar {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: Record<string, unknown>;
}

/** core/v1 ResourceRequirements. Quantities are kept as written. */
export interface ResourceRequirements {
  readonly limits?: Record<string, string | number>;
  readonly requests?: Record<string, string | number>;
  readonly claims?: readonly { readonly name: string; readonly request?: string }[];
}

/** core/v1 ServicePort, as AppService's `ports` carry them. */
export interface ServicePort {
  readonly name?: string;
  readonly protocol?: 'TCP' | 'UDP' | 'SCTP';
  readonly appProtocol?: string;
  readonly port: number;
  readonly targetPort?: number | string;
  readonly nodePort?: number;
}

/** core/v1 Taint (without timeAdded). */
export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

export interface AppServiceSpec {
  readonly replicas?: number;
  readonly image: string;
  readonly resources?: ResourceRequirements;
  readonly envs?: readonly EnvVar[];
  readonly ports?: readonly ServicePort[];
}

export interface MyappSpec {
  readonly replicas?: number;
  readonly image: string;
  readonly containerPort: number;
  readonly resources?: ResourceRequirements;
  readonly env?: readonly EnvVar[];
  readonly servicePort?: number;
  readonly host?: string;
}

export interface PodrouteSpec {
  readonly image: string;
  readonly replicas?: number;
}

export interface NodePoolSpec {
  readonly labels?: Readonly<Record<string, string>>;
  readonly taints?: readonly Taint[];
  readonly handler?: string;
}

/** Where a document came from: the file as named on the command line and its 1-based index in the file. */
export interface SourceRef {
  readonly file: string;
  readonly document: number;
}

interface SpecBase<K extends string, S> {
  readonly kind: K;
  readonly apiVersion: string;
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly spec: S;
  readonly source: SourceRef;
}

export type AppServiceDocument = SpecBase<'AppService', AppServiceSpec>;
export type MyappDocument = SpecBase<'Myapp', MyappSpec>;
export type PodrouteDocument = SpecBase<'Podroute', PodrouteSpec>;
export type NodePoolDocument = SpecBase<'NodePool', NodePoolSpec>;

/** One validated high-level spec. */
export type SpecDocument = AppServiceDocument | MyappDocument | PodrouteDocument | NodePoolDocument;

export type SpecKind = SpecDocument['kind'];

export const SPEC_KINDS: readonly SpecKind[] = ['AppService', 'Myapp', 'Podroute', 'NodePool'];
