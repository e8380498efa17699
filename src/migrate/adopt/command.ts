/**
 * `specforge adopt plan|apply`: the cut-over from a stopped seed operator to the GitOps tool, in the only safe
 * order (src/migrate/adopt/plan.ts). `plan` prints every API call it would make; `apply` makes them one at a time, reading
 * the cluster again before each, so it is idempotent and a run killed at any point is finished by running it again.
 * It deletes nothing but the old custom resources (with propagationPolicy Orphan) and their CRD.
 */
import { parseArgs } from 'node:util';
import { connect } from '../../kube/connect.js';
import { formatError } from '../../rules/problem-format.js';
import { UsageError } from '../../util/usage-error.js';
import { SEED_KINDS, seedKindOf } from '../../rules/seed-kinds.js';
import { loadAdoptChart, type AdoptChart } from './chart.js';
import { fieldManagerProblem, managerNameProblem } from './field-manager.js';
import { operatorRunning, type OperatorRef } from './operator.js';
import { applyPlan, printPlan, type AdoptRun } from './run.js';
import type { Io } from '../../util/io.js';

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

interface AdoptArgs {
  readonly mode: 'plan' | 'apply';
  readonly chart: string;
  readonly fieldManager: string;
  readonly operator: OperatorRef;
  readonly operatorGone: boolean;
  readonly operatorManagers: string[];
  readonly kubeconfig?: string;
  readonly context?: string;
}

/** Runs `specforge adopt` with the arguments after `adopt`. */
export async function runAdopt(args: readonly string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.out(ADOPT_USAGE);
    return 0;
  }
  const a = parseAdoptArgs(args);
  const chart = await loadAdoptChart(a.chart);
  if (chart.errors.length > 0) {
    for (const e of chart.errors) io.err(formatError(e));
    io.err(`specforge: ${a.chart} does not render; nothing adopted, nothing changed.`);
    return 1;
  }
  const client = await connect(a);
  const running = a.operatorGone ? undefined : await operatorRunning(client, a.operator);
  if (running !== undefined) {
    io.err(`specforge: ${running}. Nothing changed.`);
    return 1;
  }
  const run: AdoptRun = {
    client,
    chart,
    chartDir: a.chart,
    options: {
      fieldManager: a.fieldManager,
      operatorManagers: operatorManagersFor(a, chart),
      operatorFinalizers: [...new Set(chart.resources.flatMap((r) => seedKindOf(r)?.finalizers ?? []))],
    },
    io,
  };
  return a.mode === 'plan' ? printPlan(run) : applyPlan(run);
}

/**
 * The operator's field managers: those given with --operator-manager, else the seed operators' own for the chart's
 * resources (opdemo for app.example.com, manager for the others). Pure.
 */
function operatorManagersFor(a: AdoptArgs, chart: AdoptChart): string[] {
  if (a.operatorManagers.length > 0) return a.operatorManagers;
  return [...new Set(chart.resources.map((r) => seedKindOf(r)?.manager ?? 'manager'))];
}

function parseAdoptArgs(args: readonly string[]): AdoptArgs {
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
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
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
    ...connectionFlags(values.kubeconfig, values.context),
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

/** --kubeconfig and --context, each only when given. */
function connectionFlags(
  kubeconfig: string | undefined,
  context: string | undefined,
): Pick<AdoptArgs, 'kubeconfig' | 'context'> {
  return {
    ...(kubeconfig === undefined ? {} : { kubeconfig }),
    ...(context === undefined ? {} : { context }),
  };
}

function nsName(flag: string, value: string): { namespace: string; name: string } {
  const [namespace, name, extra] = value.split('/');
  if (namespace === undefined || name === undefined || extra !== undefined || namespace === '' || name === '')
    throw new UsageError(`${flag} takes NAMESPACE/NAME, got ${JSON.stringify(value)}`);
  return { namespace, name };
}
