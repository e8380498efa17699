import { formatPath } from '../field-path.js';
import type { Manifest } from '../manifest.js';
import type { Problem } from '../problem.js';
import { checkRules } from './cel/rules.js';
import { decodeCustomResource } from './decode.js';
import { checkEmbedded, holdsEmbedded } from './embedded.js';
import type { Structural } from './structural.js';
import { validateValue } from './validate.js';

/**
 * A custom resource checked against its CRD version's schema as the API server checks it on create, with strict
 * field validation: decoded (nulls dropped, defaults applied, unknown fields pruned: each a problem), then the
 * schema's value validations, its embedded resources, and its CEL rules on the defaulted object. Every problem, paths
 * printed; the rules the CEL core cannot evaluate go to `unevaluated`, those the hang guard stopped to `late`, when
 * given (src/rules/crd/cel/rules.ts). Pure (CEL is loaded on the first rule).
 */
export function checkCustomResource(
  o: Manifest,
  schema: Structural,
  unevaluated?: Set<string>,
  late?: Set<string>,
): Problem<string>[] {
  const { value, unknown } = decodeCustomResource(o, schema);
  const out: Problem[] = unknown.map((path) => ({
    path,
    expected: 'a field the CRD schema declares (strict field validation)',
    found: 'an unknown field',
  }));
  const rest: Problem[] = [];
  validateValue(value, schema, [], rest);
  if (holdsEmbedded(schema))
    checkEmbedded(value, { ...schema, 'x-kubernetes-embedded-resource': false }, [], rest);
  checkRules(value, schema, { path: [], out: rest, unevaluated, late });
  return [...out, ...rest].map((p) => ({
    path: formatPath(p.path),
    expected: p.expected,
    found: p.found,
    ...(p.hint === undefined ? {} : { hint: p.hint }),
  }));
}
