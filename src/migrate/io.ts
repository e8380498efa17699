/** What migration prints, and how it names objects there. */

/** Where a migration command (`import`, `adopt`) prints: its report to `out`, errors and refusals to `err`. */
export interface MigrateIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** An object as migration names it in what it prints: `Kind namespace/name`, or `Kind name` without a namespace. */
export function describe(o: {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}): string {
  return o.namespace === undefined ? `${o.kind} ${o.name}` : `${o.kind} ${o.namespace}/${o.name}`;
}
