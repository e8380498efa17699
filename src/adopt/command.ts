/**
 * `specforge adopt plan|apply`: the cut-over from a stopped seed operator to the GitOps tool, in the only safe
 * order (src/adopt/plan.ts). `plan` prints every API call it would make; `apply` makes them one at a time, reading
 * the cluster again before each, so it is idempotent and a run killed at any point is finished by running it again.
 * It deletes nothing but the old custom resources (with propagationPolicy Orphan) and their CRD.
 */
import { parseArgs } from 'node:util';
import { ApiError, type KubeClient } from '../controller/kube.js';
import { connect } from '../kube-connect.js';
import { formatError } from '../specs/errors.js';
import { UsageError } from '../usage-error.js';
import { seedKindOf } from '../import/seeds.js';
import { loadAdoptChart, type AdoptChart } from './chart.js';
import type { AdoptOptions, Step } from './model.js';
import { operatorRunning, type OperatorRef } from './operator.js';
import { nextStep, plan } from './plan.js';
import { readState } from './read.js';

export interface AdoptIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

export const ADOPT_USAGE = `Usage: specforge adopt plan|apply --chart DIR --field-manager NAME
                      (--operator NS/DEPLOYMENT [--operator-lease NS/LEASE] | --operator-gone)
                      [--operator-manager NAME ...] [--kubeconfig FILE] [--context NAME]

Moves the objects a seed operator made for the chart's specs to the GitOps tool, without restarting or deleting
any of them: detach them from the old resources, hand the operator's managed fields to NAME (kustomize-controller
for Flux, argocd-controller for Argo CD), remove the old finalizers, delete the old resources with
propagationPolicy Orphan, and the old CRD once none of its resources is left. Refuses while the operator runs.
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
export async function runAdopt(args: readonly string[], io: AdoptIo): Promise<number> {
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
  if (a.mode === 'plan') await printPlan(run);
  else await applyPlan(run);
  return 0;
}

/** One adoption run: the cluster, the chart (as loaded and as named on the command line), the options, the output. */
interface AdoptRun {
  readonly client: KubeClient;
  readonly chart: AdoptChart;
  readonly chartDir: string;
  readonly options: AdoptOptions;
  readonly io: AdoptIo;
}

/**
 * The operator's field managers: those given with --operator-manager, else the seed operators' own for the chart's
 * resources (opdemo for app.example.com, manager for the others). Pure.
 */
function operatorManagersFor(a: AdoptArgs, chart: AdoptChart): string[] {
  if (a.operatorManagers.length > 0) return a.operatorManagers;
  return [...new Set(chart.resources.map((r) => seedKindOf(r)?.manager ?? 'manager'))];
}

/** `adopt plan`: prints every call adoption would make, and how many; changes nothing. */
async function printPlan({ client, chart, chartDir, options, io }: AdoptRun): Promise<void> {
  const steps = plan(await readState(client, chart.resources, chart.rendered), options);
  for (const s of steps) io.out(formatStep(s));
  io.out(
    `specforge: ${calls(steps.length)} to adopt ${chartDir}${steps.length === 0 ? ' (nothing to do)' : ''}.`,
  );
}

/** `adopt apply`: makes the calls, then reports the CRDs kept (resources outside the chart still use them). */
async function applyPlan(run: AdoptRun): Promise<void> {
  const { client, chart, chartDir, io } = run;
  const made = await applySteps(run);
  const left = await readState(client, chart.resources, chart.rendered);
  for (const crd of left.crds)
    io.out(
      `kept CustomResourceDefinition ${crd.name}: ${crd.remaining} of its resources are not in ${chartDir}.`,
    );
  io.out(`specforge: ${chartDir} adopted by ${run.options.fieldManager} (${calls(made)} made).`);
}

/**
 * Makes the next step until none is left, reading the cluster again before each; returns how many were made. Up to
 * 10 calls that lost a race ({@link lostRace}) are retried from a fresh read; any other failure is thrown.
 */
async function applySteps({ client, chart, options, io }: AdoptRun): Promise<number> {
  let made = 0;
  for (let conflicts = 0; ;) {
    const next = nextStep(await readState(client, chart.resources, chart.rendered), options);
    if (next === undefined) return made;
    try {
      await send(client, next.step);
      io.out(`${next.step.does}: done`);
      made += 1;
    } catch (e) {
      if (!lostRace(e) || conflicts >= 10) throw e;
      conflicts += 1;
    }
  }
}

/**
 * Whether a call failed because the cluster changed under it: a `test` precondition failed, the object changed
 * under us, or it is gone already (a DELETE that raced the API server's own). Read the cluster again and go on
 * from there. Pure.
 */
function lostRace(e: unknown): boolean {
  return e instanceof ApiError && [404, 409, 422].includes(e.status);
}

/** `1 call`, `2 calls`. Pure. */
function calls(n: number): string {
  return `${n} call${n === 1 ? '' : 's'}`;
}

function formatStep(s: Step): string {
  const body = s.body === undefined ? '' : `\n    ${JSON.stringify(s.body)}`;
  return `${s.method} ${s.path}${s.contentType === undefined ? '' : ` (${s.contentType})`}\n    # ${s.does}${body}`;
}

async function send(client: KubeClient, step: Step): Promise<void> {
  const path = step.method === 'PATCH' ? `${step.path}?fieldManager=specforge-adopt` : step.path;
  await client.request(
    step.method,
    path,
    step.body,
    step.contentType === undefined ? {} : { contentType: step.contentType },
  );
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
    operatorManagers: values['operator-manager'] ?? [],
    ...connectionFlags(values.kubeconfig, values.context),
  };
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
