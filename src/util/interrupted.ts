import { constants } from 'node:os';

/**
 * What a run stopped by a signal (Ctrl-C's SIGINT, SIGTERM from a CI runner or `kill`, SIGHUP from a closed terminal)
 * undoes before it ends: dist/'s lock and the sibling directory a render was writing (src/output/dist-stage.ts),
 * which the signal's default action would leave behind (the next run repairs them, but until then the lock is held
 * and the sibling is a stray directory in a checkout), and the temporary directories of src/util/temp-dirs.ts. Each holder registers its undoing while it holds, and a
 * signal runs them, the last registered first, then ends the process with the shell's code for it (128 + its
 * number: 130 for SIGINT). dist/ itself is never touched: a swap is synchronous, so a signal is handled before or
 * after it, never during it. A signal that a program embedding specforge handles itself is left to it: no handler is
 * added for a signal that has a listener already, and the one added does nothing while another listens. Main
 * thread only (workers get no signals).
 */

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type Signal = (typeof SIGNALS)[number];

const undoings = new Set<() => void>();
/** The handlers added, while something is held (and one turn of the event loop after). */
let installed: Map<Signal, () => void> | undefined;

/** Registers `undo`, run if the process is stopped by a signal before the returned function is called. */
export function undoOnSignal(undo: () => void): () => void {
  undoings.add(undo);
  install();
  return () => {
    // A signal caught while the thread was busy is handled in the next poll phase of the event loop: the handlers go
    // only after one (two check phases later: a release in an I/O callback runs in a poll phase, whose own check
    // phase comes before the next poll), so a signal is never lost, and a later synchronous wait (for dist/'s lock
    // held by another run) holds none that would keep Ctrl-C from stopping it.
    if (undoings.delete(undo) && undoings.size === 0)
      setImmediate(() => setImmediate(uninstallIfIdle).unref()).unref();
  };
}

function install(): void {
  if (installed !== undefined) return;
  installed = new Map();
  for (const signal of SIGNALS) {
    if (process.listenerCount(signal) > 0) continue;
    // one added later is the program's own way too: it may be shutting down with care, using what is held
    const listener = (): void => (process.listenerCount(signal) > 1 ? undefined : stop(signal));
    process.on(signal, listener);
    installed.set(signal, listener);
  }
}

function uninstallIfIdle(): void {
  if (undoings.size > 0 || installed === undefined) return;
  for (const [signal, listener] of installed) process.off(signal, listener);
  installed = undefined;
}

/** Undoes what is held, then ends the process as a shell reports a process stopped by `signal`. */
function stop(signal: Signal): void {
  for (const undo of [...undoings].reverse()) {
    undoings.delete(undo);
    try {
      undo();
    } catch {
      // the next run repairs what could not be undone now (src/output/dist-lock.ts)
    }
  }
  process.exit(128 + constants.signals[signal]);
}
