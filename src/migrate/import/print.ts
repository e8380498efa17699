/** What `specforge import` prints: the report per resource, or the files in the way. */
import type { ChartWriteOutcome } from '../../output/chart-files.js';
import type { Imported } from './command.js';
import type { Io } from '../../util/io.js';

/** Names every file import would not replace, and how to go on: exit 1, nothing written. */
export function refuse(io: Io, chart: string, written: ChartWriteOutcome): number {
  for (const r of written.refused)
    io.err(
      `${r.file}: import would replace this file, but ${r.why}. Keep your changes (commit them, or move the file away) and import again, or pass --force to replace it with what the cluster holds.`,
    );
  const n = written.refused.length;
  io.err(`specforge: ${n} file${n === 1 ? '' : 's'} in the way; nothing imported, ${chart} unchanged.`);
  return 1;
}

/** What import prints: a report per resource, the membership disagreements, and what it did to the chart's files. */
export interface Printed {
  readonly report: Imported[];
  readonly nodes: { pool: string; node: string; value: string }[];
  readonly written: ChartWriteOutcome;
}

export function print(io: Io, format: 'text' | 'json', { report, nodes, written }: Printed): void {
  if (format === 'json') {
    const files = {
      created: written.created,
      updated: written.updated,
      replaced: written.forced,
      unchanged: written.unchanged,
    };
    io.out(JSON.stringify({ resources: report, membership: nodes, files }, null, 2));
    return;
  }
  for (const f of written.forced)
    io.out(`${f.file}: replaced (--force), although ${f.why} (what it held is gone unless it is committed).`);
  for (const r of report) {
    io.out(`${r.resource} → ${r.file}`);
    for (const o of r.objects)
      io.out(
        `  ${o.kind} ${o.name}: ${o.verdict}${o.pins !== undefined ? ` (${o.pins.join(', ')})` : ''}${o.why === undefined ? '' : `: ${o.why}`}`,
      );
    for (const d of r.differences)
      io.out(
        `  first sync changes ${d.kind} ${d.name} ${d.path}: ${JSON.stringify(d.live)} → ${JSON.stringify(d.spec)} (the operator never applied the spec's value)`,
      );
  }
  for (const n of nodes)
    io.out(
      `Node ${n.node}: node-role.kubernetes.io/${n.pool}=${JSON.stringify(n.value)} is a member of pool ${n.pool} under specforge's default rule but not the seed's; the imported pool keeps the seed's rule (adopt.membership).`,
    );
  io.out(`specforge: imported ${report.length} resource${report.length === 1 ? '' : 's'}.`);
}
