/**
 * Temporary directories that do not outlive the process: made under the system's temporary directory (never in
 * the user's repository), removed by their owner when done, and otherwise on every way out: a normal exit,
 * `process.exit`, and SIGINT, SIGTERM or SIGHUP (Ctrl-C, a CI cancel, a closed terminal), after which the process
 * ends with the signal's conventional code (130, 143, 129; src/util/interrupted.ts, which undoes dist/'s lock and
 * stage on the same signals). While none is alive nothing is undone on exit or signal. A process
 * killed outright (SIGKILL, a power cut) cannot clean up: each directory names its process in {@link OWNER_FILE},
 * and the next one made with the same prefix removes those whose process is gone.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { undoOnSignal } from './interrupted.js';

const alive = new Set<string>();

const removeAll = (): void => {
  for (const dir of alive) rmSync(dir, { recursive: true, force: true });
  alive.clear();
};

/** Forgets the removal on a signal (src/util/interrupted.ts, with what else the run holds). */
let forget: (() => void) | undefined;

function install(): void {
  process.on('exit', removeAll);
  forget = undoOnSignal(removeAll);
}

function uninstall(): void {
  process.off('exit', removeAll);
  forget?.();
  forget = undefined;
}

/** The file in each directory that holds the id of the process that made it. */
export const OWNER_FILE = '.specforge-owner-pid';

/** A new directory `<tmp>/<prefix>XXXXXX`, removed on exit or signal unless {@link removeTempDir} removed it first. */
export function makeTempDir(prefix: string): string {
  const base = resolve(tmpdir());
  sweepOrphans(base, prefix);
  const dir = mkdtempSync(join(base, prefix));
  if (alive.size === 0) install();
  alive.add(dir);
  writeFileSync(join(dir, OWNER_FILE), `${process.pid}\n`);
  return dir;
}

/**
 * Removes the directories `<base>/<prefix>*` whose owner process no longer runs (never one without an owner file,
 * {@link OWNER_FILE}). `isRunning` is for tests.
 */
export function sweepOrphans(
  base: string,
  prefix: string,
  isRunning: (pid: number) => boolean = running,
): void {
  let names: string[];
  try {
    names = readdirSync(base).filter((n) => n.startsWith(prefix));
  } catch {
    return;
  }
  for (const name of names) {
    let pid: number;
    try {
      pid = Number(readFileSync(join(base, name, OWNER_FILE), 'utf8').trim());
    } catch {
      continue;
    }
    if (Number.isInteger(pid) && pid > 0 && !isRunning(pid))
      rmSync(join(base, name), { recursive: true, force: true });
  }
}

/** Whether a process runs with this id (one of another user counts as running). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Removes a directory of {@link makeTempDir}, and the handlers once none is left. */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  if (alive.delete(dir) && alive.size === 0) uninstall();
}
