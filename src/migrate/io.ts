/** Where a migration command (`import`, `adopt`) prints: its report to `out`, errors and refusals to `err`. */
export interface MigrateIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}
