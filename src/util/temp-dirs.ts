/**
 * Temporary directories that do not outlive the process: made under the system's temporary directory (never in
 * the user's repository), removed by their owner when done, and otherwise on every way out: a normal exit,
 * `process.exit`, and SIGINT, SIGTERM or SIGHUP (Ctrl-C, a CI cancel, a closed terminal), after which the process
 * ends with the signal's conventional code (130, 143, 129). While none is alive no handler is installed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SIGNALS = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type Signal = keyof typeof SIGNALS;

const alive = new Set<string>();

const removeAll = (): void => {
  for (const dir of alive) rmSync(dir, { recursive: true, force: true });
  alive.clear();
};

const onSignal = (signal: Signal): void => {
  removeAll();
  process.exit(SIGNALS[signal]);
};

function install(): void {
  process.on('exit', removeAll);
  for (const s of Object.keys(SIGNALS) as Signal[]) process.on(s, onSignal);
}

function uninstall(): void {
  process.off('exit', removeAll);
  for (const s of Object.keys(SIGNALS) as Signal[]) process.off(s, onSignal);
}

/** A new directory `<tmp>/<prefix>XXXXXX`, removed on exit or signal unless {@link removeTempDir} removed it first. */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(resolve(tmpdir()), prefix));
  if (alive.size === 0) install();
  alive.add(dir);
  return dir;
}

/** Removes a directory of {@link makeTempDir}, and the handlers once none is left. */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  if (alive.delete(dir) && alive.size === 0) uninstall();
}
