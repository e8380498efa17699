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
import { loadAdoptChart } from './chart.js';
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
    io.err(`specforge: the old operator still runs: ${running}. Nothing changed.`);
    return 1;
  }
  const options: AdoptOptions = {
    fieldManager: a.fieldManager,
    operatorManagers:
      a.operatorManagers.length > 0
        ? a.operatorManagers
        : [
            ...new Set(
              chart.resources.map((r) =>
                r.apiVersion.startsWith('app.example.com/') ? 'opdemo' : 'manager',
              ),
            ),
          ],
  };
  if (a.mode === 'plan') {
    const steps = plan(await readState(client, chart.resources, chart.rendered), options);
    for (const s of steps) io.out(formatStep(s));
    io.out(
      `specforge: ${steps.length} call${steps.length === 1 ? '' : 's'} to adopt ${a.chart}${steps.length === 0 ? ' (nothing to do)' : ''}.`,
    );
    return 0;
  }
  let made = 0;
  for (let conflicts = 0; ;) {
    const state = await readState(client, chart.resources, chart.rendered);
    const next = nextStep(state, options);
    if (next === undefined) break;
    try {
      await send(client, next.step);
      io.out(`${next.step.does}: done`);
      made += 1;
    } catch (e) {
      // A `test` precondition failed, the object changed under us, or it is gone already (a DELETE that raced the
      // API server's own): read the cluster again and go on from there.
      if (e instanceof ApiError && [404, 409, 422].includes(e.status) && conflicts < 10) {
        conflicts += 1;
        continue;
      }
      throw e;
    }
  }
  const left = await readState(client, chart.resources, chart.rendered);
  for (const crd of left.crds)
    io.out(
      `kept CustomResourceDefinition ${crd.name}: ${crd.remaining} of its resources are not in ${a.chart}.`,
    );
  io.out(`specforge: ${a.chart} adopted by ${a.fieldManager} (${made} call${made === 1 ? '' : 's'} made).`);
  return 0;
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
  const [mode, ...rest] = positionals;
  if (mode !== 'plan' && mode !== 'apply')
    throw new UsageError(`adopt takes plan or apply, got ${JSON.stringify(mode ?? '')}`);
  if (rest.length > 0)
    throw new UsageError(`adopt ${mode} takes no other argument, got ${JSON.stringify(rest[0])}`);
  if (values.chart === undefined)
    throw new UsageError('adopt needs --chart DIR (the chart of the imported specs)');
  if (values['field-manager'] === undefined)
    throw new UsageError(
      'adopt needs --field-manager NAME (kustomize-controller for Flux, argocd-controller for Argo CD)',
    );
  const operator: OperatorRef = {
    ...(values.operator === undefined ? {} : { deployment: nsName('--operator', values.operator) }),
    ...(values['operator-lease'] === undefined
      ? {}
      : { lease: nsName('--operator-lease', values['operator-lease']) }),
  };
  const gone = values['operator-gone'] === true;
  if (!gone && operator.deployment === undefined && operator.lease === undefined)
    throw new UsageError(
      'adopt needs --operator NS/DEPLOYMENT (checked to be stopped), or --operator-gone if it is uninstalled',
    );
  return {
    mode,
    chart: values.chart,
    fieldManager: values['field-manager'],
    operator,
    operatorGone: gone,
    operatorManagers: values['operator-manager'] ?? [],
    ...(values.kubeconfig === undefined ? {} : { kubeconfig: values.kubeconfig }),
    ...(values.context === undefined ? {} : { context: values.context }),
  };
}

function nsName(flag: string, value: string): { namespace: string; name: string } {
  const [namespace, name, extra] = value.split('/');
  if (namespace === undefined || name === undefined || extra !== undefined || namespace === '' || name === '')
    throw new UsageError(`${flag} takes NAMESPACE/NAME, got ${JSON.stringify(value)}`);
  return { namespace, name };
}
