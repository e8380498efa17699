import { createRequire } from 'node:module';
import { describeValue, type Problem } from '../../problem.js';
import type { FieldPath } from '../../field-path.js';
import { fieldSchema, isMapping, type Structural, type ValidationRule } from '../structural.js';
import { Budget, BudgetExceeded, OutOfTime } from './budget.js';
import { kubernetesFunctions, type Cel } from './libraries.js';
import { toCelValue } from './values.js';
import { fieldsRead, projected } from './reads.js';

/**
 * `x-kubernetes-validations` on create: each rule of each node present in the object is evaluated with `self`
 * bound to the node's value (typed by its schema, src/rules/crd/cel/values.ts). A rule that is false, fails to
 * evaluate (`no such key`) or exceeds its cost budget is one problem: at the node, or at its `fieldPath`; its message
 * is `messageExpression`'s value, else `message`, else the rule. A rule the hang guard stops within its cost
 * (src/rules/crd/cel/budget.ts) has no verdict: it goes to `late` for the caller's note (an error only for a caller
 * that keeps no note, the vendored CRDs, whose few small rules take microseconds). Transition rules (those reading `oldSelf`) are not
 * evaluated on create, as the API server does not. CEL (@bufbuild/cel, its strings extension, RE2) is loaded on the
 * first rule met, and each rule compiled once.
 */
export function checkRules(
  value: unknown,
  schema: Structural,
  {
    path,
    out,
    unevaluated,
    late,
  }: {
    path: FieldPath;
    out: Problem[];
    unevaluated?: Set<string> | undefined;
    late?: Set<string> | undefined;
  },
): void {
  if (!hasRules(schema)) return;
  walk({ x: value, s: schema, path }, { out, budget: new Budget(), unevaluated, late });
}

/**
 * What the CEL core cannot parse or bind although kube-apiserver v1.34 takes it (optional syntax `self.?a`, the
 * `sets` library, two-variable comprehensions, some IP/CIDR and format methods): such a rule of a CRD the API server
 * has accepted is not evaluated, and the render names it in a note, never refuses the object for it.
 */
const NOT_EVALUABLE =
  /unbound function|unresolved attribute|undeclared reference|found \. but expecting|expecting end of input|mismatched input|no such overload/i;

const withRules = new WeakMap<Structural, boolean>();

/** Whether a schema holds any rule (remembered by schema). */
export function hasRules(s: Structural): boolean {
  let has = withRules.get(s);
  if (has !== undefined) return has;
  has =
    (s['x-kubernetes-validations']?.length ?? 0) > 0 ||
    Object.values(s.properties ?? {}).some(hasRules) ||
    (typeof s.additionalProperties === 'object' && hasRules(s.additionalProperties)) ||
    (s.items !== undefined && hasRules(s.items));
  withRules.set(s, has);
  return has;
}

/** What one object's walk carries: its problems and the budget of its rules. */
interface Walk {
  readonly out: Problem[];
  readonly budget: Budget;
  /** Where rules the CEL core cannot evaluate go (their text), when the caller names them in a note. */
  readonly unevaluated?: Set<string> | undefined;
  /** Where rules the hang guard stopped within their cost go (their text), when the caller names them in a note. */
  readonly late?: Set<string> | undefined;
}

/** A node of the object: its value, its schema, its path; and its value as CEL sees it, once it has rules. */
interface Node {
  readonly x: unknown;
  readonly s: Structural;
  readonly path: FieldPath;
  self?: unknown;
}

function walk(node: Node, w: Walk): void {
  const { x, s, path } = node;
  if (x === null || x === undefined || !hasRules(s)) return;
  const own = s['x-kubernetes-validations'] ?? [];
  // converted once for all the node's rules: its reads are counted by the budget of the rule reading them
  // (only the fields the rules read, when they read no more: src/rules/crd/cel/reads.ts)
  if (own.length > 0) node.self = toCelValue(projected(x, fieldsRead(own)), s, w.budget);
  for (const rule of own) evaluate(rule, node, w);
  if (Array.isArray(x)) {
    const items = s.items;
    if (items !== undefined) x.forEach((item, i) => walk({ x: item, s: items, path: [...path, i] }, w));
  } else if (isMapping(x)) {
    for (const [k, v] of Object.entries(x)) {
      const sub = fieldSchema(s, k);
      if (sub !== undefined) walk({ x: v, s: sub, path: [...path, k] }, w);
    }
  }
}

type Program = (ctx: Record<string, unknown>) => unknown;

let cel: { lib: Cel; env: unknown } | undefined;
const programs = new Map<string, Program | Error>();

function load(): { lib: Cel; env: unknown } {
  if (cel !== undefined) return cel;
  const require = createRequire(import.meta.url);
  const lib = require('@bufbuild/cel') as Cel;
  const { strings } = require('@bufbuild/cel/ext') as { strings: unknown[] };
  const { RE2JS } = require('@bufbuild/re2') as {
    RE2JS: { compile(p: string): { test(s: string): boolean } };
  };
  const env = lib.celEnv({
    funcs: [...strings, ...kubernetesFunctions(lib)] as never,
    re2: { compile: (p: string) => RE2JS.compile(p) },
  });
  cel = { lib, env };
  return cel;
}

