/**
 * A CRD version's `openAPIV3Schema` as the API server reads it: a structural schema (every node typed, or
 * `x-kubernetes-int-or-string` / `x-kubernetes-preserve-unknown-fields`), value validations, defaults, list types and
 * CEL rules (`x-kubernetes-validations`). Plain JSON, as a CRD object holds it; read, never changed.
 */
export interface Structural {
  readonly type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  readonly format?: string;
  readonly description?: string;
  readonly properties?: Readonly<Record<string, Structural>>;
  readonly additionalProperties?: Structural | boolean;
  readonly items?: Structural;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly nullable?: boolean;
  readonly default?: unknown;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly exclusiveMaximum?: boolean;
  readonly multipleOf?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly allOf?: readonly Structural[];
  readonly anyOf?: readonly Structural[];
  readonly oneOf?: readonly Structural[];
  readonly not?: Structural;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-map-type'?: 'atomic' | 'granular';
  readonly 'x-kubernetes-validations'?: readonly ValidationRule[];
}

/** One `x-kubernetes-validations` entry. */
export interface ValidationRule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly reason?:
    'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
  readonly fieldPath?: string;
  readonly optionalOldSelf?: boolean;
}

/** A JSON mapping (not a list, not null). */
export function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The schema of the field `key` of a mapping under `s`: a property, else the additional properties' schema. */
export function fieldSchema(s: Structural | undefined, key: string): Structural | undefined {
  if (s === undefined) return undefined;
  const prop =
    s.properties === undefined ? undefined : Object.hasOwn(s.properties, key) ? s.properties[key] : undefined;
  if (prop !== undefined) return prop;
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/** Whether the schema has a schema for the field `key`, of its own or as additional properties. */
export function knowsField(s: Structural, key: string): boolean {
  return (
    (s.properties !== undefined && Object.hasOwn(s.properties, key)) ||
    typeof s.additionalProperties === 'object' ||
    s.additionalProperties === true
  );
}

/** A deep copy of plain JSON. */
export function copyJson<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/**
 * A schema as read from JSON, with fields set to `null` left out (Go reads them as unset: OpenShift's Route CRD
 * has `anyOf: null`).
 */
export function structuralOf(raw: unknown): Structural {
  return withoutNulls(raw) as Structural;
}

function withoutNulls(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(withoutNulls);
  if (!isMapping(x)) return x;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x))
    if (v !== null || k === 'default' || k === 'enum') out[k] = withoutNulls(v);
  return out;
}
