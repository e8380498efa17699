import type { LocatedProblem, Problem } from '../rules/problem.js';
import { documentProblems } from './checkable.js';
import { checkSingleDocument } from './load.js';
import { checkSchema, type SchemaName } from './schemas.js';
import { checkChartSettingsSemantics } from './semantic.js';

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
 * The chart settings (`chart.yaml`, and the same settings where they come as values: construct props, a cdk8s Chart's
 * namespace and labels): schemas/chart.schema.json and {@link checkChartSettingsSemantics}. Declared here, not with
 * `ChartSettings` in src/render/, because both doors check them.
 */
export const CHART_SETTINGS_FILE: SettingsFile<Parameters<typeof checkChartSettingsSemantics>[0]> = {
  schema: 'chart',
  rules: checkChartSettingsSemantics,
};

/**
 * Every problem of settings given as a value, by a settings file's declaration: its schema's, then its rules' on what
 * the schema left checkable (`documentProblems`), unlocated. Pure.
 */
export function checkSettings<T extends object>(declared: SettingsFile<T>, value: unknown): Problem[] {
  return documentProblems(
    value,
    (v) => checkSchema(declared.schema, v),
    (v) => declared.rules(v as T),
  );
}

/**
 * The one parser of settings files: one YAML document read as spec files are (YAML 1.2, YAML 1.1 ambiguities
 * refused, positions kept), checked by {@link checkSettings}, every problem at once, each located `file:line:col`
 * with its field, what was expected and what was found. The settings are `{}` unless there are no errors. Pure.
 */
export function parseSettingsFile<T extends object>(
  declared: SettingsFile<T>,
  text: string,
  file: string,
): { settings: T; errors: LocatedProblem[] } {
  const { data, errors } = checkSingleDocument(text, file, (d) => checkSettings(declared, d));
  if (errors.length > 0) return { settings: {} as T, errors };
  return { settings: data as T, errors: [] };
}
