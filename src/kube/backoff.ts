/**
 * The one back-off helper of the Kubernetes client and the controller: exponential delays with a cap and optional
 * jitter, the server's `Retry-After`, and an abortable sleep. Used by the client's request retries, the work queue's
 * per-key failures and the reflector's list/watch retries, so every wait follows the same arithmetic.
 *
 * Mirrors client-go: `wait.Backoff` (Duration, Factor, Jitter, Cap), `wait.Jitter` (a jittered wait is never shorter
 * than the one asked for: d + rand·factor·d) and `rest`'s `retryAfterSeconds` (the `Retry-After` header as whole
 * seconds; an HTTP date is not read, as there).
 */

/** A source of randomness in [0, 1); tests pass a fixed one. */
export type Random = () => number;

export interface BackoffOptions {
  /** The first delay, in ms. */
  readonly initialMs: number;
  /** The largest delay, in ms (before jitter). */
  readonly maxMs: number;
  /** Each failure multiplies the delay by this. @default 2 */
  readonly factor?: number;
  /** Up to this fraction of the delay is added at random (client-go's `Jitter`). @default 0 (none) */
  readonly jitter?: number;
}

/** `ms` plus up to `factor`·`ms` at random: never shorter than `ms` (client-go's `wait.Jitter`). */
export function jittered(ms: number, factor: number, random: Random = Math.random): number {
  if (factor <= 0) return ms;
  return ms + Math.floor(random() * factor * ms);
}

/** The delay after `failures` earlier failures (0 for the first retry): initial·factor^failures, capped, jittered. */
export function backoffDelay(
  options: BackoffOptions,
  failures: number,
  random: Random = Math.random,
): number {
  const factor = options.factor ?? 2;
  const exponent = Math.min(Math.max(failures, 0), 64);
  const ms = Math.min(options.maxMs, options.initialMs * factor ** exponent);
  return jittered(ms, options.jitter ?? 0, random);
}

/**
 * The wait a `Retry-After` header asks for, in ms: whole non-negative seconds, as client-go reads it; undefined when
 * the header is absent or not a number of seconds.
 */
export function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  return Number(value.trim()) * 1000;
}

/** Back-off of a retried request when the server names no longer wait: 0.25 s, 0.5 s, 1 s, then 2 s. */
export const REQUEST_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 2_000 };
/** Up to this fraction is added to every wait between request attempts, so throttled clients do not return at once. */
export const REQUEST_JITTER = 0.2;

/**
 * How long to wait before sending a request again that the server answered with `status`, after `failures` earlier
 * such answers; undefined when it must not be sent again. As client-go's `checkWait`: a 429, or any 5xx that carries
 * `Retry-After` (the server did not act on it). A 429 without the header is retried too (the API server's
 * priority and fairness always names one; a CRD whose storage is still starting may not). The wait is the longer
 * of `Retry-After` and {@link REQUEST_BACKOFF}, plus up to {@link REQUEST_JITTER} of it: never shorter than the
 * server asked.
 */
export function retryDelay(
  status: number,
  retryAfter: string | string[] | undefined,
  failures: number,
  random: Random = Math.random,
): number | undefined {
  const asked = retryAfterMs(retryAfter);
  if (status !== 429 && !(status >= 500 && asked !== undefined)) return undefined;
  const own = backoffDelay(REQUEST_BACKOFF, failures);
  return jittered(Math.max(asked ?? 0, own), REQUEST_JITTER, random);
}

/** Waits `ms`, or less when `signal` aborts (then it resolves at once, never rejects). */
export type Delay = (ms: number, signal: AbortSignal) => Promise<void>;

export const realDelay: Delay = (ms, signal) =>
  new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
