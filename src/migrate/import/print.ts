/**
 * What `specforge import` prints, as lines: the errors that stopped it, the files in the way, or the report per
 * resource (text or JSON). Pure; the command sends the lines to its output.
 */
import type { ChartWriteOutcome } from '../../output/chart-files.js';
import { type LocatedProblem } from '../../rules/problem.js';
import { formatError } from '../../rules/problem-format.js';
import type { Imported, NodeDisagreement } from './report.js';

/** The lines naming each resource import left out (its file not written), and why: for the error output. */
export function skippedLines(skipped: readonly Skipped[]): string[] {
  return skipped.flatMap((r) => [
    `${r.resource}: not imported, no file written (the other resources are imported):`,
    ...r.why.map((w) => `  ${w}`),
  ]);
}

/** The lines for errors found before anything was written: each error, then what import did (nothing). */
export function errorLines(chart: string, errors: readonly LocatedProblem[]): string[] {
  return [
    ...errors.map(formatError),
    `specforge: ${errors.length} error${errors.length === 1 ? '' : 's'}; nothing imported, ${chart} unchanged.`,
  ];
}

/** The lines naming every file import would not replace, and how to go on (nothing was written). */
export function refusalLines(chart: string, written: ChartWriteOutcome): string[] {
  const n = written.refused.length;
  return [
    ...written.refused.map(
      (r) =>
        `${r.file}: import would replace this file, but ${r.why}. Keep your changes (commit them, or move the file away) and import again, or pass --force to replace it with what the cluster holds.`,
    ),
    `specforge: ${n} file${n === 1 ? '' : 's'} in the way; nothing imported, ${chart} unchanged.`,
  ];
}

/** A resource import left out (its file not written), and why: the errors its spec file would have. */
export interface Skipped {
  readonly resource: string;
  readonly why: readonly string[];
}

/**
 * What import prints: a report per resource, the resources left out, the membership disagreements, and what it did
 * to the chart's files.
 */
export interface Printed {
  readonly report: readonly Imported[];
  readonly nodes: readonly NodeDisagreement[];
  readonly written: ChartWriteOutcome;
  readonly skipped?: readonly Skipped[];
}

/** The lines of the report: one JSON document, or text (files replaced, resources, Nodes, a summary). */
export function reportLines(format: 'text' | 'json', printed: Printed): string[] {
  return format === 'json' ? [reportJson(printed)] : reportText(printed);
}

function reportJson({ report, nodes, written, skipped = [] }: Printed): string {
  const files = {
    created: written.created,
    updated: written.updated,
    replaced: written.forced,
    unchanged: written.unchanged,
  };
  return JSON.stringify({ resources: report, notImported: skipped, membership: nodes, files }, null, 2);
}

function reportText({ report, nodes, written, skipped = [] }: Printed): string[] {
  return [
    ...written.forced.map(
      (f) =>
        `${f.file}: replaced (--force), although ${f.why} (what it held is gone unless it is committed).`,
    ),
    ...report.flatMap(resourceLines),
    ...nodes.map(
      (n) =>
        `Node ${n.node}: node-role.kubernetes.io/${n.pool}=${JSON.stringify(n.value)} is a member of pool ${n.pool} under specforge's default rule but not the seed's; the imported pool keeps the seed's rule (adopt.membership).`,
    ),
    `specforge: imported ${report.length} resource${report.length === 1 ? '' : 's'}${skipped.length === 0 ? '' : `; ${skipped.length} not imported`}.`,
  ];
}

/** The pods a restart or rescale touches, by name. */
function podsText(pods: readonly string[] | undefined): string {
  if (pods === undefined) return '';
  return pods.length === 0 ? ' (no pods now)' : ` (pods now: ${pods.join(', ')})`;
}

/** One resource: where it went, a line per object the operator made, a line per field the first sync changes. */
function resourceLines(r: Imported): string[] {
  return [
    `${r.resource} → ${r.file}`,
    ...r.objects.map(
      (o) =>
        `  ${o.kind} ${o.name}: ${o.verdict}${o.pins !== undefined ? ` (${o.pins.join(', ')})` : ''}${o.why === undefined ? '' : `: ${o.why}`}${podsText(o.pods)}`,
    ),
    ...r.differences.map(
      (d) =>
        `  first sync changes ${d.kind} ${d.name} ${d.path}: ${JSON.stringify(d.live)} → ${JSON.stringify(d.spec)} (the live object differs from what the spec renders)`,
    ),
    ...(r.annotationsNotCopied === undefined
      ? []
      : [
          `  annotations not copied into the spec: ${r.annotationsNotCopied.join(', ')} (no seed operator put them on its objects; under the spec's metadata.annotations they would go onto every object)`,
        ]),
  ];
}
