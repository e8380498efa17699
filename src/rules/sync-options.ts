/**
 * Argo CD's per-object sync options (`argocd.argoproj.io/sync-options`, comma-separated): `own` with `option` added,
 * or undefined when `own` already holds it (nothing to write). Pure.
 */
export function addedSyncOption(own: string | undefined, option: string): string | undefined {
  if (own !== undefined && own.split(',').includes(option)) return undefined;
  return own === undefined || own === '' ? option : `${own},${option}`;
}