/** The compiled rule, or why it does not compile (a CRD the API server would refuse). */
export function compileRule(expression: string): Program | Error {
  let p = programs.get(expression);
  if (p !== undefined) return p;
  const { lib, env } = load();
  try {
    p = lib.plan(env as never, lib.parse(expression)) as Program;
  } catch (e) {
    p = new Error(`a CEL expression that compiles: ${(e as Error).message}`);
  }
  programs.set(expression, p);
  return p;
}

/** Whether a rule reads `oldSelf` (a transition rule), outside string literals. */
function isTransitionRule(rule: string): boolean {
  return /\boldSelf\b/.test(rule.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''"));
}

/** What a rule's text tells once: whether it reads oldSelf, and its fieldPath as segments (remembered by rule). */
const readings = new WeakMap<
  ValidationRule,
  { readonly transition: boolean; readonly relative: FieldPath }
>();

function readingOf(rule: ValidationRule): { readonly transition: boolean; readonly relative: FieldPath } {
  let r = readings.get(rule);
  if (r === undefined) {
    r = {
      transition: isTransitionRule(rule.rule),
      relative: rule.fieldPath === undefined ? [] : parseFieldPath(rule.fieldPath),
    };
    readings.set(rule, r);
  }
  return r;
}

function evaluate(rule: ValidationRule, node: Node, w: Walk): void {
  const { out, budget, unevaluated } = w;
  const { transition, relative } = readingOf(rule);
  if (transition) return;
  const at = [...node.path, ...relative];
  const program = compileRule(rule.rule);
  if (program instanceof Error) {
    if (unevaluated !== undefined) unevaluated.add(rule.rule);
    else out.push({ path: at, expected: program.message, found: JSON.stringify(rule.rule) });
    return;
  }
  const result = run(program, node, budget);
  if (result === true) return;
  const failure = failureOf(result, load().lib);
  if (setAside(rule, result, failure, w)) return;
  out.push({
    path: at,
    expected: failure ?? messageOf(rule, node, budget),
    found:
      failure === undefined
        ? describeValue(valueAt(node.x, relative))
        : `the rule ${JSON.stringify(rule.rule)}`,
    ...(rule.reason === undefined || rule.reason === 'FieldValueInvalid'
      ? {}
      : { hint: `reason ${rule.reason}` }),
  });
}

/**
 * Whether a rule has no verdict, set aside in the caller's set for its note: stopped by the hang guard within its
 * cost (`late`), or failed for what the CEL core lacks, a function or syntax (`unevaluated`).
 */
function setAside(rule: ValidationRule, result: unknown, failure: string | undefined, w: Walk): boolean {
  const into =
    w.late !== undefined && causeOf(result, OutOfTime) !== undefined
      ? w.late
      : failure !== undefined && w.unevaluated !== undefined && NOT_EVALUABLE.test(failure)
        ? w.unevaluated
        : undefined;
  into?.add(rule.rule);
  return into !== undefined;
}

/** A program's result with `self` bound to the node, or what it threw. */
function run(program: Program, { self }: Node, budget: Budget): unknown {
  budget.start();
  try {
    return program({ self });
  } catch (e) {
    return e;
  }
}

/** The value at a relative path (a rule's fieldPath) under `x`. */
function valueAt(x: unknown, path: FieldPath): unknown {
  let v = x;
  for (const seg of path)
    v = isMapping(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[seg] : undefined;
  return v;
}

/** Why a rule did not evaluate to a boolean: an error, its budget, or another type. */
function failureOf(result: unknown, lib: Cel): string | undefined {
  if (result === false) return undefined;
  const over = causeOf(result, BudgetExceeded);
  if (over !== undefined) return `a rule that evaluates within its cost budget (it took ${over.message})`;
  const stalled = causeOf(result, OutOfTime);
  if (stalled !== undefined)
    return `a rule that evaluates in time (the hang guard stopped it after ${stalled.message}, within its cost: no verdict; render again)`;
  if (lib.isCelError(result) || result instanceof Error)
    return `a rule that evaluates (${(result as Error).message})`;
  return `a rule that evaluates to a boolean (got ${typeof result})`;
}

/** `e` or the cause it wraps (CEL wraps what a read throws) when it is a `type`. */
function causeOf<T extends Error>(e: unknown, type: new (m: string) => T): T | undefined {
  for (let c: unknown = e, depth = 0; c !== undefined && c !== null && depth < 8; depth++) {
    if (c instanceof type) return c;
    c = (c as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `messageExpression`'s value when it evaluates to a one-line string, else `message`, else the rule. */
function messageOf(rule: ValidationRule, node: Node, budget: Budget): string {
  const program = rule.messageExpression === undefined ? undefined : compileRule(rule.messageExpression);
  const m = program === undefined || program instanceof Error ? undefined : run(program, node, budget);
  if (typeof m === 'string' && m.trim() !== '' && !m.includes('\n')) return m;
  return rule.message ?? `a value for which ${rule.rule} holds`;
}

/** A rule's `fieldPath` (`.spec.replicas`, `.a['b.c']`, `.list[0]`) as segments. */
export function parseFieldPath(fieldPath: string): FieldPath {
  const out: (string | number)[] = [];
  const re = /\.([A-Za-z_][A-Za-z0-9_-]*)|\['((?:[^'\\]|\\.)*)'\]|\[(\d+)\]/gy;
  for (let m = re.exec(fieldPath); m !== null; m = re.exec(fieldPath)) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(m[2].replace(/\\(.)/g, '$1'));
    else out.push(Number(m[3]));
  }
  return out;
}
