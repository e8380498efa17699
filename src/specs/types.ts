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

/** `spec` of an AppService document. */
export interface AppServiceSpec {
  readonly replicas?: number;
  readonly image: string;
  readonly resources?: ResourceRequirements;
  readonly envs?: readonly EnvVar[];
  readonly ports?: readonly ServicePort[];
}

/** `spec` of a Myapp document. */
export interface MyappSpec {
  readonly replicas?: number;
  readonly image: string;
  readonly containerPort: number;
  readonly resources?: ResourceRequirements;
  readonly env?: readonly EnvVar[];
  readonly servicePort?: number;
  readonly host?: string;
}

/** `spec` of a Podroute document. */
export interface PodrouteSpec {
  readonly image: string;
  readonly replicas?: number;
}

/** `spec` of a NodePool document. */
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

/** The fields every typed spec document has: kind, apiVersion, metadata, spec, and where it came from. */
export interface SpecBase<K extends string, S> {
  readonly kind: K;
  readonly apiVersion: string;
  readonly name: string;
  readonly namespace?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly spec: S;
  readonly source: SourceRef;
}

/** A validated AppService spec document. */
export type AppServiceDocument = SpecBase<'AppService', AppServiceSpec>;
/** A validated Myapp spec document. */
export type MyappDocument = SpecBase<'Myapp', MyappSpec>;
/** A validated Podroute spec document. */
export type PodrouteDocument = SpecBase<'Podroute', PodrouteSpec>;
/** A validated NodePool spec document. */
export type NodePoolDocument = SpecBase<'NodePool', NodePoolSpec>;

/** One validated high-level spec. */
export type SpecDocument = AppServiceDocument | MyappDocument | PodrouteDocument | NodePoolDocument;

/** The high-level kinds specforge renders. */
export type SpecKind = SpecDocument['kind'];

/** Every {@link SpecKind}, in the order messages list them. */
export const SPEC_KINDS: readonly SpecKind[] = ['AppService', 'Myapp', 'Podroute', 'NodePool'];
