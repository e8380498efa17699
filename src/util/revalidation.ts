/**
 * The mark a `SpecforgeApp` (src/app/specforge-app.ts) carries while it runs its app's validations a second time,
 * after the dependencies are resolved, as cdk8s's first `chart.toJson()` of a synth does: specforge's chart checks
 * (src/constructs/chart-checks.ts) answer as they did the first time, as they do inside cdk8s's own `App.synth()`.
 * `Symbol.for`, so that two copies of specforge agree.
 */
export const REVALIDATING = Symbol.for('specforge.dev/revalidating');

/** Whether the root of `scope`'s tree (its App) carries {@link REVALIDATING}. */
export function revalidating(scope: { readonly node: { readonly root: object } }): boolean {
  return (scope.node.root as { [REVALIDATING]?: unknown })[REVALIDATING] === true;
}

/** Runs `run` with `app` carrying {@link REVALIDATING}, and takes the mark off after it, however it ends. */
export function revalidatingDuring<T>(app: object, run: () => T): T {
  const marked = app as { [REVALIDATING]?: boolean };
  marked[REVALIDATING] = true;
  try {
    return run();
  } finally {
    delete marked[REVALIDATING];
  }
}
