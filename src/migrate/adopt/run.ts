/**
 * One `specforge adopt` run against a cluster: `plan` prints the calls, `apply` makes them one at a time, reading the
 * cluster again before each. Every loop that calls the API server is bounded: a cluster that does not settle (someone
 * writes the objects as adopt goes) ends the run with exit 1 and a sentence naming what did not settle.
 */
import { ApiError } from '../../kube/client.js';
import type { AdoptChart } from './chart.js';
import type { AdoptOptions, AdoptState, Step } from './model.js';
import { leftAlone, mostCalls, nextStep, plan } from './plan.js';
import { readState, type AdoptClient } from './read.js';
import type { Io } from '../../util/io.js';

/** One adoption run: the cluster, the chart (as loaded and as named on the command line), the options, the output. */
export interface AdoptRun {
  readonly client: AdoptClient;
  readonly chart: Pick<AdoptChart, 'resources' | 'rendered'>;
  readonly chartDir: string;
  readonly options: AdoptOptions;
  readonly io: Io;
}

/** How many calls that lost a race ({@link lostRace}) are read again and retried, and how many calls beyond the plan. */
export const RETRIES = 10;

/** `adopt plan`: prints every call adoption would make, and how many, and what it leaves alone; changes nothing. */
export async function printPlan({ client, chart, chartDir, options, io }: AdoptRun): Promise<number> {
  const state = await readState(client, chart.resources, chart.rendered);
  for (const line of leftAlone(state, options)) io.out(line);
  const steps = plan(state, options);
  for (const s of steps) io.out(formatStep(s));
  io.out(
    `specforge: ${calls(steps.length)} to adopt ${chartDir}${steps.length === 0 ? ' (nothing to do)' : ''}.`,
  );
  return 0;
}

/**
 * `adopt apply`: says what it leaves alone, makes the calls, then reports the CRDs kept (resources outside the chart
 * still use them). 0 when done, 1 (with a sentence) when the cluster did not settle.
 */
export async function applyPlan(run: AdoptRun): Promise<number> {
  const { client, chart, chartDir, io } = run;
  const first = await readState(client, chart.resources, chart.rendered);
  for (const line of leftAlone(first, run.options)) io.out(line);
  const result = await applySteps(run, first);
  if (typeof result === 'string') {
    io.err(`specforge: ${result}`);
    return 1;
  }
  const left = await readState(client, chart.resources, chart.rendered);
  for (const crd of left.crds)
    io.out(
      `kept CustomResourceDefinition ${crd.name}: ${crd.remaining} of its resources are not in ${chartDir}.`,
    );
  io.out(`specforge: ${chartDir} adopted by ${run.options.fieldManager} (${calls(result)} made).`);
  return 0;
}

/**
 * Makes the next step until none is left, from `first` and then reading the cluster again before each; returns how
 * many were made, or why it stopped. Bounded: at most the calls `first` needs ({@link mostCalls}) plus
 * {@link RETRIES}, and up to {@link RETRIES} calls that lost a race are retried from a fresh read; any other failure
 * is thrown.
 */
async function applySteps(
  { client, chart, options, io }: AdoptRun,
  first: AdoptState,
): Promise<number | string> {
  const budget = mostCalls(first) + RETRIES;
  let made = 0;
  let conflicts = 0;
  for (let state = first; ; state = await readState(client, chart.resources, chart.rendered)) {
    const next = nextStep(state, options);
    if (next === undefined) return made;
    if (made >= budget)
      return (
        `adopt did not settle: ${calls(made)} made (the cluster needed at most ${mostCalls(first)} when first read) ` +
        `and it still needs to ${next.step.does}. Something writes these objects as adopt goes: stop it (is the ` +
        `old operator stopped?), then run adopt plan to see what is left.`
      );
    try {
      await send(client, next.step);
      io.out(`${next.step.does}: done`);
      made += 1;
    } catch (e) {
      if (!lostRace(e) || conflicts >= RETRIES) throw e;
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

async function send(client: AdoptClient, step: Step): Promise<void> {
  const path = step.method === 'PATCH' ? `${step.path}?fieldManager=specforge-adopt` : step.path;
  await client.request(
    step.method,
    path,
    step.body,
    step.contentType === undefined ? {} : { contentType: step.contentType },
  );
}
