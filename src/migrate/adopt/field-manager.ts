/**
 * Which field manager names `specforge adopt` can hand fields to, checked before any API call: the API server's own
 * rules for a manager name (apimachinery `ValidateFieldManager`, measured on the test API server by
 * test/cluster/adopt-field-manager.test.ts), and a name that is not the old operator's (fields handed to the
 * operator's own manager would never leave it).
 */

/** The API server's limit on a field manager's name, in UTF-8 bytes (apimachinery `FieldManagerMaxLength`). */
export const FIELD_MANAGER_MAX_BYTES = 128;

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols, and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** `U+0009`. Pure. */
function codePoint(c: string): string {
  return `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * What is wrong with `name` as a field manager given with `flag`, as the end of a sentence (`found …; fix`), or
 * undefined when the API server takes it. Pure.
 */
export function managerNameProblem(flag: string, name: string): string | undefined {
  if (name.trim() === '')
    return `${flag}: expected a field manager name, found ${name === '' ? 'an empty one' : 'only whitespace'}`;
  if (name.trim() !== name)
    return `${flag}: expected a field manager name without leading or trailing whitespace, found ${JSON.stringify(name)}`;
  const bytes = Buffer.byteLength(name, 'utf8');
  if (bytes > FIELD_MANAGER_MAX_BYTES)
    return `${flag}: expected at most ${FIELD_MANAGER_MAX_BYTES} bytes (the API server's limit), found ${bytes}`;
  const chars = [...name];
  const bad = chars.findIndex((c) => !PRINTABLE.test(c));
  const c = chars[bad];
  if (c !== undefined)
    return `${flag}: expected printable characters only (the API server refuses others), found ${codePoint(c)} at position ${bad + 1} of ${JSON.stringify(name)}`;
  return undefined;
}

/**
 * Why `fieldManager` cannot take the old operator's fields, or undefined when it can: a name the API server refuses
 * (see {@link managerNameProblem}), or one of `operatorManagers` (every seed operator's own manager and those given
 * with --operator-manager: the fields would stay with a manager the operator shares). A sentence with the fix. Pure.
 */
export function fieldManagerProblem(
  fieldManager: string,
  operatorManagers: readonly string[],
): string | undefined {
  const fix = "give the GitOps tool's manager (kustomize-controller for Flux, argocd-controller for Argo CD)";
  const bad = managerNameProblem('--field-manager', fieldManager);
  if (bad !== undefined) return `${bad}; ${fix}`;
  if (operatorManagers.includes(fieldManager))
    return `--field-manager: expected a manager that is not an old operator's (${operatorManagers.join(', ')}), found ${JSON.stringify(fieldManager)}: the fields would stay with the operator's manager; ${fix}`;
  return undefined;
}
