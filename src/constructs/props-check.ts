import type { IConstruct } from 'constructs';
import { describeValue, printProblem } from '../rules/problem.js';
import { checkAdoptPlatform } from '../specs/adopt.js';
import { checkSpecDocument } from '../specs/load.js';
import type { FieldPath } from '../rules/field-path.js';
import type { Problem } from '../rules/problem.js';
import { formatProblem } from '../rules/problem-format.js';
import { CHART_SETTINGS_FILE, checkSettings } from '../specs/settings-file.js';
import { checkLabelValue } from '../rules/k8s-names.js';
import type { SpecKind } from '../specs/types.js';
import { APPS_API_VERSION, NODEPOOL_API_VERSION } from '../rules/vocabulary.js';
import { plainCopy } from './plain.js';
import { appendAll } from '../util/append.js';

/**
 * Construct props checked by the rules spec files obey. A construct's props describe a spec document (its own
 * fields are the document's `spec`, `name`/`namespace`/`labels`/`annotations` its `metadata`, `adopt` its top-level
 * `adopt` block), so the constructs call the very function the spec loader calls ({@link checkSpecDocument}: JSON
 * Schema plus semantic checks) on that document, and report each violation at the prop it came from. Same rule,
 * same wording, both doors.
 */

/** Props that are not spec fields: construct settings, checked here with the chart-settings rules. */
const SETTING_PROPS = [
  'name',
  'namespace',
  'partOf',
  'annotations',
  'hardening',
  'platform',
  'ingressClassName',
  'exposure',
  'gateway',
];

/**
 * The kinds whose Service is exposed (an Ingress, a Route, an HTTPRoute): they take `platform`, `ingressClassName`,
 * `exposure` and `gateway`.
 */
const EXPOSED: readonly SpecKind[] = ['Myapp', 'Podroute'];

/** The prop whose value becomes `metadata.labels`. */
const labelsProp = (kind: SpecKind): string => (kind === 'NodePool' ? 'objectLabels' : 'labels');

const API_VERSION: Readonly<Record<SpecKind, string>> = {
  AppService: APPS_API_VERSION,
  Myapp: APPS_API_VERSION,
  Podroute: APPS_API_VERSION,
  NodePool: NODEPOOL_API_VERSION,
};

/**
 * One problem with a prop: the problem record with its path printed as the prop path (`ports[0].port`).
 * @deprecated Use `Problem<string>` (src/rules/problem.ts), the one problem record.
 */
export type PropViolation = Problem<string>;

/** Thrown by a construct whose props break a rule: names the construct, and each prop with expected and found. */
export class SpecforgePropsError extends Error {
  constructor(
    /** The construct path, e.g. `shop/web`. */
    public readonly constructPath: string,
    /** The construct's kind: a spec kind, or `ControllerBundle`. */
    public readonly kind: SpecKind | 'ControllerBundle',
    public readonly violations: readonly Problem<string>[],
  ) {
    super(
      [
        `specforge: invalid props for ${kind} ${constructPath}:`,
        ...violations.map((v) => `  ${formatPropViolation(v)}`),
      ].join('\n'),
    );
    this.name = 'SpecforgePropsError';
  }
}

/** `path: expected X, found Y. hint`: the same sentence a spec-file error ends with. */
export function formatPropViolation(v: Problem<string>): string {
  return formatProblem(v, '(props)');
}

/**
 * The violations of a construct's props (with the resolved `name`), as prop paths. Pure. `props` may come from
 * JavaScript, so nothing about its shape is assumed.
 */
export function checkProps(kind: SpecKind, name: string, props: object): Problem<string>[] {
  const record = plainCopy(props) as Record<string, unknown>;
  const metadata: Record<string, unknown> = { name };
  const spec: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === labelsProp(kind)) metadata.labels = value;
    else if (key === 'namespace' || key === 'annotations') metadata[key] = value;
    // Spec fields, and unknown props for the schema to name; `adopt` is the document's top-level block.
    else if (key !== 'adopt' && !SETTING_PROPS.includes(key)) spec[key] = value;
  }
  const doc = {
    apiVersion: API_VERSION[kind],
    kind,
    metadata,
    spec,
    ...(record.adopt === undefined ? {} : { adopt: record.adopt }),
  };
  const specProblems = checkSpecDocument(doc).map((v) => toProp(kind, v));
  const settingProblems = checkSettingProps(kind, record);
  // A pin for an object the platform does not render, once props and platform are valid: the rule the spec door
  // applies to valid specs with chart.yaml's platform.
  if (specProblems.length === 0 && settingProblems.length === 0)
    appendAll(
      settingProblems,
      checkAdoptPlatform(
        kind,
        doc.adopt,
        platformOf(kind, record),
        EXPOSED.includes(kind) ? (record.exposure as string | undefined) : undefined,
      ),
    );
  return [...specProblems, ...settingProblems].map(printProblem);
}

