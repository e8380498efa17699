import type { LocatedProblem } from '../../src/rules/problem.js';
import type { BadInputCase } from './bad-input-cases.js';
import { docsOf } from './as-constructs.js';

/**
 * Whether a bad-input case can be given to the constructs (and so to the API server as objects): it cannot when
 * what it breaks does not exist in code — YAML text, files, documents, apiVersion and kind, chart directory names,
 * the opdemo `size` alias, two spec files naming one spec, a spec that is not a mapping, a missing name (a
 * construct's name defaults to its id), how YAML text is read (1.1/1.2 ambiguities, aliases), podSecurity without
 * createNamespace (a chart.yaml combination: in code, the level is a prop of the ChartNamespace it labels).
 */

const KINDS = ['AppService', 'Myapp', 'Podroute', 'NodePool'];

/** Why a case has no construct equivalent, or undefined when it has one. */
export function noEquivalent(c: BadInputCase, errors: readonly LocatedProblem[]): string | undefined {
  let texts: string[];
  try {
    texts = Object.entries(c.files)
      .filter(([p]) => !p.endsWith('chart.yaml'))
      .map(([, t]) => t);
    const docs = docsOf(texts);
    if (docs.length === 0) return 'no document';
    if (docs.some((d) => typeof d !== 'object' || !KINDS.includes(d.kind))) return 'not a spec kind';
    if (docs.some((d) => typeof d.spec !== 'object' || d.spec === null || Array.isArray(d.spec)))
      return 'a spec that is not a mapping (props are an object)';
    if (docs.some((d) => 'size' in (d.spec as object))) return 'size';
    if (docs.some((d) => typeof d.metadata?.name !== 'string'))
      return 'no name (a construct is named by its id)';
  } catch {
    return 'not YAML';
  }
  if (errors.some((e) => e.document === undefined && !e.file.endsWith('chart.yaml')))
    return 'a file-level error';
  if (errors.some((e) => /^(apiVersion|kind)\b/.test(e.path))) return 'apiVersion or kind';
  if (errors.some((e) => /YAML|merge key|null key|alias/.test(`${e.expected} ${e.found}`)))
    return 'how YAML text is read (props are values, not text)';
  if (errors.some((e) => e.found.includes('also defined in'))) return 'two spec files naming one spec';
  if (errors.some((e) => e.path === 'podSecurity' && e.expected.includes('createNamespace')))
    return 'createNamespace (in code, the ChartNamespace construct is the Namespace and takes podSecurity)';
  return undefined;
}
