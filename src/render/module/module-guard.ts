import { isMainThread, parentPort } from 'node:worker_threads';
import { recordReadsOf, stopRecording } from './module-reads.js';

/**
 * Chart modules are user code run in the renderer's process: these guards turn what such code can do to the
 * process into errors naming the module. `process.exit` while the module loads or builds its chart throws instead
 * of ending the render with a misleading exit code; a module whose loading or async building never settles (an
 * await on nothing) fails after a time limit. While a module runs, the files it reads are recorded for its chart's
 * digest (src/render/module/module-reads.ts).
 */

let lastModule: string | undefined;

/** The chart module that started running last (for errors thrown later by what it left behind). */
export function lastStartedModule(): string | undefined {
  return lastModule;
}

/**
 * Tells a containing thread (src/render/contained.ts) that a chart module starts or stops running, and records the
 * files it reads meanwhile.
 */
export function moduleStarted(file: string): void {
  lastModule = file;
  recordReadsOf(file);
  parentPort?.postMessage({ type: 'module-start', file });
}

export function moduleEnded(): void {
  stopRecording();
  parentPort?.postMessage({ type: 'module-end' });
}

/** Node's timers take at most 2^31-1 ms; the watchdog adds a few seconds on top. */
const MAX_TIMEOUT_MS = 2_147_483_647 - 60_000;

function timeoutFromEnv(value: string | undefined): number {
  const ms = Number(value);
  return value !== undefined && Number.isFinite(ms) && ms > 0 ? Math.min(ms, MAX_TIMEOUT_MS) : 30_000;
}

/** How long a chart module may take to load (its top-level awaits included), and again to build its chart. */
export const MODULE_TIMEOUT_MS = timeoutFromEnv(process.env.SPECFORGE_MODULE_TIMEOUT_MS);

/** Thrown in place of `process.exit` inside a chart module. */
export class ModuleExitError extends Error {
  constructor(code: unknown) {
    super(
      `it called process.exit(${code === undefined ? '' : String(code)}); a chart module must not end the render`,
    );
    this.name = 'ModuleExitError';
  }
}

/**
 * Runs `fn` with `process.exit` turned into a {@link ModuleExitError}. In a containing worker (src/render/contained.ts)
 * `process.exit` is left alone: it ends only the worker, and the main thread reports it naming the module.
 */
export async function guardExit<T>(fn: () => Promise<T> | T): Promise<T> {
  const restore = patchExit();
  try {
    return await fn();
  } finally {
    restore();
  }
}

let patches = 0;
let realExit: typeof process.exit | undefined;

/**
 * Turns `process.exit` into a throw (on the main thread only); returns what puts it back. Nested and concurrent
 * renders share one patch: the real `process.exit` comes back when the last of them is done.
 */
function patchExit(): () => void {
  if (!isMainThread) return () => undefined;
  if (patches++ === 0) {
    realExit = process.exit;
    process.exit = ((code?: unknown) => {
      throw new ModuleExitError(code);
    }) as typeof process.exit;
  }
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    if (--patches === 0 && realExit !== undefined) process.exit = realExit;
  };
}

/** `promise`, or a rejection saying what did not finish within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not finish within ${ms / 1000} s (an await that never settles?)`)),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
