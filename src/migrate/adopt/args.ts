/** The command line of `specforge adopt`: its usage text and its flags, checked before anything is read. */
import { parseArgs } from 'node:util';
import { SEED_KINDS } from '../../rules/seed-kinds.js';
import { UsageError } from '../../util/usage-error.js';
import { CONNECTION_OPTIONS, connectionFlags, type ConnectionFlags } from '../flags.js';
import { fieldManagerProblem, managerNameProblem } from './field-manager.js';
import type { OperatorRef } from './operator.js';

export const ADOPT_USAGE = `Usage: specforge adopt plan|apply --chart DIR --field-manager NAME
                      (--operator NS/DEPLOYMENT [--operator-lease NS/LEASE] | --operator-gone)
                      [--operator-manager NAME ...] [--kubeconfig FILE] [--context NAME]

Moves the objects a seed operator made for the chart's specs to the GitOps tool, without restarting or deleting
any of them: detach them from the old resources, hand the operator's managed fields to NAME (kustomize-controller
for Flux, argocd-controller for Argo CD), remove the old finalizers, delete the old resources with
propagationPolicy Orphan, and the old CRD once none of its resources is left. Refuses while the operator runs.
Changes only objects whose ownerReferences name an old resource of the chart (by uid), and on them only the
fields the operator's own manager set; another owner's reference stays its own. A live object the chart renders
that no old resource owns is left alone, and the plan says so. NAME must be a name the API server takes and not
an operator's own manager (opdemo, manager).
  plan    print every API call, change nothing
  apply   make them; safe to stop and run again at any point
  --operator-manager   the operator's field manager (default: opdemo for app.example.com, else manager)

Exit codes: 0 done (or nothing to do), 1 refused or failed, 2 usage error.`;

/** The flags of one run. */
export interface AdoptArgs extends ConnectionFlags {
  readonly mode: 'plan' | 'apply';
  readonly chart: string;
  readonly fieldManager: string;
  readonly operator: OperatorRef;
  readonly operatorGone: boolean;
  readonly operatorManagers: string[];
}

/** The flags after `adopt`; a {@link UsageError} for a wrong one. */
export function parseAdoptArgs(args: readonly string[]): AdoptArgs {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      chart: { type: 'string' },
      'field-manager': { type: 'string' },
      operator: { type: 'string' },
      'operator-lease': { type: 'string' },
      'operator-gone': { type: 'boolean' },
      'operator-manager': { type: 'string', multiple: true },
      ...CONNECTION_OPTIONS,
    },
  });
  const mode = modeOf(positionals);
  const chart = required(values.chart, 'adopt needs --chart DIR (the chart of the imported specs)');
  const fieldManager = required(
    values['field-manager'],
    'adopt needs --field-manager NAME (kustomize-controller for Flux, argocd-controller for Argo CD)',
  );
  const operatorManagers = values['operator-manager'] ?? [];
  checkManagers(fieldManager, operatorManagers);
  const operator = operatorRefOf(values.operator, values['operator-lease']);
  const gone = values['operator-gone'] === true;
  if (!gone && operator.deployment === undefined && operator.lease === undefined)
    throw new UsageError(
      'adopt needs --operator NS/DEPLOYMENT (checked to be stopped), or --operator-gone if it is uninstalled',
    );
  return {
    mode,
    chart,
    fieldManager,
    operator,
    operatorGone: gone,
    operatorManagers,
    ...connectionFlags(values),
  };
}

/**
 * Refuses, before any API call, a --field-manager the API server would refuse or that is an old operator's own (the
 * seed operators' and any --operator-manager), and an --operator-manager the API server could not have written.
 */
function checkManagers(fieldManager: string, operatorManagers: readonly string[]): void {
  for (const m of operatorManagers) {
    const bad = managerNameProblem('--operator-manager', m);
    if (bad !== undefined)
      throw new UsageError(`${bad}; give the manager the operator wrote its fields with`, false);
  }
  const seeds = [...new Set([...SEED_KINDS.map((k) => k.manager), ...operatorManagers])];
  const bad = fieldManagerProblem(fieldManager, seeds);
  if (bad !== undefined) throw new UsageError(bad, false);
}

/** The one positional argument: `plan` or `apply`. */
function modeOf(positionals: readonly string[]): AdoptArgs['mode'] {
  const [mode, ...rest] = positionals;
  if (mode !== 'plan' && mode !== 'apply')
    throw new UsageError(`adopt takes plan or apply, got ${JSON.stringify(mode ?? '')}`);
  if (rest.length > 0)
    throw new UsageError(`adopt ${mode} takes no other argument, got ${JSON.stringify(rest[0])}`);
  return mode;
}

/** A flag's value, or a usage error saying it is needed. */
function required(value: string | undefined, message: string): string {
  if (value === undefined) throw new UsageError(message);
  return value;
}

/** The operator named by --operator and --operator-lease (each NAMESPACE/NAME, each optional). */
function operatorRefOf(deployment: string | undefined, lease: string | undefined): OperatorRef {
  return {
    ...(deployment === undefined ? {} : { deployment: nsName('--operator', deployment) }),
    ...(lease === undefined ? {} : { lease: nsName('--operator-lease', lease) }),
  };
}

function nsName(flag: string, value: string): { namespace: string; name: string } {
  const [namespace, name, extra] = value.split('/');
  if (namespace === undefined || name === undefined || extra !== undefined || namespace === '' || name === '')
    throw new UsageError(`${flag} takes NAMESPACE/NAME, got ${JSON.stringify(value)}`);
  return { namespace, name };
}
