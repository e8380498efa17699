/** The flags every migration command that talks to a cluster takes (`import`, `adopt`): which kubeconfig, which context. */
import { nonEmptyValue } from '../util/flag-values.js';

/** `--kubeconfig FILE` and `--context NAME`, for `node:util`'s parseArgs. */
export const CONNECTION_OPTIONS = {
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
} as const;

/** Which cluster to talk to; each absent means kubectl's default (src/kube/connect.ts). */
export interface ConnectionFlags {
  readonly kubeconfig?: string;
  readonly context?: string;
}

/** --kubeconfig and --context, each only when given; an empty one is a usage error (a shell variable unset?). */
export function connectionFlags(values: { kubeconfig?: string; context?: string }): ConnectionFlags {
  return {
    ...(values.kubeconfig === undefined
      ? {}
      : { kubeconfig: nonEmptyValue('--kubeconfig', values.kubeconfig, 'a kubeconfig file') }),
    ...(values.context === undefined
      ? {}
      : { context: nonEmptyValue('--context', values.context, 'a context of the kubeconfig') }),
  };
}