/** The mark of props a construct takes without checking them (`Symbol.for`: two copies of specforge agree). */
const SKIP_CHECK = Symbol.for('specforge.dev/skip-props-check');

/**
 * A copy of `props` that the construct given them takes without checking: for the spec door, whose specs passed the
 * same rule already with file and line in its errors (src/render/chart/build-chart.ts), and for the differential test,
 * which sends what the constructs would make of a spec the gate refuses to the API server, to prove the server
 * refuses it too. Explicit and per construct: other constructs of the same chart (a chart module's) are checked.
 * The mark is not enumerable, so props spread from these are checked again. Not part of the package API.
 * @internal
 */
export function skipPropsCheck<P extends object>(props: P): P {
  return Object.defineProperty({ ...props }, SKIP_CHECK, { value: true });
}

/** Throws {@link SpecforgePropsError} when {@link checkProps} finds anything (unless {@link skipPropsCheck}). */
export function assertProps(scope: IConstruct, kind: SpecKind, name: string, props: object): void {
  if ((props as { readonly [SKIP_CHECK]?: unknown })[SKIP_CHECK] === true) return;
  const violations = checkProps(kind, name, props);
  if (violations.length > 0) throw new SpecforgePropsError(scope.node.path, kind, violations);
}

/** The `platform` prop where the kind takes one (validated by then). */
function platformOf(kind: SpecKind, props: Record<string, unknown>): 'kubernetes' | 'openshift' | undefined {
  return EXPOSED.includes(kind) ? (props.platform as 'kubernetes' | 'openshift' | undefined) : undefined;
}

/** A document path back to the prop it came from. */
function toProp(kind: SpecKind, v: Problem): Problem {
  const [head, field, ...rest] = v.path;
  if (head === 'spec') return { ...v, path: field === undefined ? [] : [field, ...rest] };
  if (head !== 'metadata' || field === undefined) return v;
  return { ...v, path: [field === 'labels' ? labelsProp(kind) : field, ...rest] };
}

/**
 * `partOf` becomes a label value; `hardening`, `platform`, `ingressClassName`, `exposure` and `gateway` obey the
 * chart-settings schema and rules
 * (the rule chart.yaml obeys, in one place), each where the kind uses it.
 */
function checkSettingProps(kind: SpecKind, props: Record<string, unknown>): Problem[] {
  const out: Problem[] = [];
  const { partOf } = props;
  if (partOf !== undefined) {
    const problem = typeof partOf === 'string' ? checkLabelValue(partOf) : 'a string';
    if (problem !== undefined)
      out.push({ path: ['partOf'], expected: problem, found: describeValue(partOf) });
  }
  appendAll(out, checkSettings(CHART_SETTINGS_FILE, settingsOf(kind, props)));
  return out;
}

/**
 * The props that are chart settings, each where the kind uses it: `hardening` (all but NodePool), `platform` and
 * `ingressClassName` (the exposed kinds), `exposure` and `gateway` (those and AppService, which asks for its route).
 */
function settingsOf(kind: SpecKind, props: Record<string, unknown>): Record<string, unknown> {
  const keys = [
    ...(kind === 'NodePool' ? [] : ['hardening']),
    ...(EXPOSED.includes(kind) ? ['platform', 'ingressClassName'] : []),
    ...(EXPOSED.includes(kind) || kind === 'AppService' ? ['exposure', 'gateway'] : []),
  ];
  return Object.fromEntries(keys.filter((k) => props[k] !== undefined).map((k) => [k, props[k]]));
}

export type { FieldPath };
