/**
 * The core/v1 shapes the rules check (k8s.io/api/core/v1 types.go), as plain structural input: the spec reader's
 * typed specs (src/specs/types.ts) and the constructs' props use these, so the rules never depend on either.
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
