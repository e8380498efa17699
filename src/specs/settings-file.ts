import type { LocatedProblem, Problem } from '../rules/problem.js';
import { documentProblems } from './checkable.js';
import { checkSingleDocument } from './load.js';
import { checkSchema, type SchemaName } from './schemas.js';

/**
 * What a settings file is (`charts/gitops.yaml`, `charts/<chart>/chart.yaml`): the JSON Schema it is read against
 * (`schemas/<schema>.schema.json`: its keys, their types, no unknown key) and the rules of the settings the schema
 * cannot say. `T` is what the file holds, every field optional (an empty file is `{}`).
 */
export interface SettingsFile<T extends object> {
  readonly schema: Extract<SchemaName, 'chart' | 'gitops'>;
  /** The problems of settings that passed the schema, or of what is checkable of them when they did not. */
  readonly rules: (settings: T) => Problem[];
}

/**
 * The one parser of settings files: one YAML document read as spec files are (YAML 1.2, YAML 1.1 ambiguities
 * refused, positions kept), checked against the file's schema, then its rules (on what the schema left checkable),
 * every problem at once, each located `file:line:col` with its field, what was expected and what was found. The
 * settings are `{}` unless there are no errors. Pure.
 */
export function parseSettingsFile<T extends object>(
  declared: SettingsFile<T>,
  text: string,
  file: string,
): { settings: T; errors: LocatedProblem[] } {
  const { data, errors } = checkSingleDocument(text, file, (d) =>
    documentProblems(
      d,
      (v) => checkSchema(declared.schema, v),
      (v) => declared.rules(v as T),
    ),
  );
  if (errors.length > 0) return { settings: {} as T, errors };
  return { settings: data as T, errors: [] };
}
