import { formatPath } from '../field-path.js';
import type { Manifest } from '../manifest.js';
import type { Problem } from '../problem.js';
import { decodeProblems } from './decode.js';
import { PlanCompiler, type PlanNode } from './plan.js';
import { vendoredDocument } from './vendored.js';

/**
 * The schema check of an object of a built-in kind: it is decoded as the API server of the vendored release decodes
 * it (src/rules/schema/decode.ts) against that kind's schema in the server's own OpenAPI v3 documents
 * (schemas/vendor/kubernetes/). An object of a kind those documents do not hold (a custom resource, or a version the
 * release does not serve) is not checked here. Plans are compiled per kind the first time one is seen.
 */

const compilers = new Map<string, PlanCompiler | null>();
const plans = new Map<string, PlanNode | null>();

/** The plan of `apiVersion` `kind`, or undefined when it is not a built-in kind of the vendored release. */
export function builtInPlan(apiVersion: unknown, kind: unknown): PlanNode | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  const key = `${apiVersion} ${kind}`;
  const known = plans.get(key);
  if (known !== undefined) return known ?? undefined;
  const plan = compilerOf(apiVersion)?.kind(kind);
  plans.set(key, plan ?? null);
  return plan;
}

function compilerOf(apiVersion: string): PlanCompiler | undefined {
  const known = compilers.get(apiVersion);
  if (known !== undefined) return known ?? undefined;
  const doc = vendoredDocument(apiVersion);
  const compiler = doc === undefined ? undefined : new PlanCompiler(doc);
  compilers.set(apiVersion, compiler ?? null);
  return compiler;
}

/** Whether the vendored documents hold `apiVersion` `kind` (so its objects get the schema check). */
export function isBuiltInKind(apiVersion: unknown, kind: unknown): boolean {
  return builtInPlan(apiVersion, kind) !== undefined;
}

/** The schema problems of `o`, paths printed; none for a kind the vendored documents do not hold. */
export function checkSchema(o: Manifest): Problem<string>[] {
  const plan = builtInPlan(o.apiVersion, o.kind);
  if (plan === undefined) return [];
  const found = decodeProblems(plan, o);
  return found.length === 0 ? [] : found.map((p) => ({ ...p, path: formatPath(p.path) }));
}
