import type { OpenApiSchema, VendoredDocument } from './vendored.js';

/**
 * A kind's schema compiled once into a plan the decoder walks (src/rules/schema/decode.ts): every `$ref` resolved,
 * every node one of a few shapes, tagged by a number so the walk stays monomorphic. A plan is built the first time an
 * object of its kind is checked and kept; schemas that refer to themselves (JSONSchemaProps) become cyclic plans.
 * Pure.
 */

/** The shapes of a plan node. */
export const Shape = {
  /** Anything (RawExtension, apiextensions JSON, an object with neither properties nor additionalProperties). */
  Any: 0,
  Object: 1,
  Array: 2,
  String: 3,
  Integer: 4,
  Number: 5,
  Boolean: 6,
  /** intstr.IntOrString: a string, or an integer of int32. */
  IntOrString: 7,
  /** resource.Quantity: a string or number of its grammar (src/rules/quantity.ts). */
  Quantity: 8,
  /** A string of RFC 3339 date and time (metav1.Time, MicroTime). */
  DateTime: 9,
  /** A string of base64 data (`format: byte`, a Go []byte). */
  Bytes: 10,
} as const;
export type Shape = (typeof Shape)[keyof typeof Shape];

export interface PlanNode {
  readonly shape: Shape;
  /** The schema's name (`io.k8s.api.apps.v1.DeploymentSpec`) for messages, when it has one. */
  name: string;
  /** Object: its fields. */
  fields: Readonly<Record<string, PlanNode>> | undefined;
  /** Object: the schema of any other key (a map), or undefined when other keys are unknown fields. */
  extra: PlanNode | undefined;
  /** Object: other keys are kept as they are (`x-kubernetes-preserve-unknown-fields`). */
  open: boolean;
  /** Array: its items. */
  items: PlanNode | undefined;
  /** String: the values it takes, when it is an enum. */
  values: ReadonlySet<string> | undefined;
  /** Integer: its range, by `format` (int32, else int64). */
  min: number;
  max: number;
}

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT32 = 2 ** 31;
const INT64 = 2 ** 63;

function node(shape: Shape, name = ''): PlanNode {
  return {
    shape,
    name,
    fields: undefined,
    extra: undefined,
    open: false,
    items: undefined,
    values: undefined,
    min: 0,
    max: 0,
  };
}

const ANY = node(Shape.Any);

/** Compiles schemas of one vendored document, sharing the plan of each named schema. */
export class PlanCompiler {
  private readonly named = new Map<string, PlanNode>();

  constructor(private readonly doc: VendoredDocument) {}

  /** The plan of `kind`, or undefined when the document has no such kind. */
  kind(kind: string): PlanNode | undefined {
    const name = this.doc.kinds[kind];
    return name === undefined ? undefined : this.ref(name);
  }

  private ref(name: string): PlanNode {
    const known = this.named.get(name);
    if (known !== undefined) return known;
    const schema = this.doc.schemas[name];
    if (schema === undefined) return ANY;
    // Registered before its fields are compiled, so a schema that refers to itself gets a cyclic plan.
    const out = node(Shape.Any, name);
    this.named.set(name, out);
    Object.assign(out, name === QUANTITY ? node(Shape.Quantity, name) : this.compile(schema, name));
    return out;
  }

  private compile(s: OpenApiSchema, name = ''): PlanNode {
    if (s.$ref !== undefined) return this.ref(s.$ref);
    if (s.format === 'int-or-string' || s['x-kubernetes-int-or-string'] === true)
      return node(Shape.IntOrString, name);
    switch (s.type) {
      case 'object':
        return this.object(s, name);
      case 'array':
        return this.array(s, name);
      case 'string':
        return this.string(s, name);
      case 'integer': {
        const out = node(Shape.Integer, name);
        const bound = s.format === 'int32' ? INT32 : INT64;
        out.min = -bound;
        out.max = bound - 1;
        return out;
      }
      case 'number':
        return node(Shape.Number, name);
      case 'boolean':
        return node(Shape.Boolean, name);
      default:
        return ANY;
    }
  }

  private array(s: OpenApiSchema, name: string): PlanNode {
    const out = node(Shape.Array, name);
    out.items = s.items === undefined ? ANY : this.compile(s.items);
    return out;
  }

  private object(s: OpenApiSchema, name: string): PlanNode {
    const out = node(Shape.Object, name);
    const props = s.properties;
    const extra = s.additionalProperties;
    if (props === undefined && extra === undefined) return ANY; // a free-form object (FieldsV1, RawExtension)
    if (props !== undefined) {
      const fields: Record<string, PlanNode> = Object.create(null) as Record<string, PlanNode>;
      for (const [k, v] of Object.entries(props)) fields[k] = this.compile(v);
      out.fields = fields;
    }
    if (typeof extra === 'object') out.extra = this.compile(extra);
    out.open = extra === true || s['x-kubernetes-preserve-unknown-fields'] === true;
    return out;
  }

  private string(s: OpenApiSchema, name: string): PlanNode {
    if (s.format === 'byte') return node(Shape.Bytes, name);
    if (s.format === 'date-time') return node(Shape.DateTime, name);
    const out = node(Shape.String, name);
    if (s.enum !== undefined) out.values = new Set(s.enum.filter((v): v is string => typeof v === 'string'));
    return out;
  }
}
