/**
 * Reading a watch stream: one JSON event per line, until the server ends the stream, the caller aborts, or no bytes
 * arrive for the idle bound (a silently dropped connection).
 */
import type http from 'node:http';
import { createInterface } from 'node:readline';

/** One event of a watch stream. */
export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: Record<string, unknown>;
}

/**
 * Calls `onEvent` for every line of `res`; resolves when the stream ends or `signal` aborts, rejects on a stream
 * error, an unreadable line, or `idleMs` without a byte.
 */
export function consumeLines(
  res: http.IncomingMessage,
  onEvent: (event: WatchEvent) => void,
  signal: AbortSignal,
  idleMs: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (err?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      res.destroy();
      if (err !== undefined && !signal.aborted) reject(err instanceof Error ? err : new Error(String(err)));
      else resolve();
    };
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(new Error(`watch idle for ${idleMs} ms`)), idleMs);
      timer.unref();
    };
    const onAbort = (): void => finish();
    signal.addEventListener('abort', onAbort);
    arm();
    const lines = createInterface({ input: res, crlfDelay: Infinity });
    lines.on('line', (line) => {
      arm();
      if (line.trim() === '') return;
      try {
        onEvent(JSON.parse(line) as WatchEvent);
      } catch (err) {
        finish(err);
      }
    });
    res.on('error', (err) => finish(err));
    res.on('aborted', () => finish(new Error('watch stream aborted')));
    // readline re-emits the input's errors (a reset connection); unhandled they would crash the process.
    lines.on('error', (err) => finish(err));
    lines.on('close', () => finish());
  });
}
