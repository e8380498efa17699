/**
 * `specforge adopt plan|apply`: the cut-over from a stopped seed operator to the GitOps tool, in the only safe
 * order (src/migrate/adopt/plan.ts). `plan` prints every API call it would make; `apply` makes them one at a time, reading
 * the cluster again before each, so it is idempotent and a run killed at any point is finished by running it again.
 * It deletes nothing but the old custom resources (with propagationPolicy Orphan) and their CRD.
 *
 * This module is the command: flags (./args.ts) → chart (./chart.ts) → operator stopped? (./operator.ts) → reads and
 * plan (./read.ts, ./plan.ts, pure) → calls (./run.ts) → exit code.
 */
import type { KubeClient } from '../../kube/client.js';
import { connect, unreachable } from '../../kube/connect.js';
import { formatError } from '../../rules/problem-format.js';
import { seedKindOf } from '../../rules/seed-kinds.js';
import { ADOPT_USAGE, parseAdoptArgs, type AdoptArgs } from './args.js';
import { loadAdoptChart, type AdoptChart } from './chart.js';
import { operatorRunning } from './operator.js';
import { applyPlan, printPlan, type AdoptRun } from './run.js';
import type { Io } from '../../util/io.js';

export { ADOPT_USAGE } from './args.js';

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
  try {
    return await adoptWith(client, a, chart, io);
  } catch (e) {
    // apply is idempotent: a run cut off goes on from what the cluster holds (src/migrate/adopt/run.ts).
    throw unreachable(
      client,
      e,
      a.mode === 'plan'
        ? 'nothing was changed'
        : 'run adopt apply again once it is up, it goes on from there',
    );
  } finally {
    client.close();
  }
}

/** The adoption itself, once connected and the chart rendered. */
async function adoptWith(client: KubeClient, a: AdoptArgs, chart: AdoptChart, io: Io): Promise<number> {
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
      unmanagedFields: chart.unmanagedFields,
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
