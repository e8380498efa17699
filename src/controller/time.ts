/** The API server's time formats, from ms since the epoch. Pure. */

/** RFC 3339 with microseconds, the MicroTime format the API server parses (Lease renewals, Events). */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** RFC 3339 in whole seconds, as the API server writes a condition's `lastTransitionTime`. */
export function statusTime(ms: number): string {
  return microTime(ms).replace(/\.\d+Z$/, 'Z');
}
