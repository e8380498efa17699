import { describeValue } from './problem.js';
import { checkDns1123Label } from './k8s-names.js';
import type { Problem } from './problem.js';
import { checkAnnotations, checkLabels } from './meta.js';
import { formatPath } from './field-path.js';
import { checkObjectName, expectedName, nameRuleOf } from './name-rules.js';
import { groupOf, type Manifest } from './manifest.js';
import { jsonBytesBeyond } from './json-size.js';
import { appendAll } from '../util/append.js';
import { checkListMapKeys } from './list-maps.js';
import { checkSchema } from './schema/check-schema.js';
import { checkVendoredResource } from './crd/vendored.js';
import { validateBuiltIn } from './validate.js';
import { checkCrdValidations } from './crd/crd-validations.js';
import { isCrd } from './crd/registry.js';

/**
 * What every rendered object must be, whoever made it (a spec, or any construct of a chart module): a kind and
 * apiVersion, a name the API server takes for its kind (src/rules/name-rules.ts: a DNS subdomain for most kinds, and
 * always a path segment, so its dist/ file name never leaves the chart's directory), a namespace that is a DNS label, valid
 * labels and annotations, no two items of one key in a list that server-side apply merges as a map
 * (src/rules/list-maps.ts: env by name, ports by port and protocol, …), a size the API server stores (etcd's
 * default request limit, 1.5 MiB of JSON), the API server's built-in validation of its kind (src/rules/validate.ts), and for a custom resource of a vendored CRD (Argo CD, Flux, OpenShift
 * Route) its CRD's schema and rules (src/rules/crd/vendored.ts). Pure.
 */

/** The largest object (its JSON) etcd stores with its default `--max-request-bytes`. */
export const MAX_OBJECT_BYTES = 1536 * 1024;

/** The problems of one object, each path printed (`metadata.name`). */
export function checkObject(o: Manifest): Problem<string>[] {
  // Nearly every object passes: each check adds to one list only when it finds something.
  const out: Problem<string>[] = [];
  appendAll(out, checkType(o));
  appendAll(out, checkName(o));
  appendAll(out, checkFileName(o));
  appendAll(out, checkNamespace(o.metadata?.namespace));
  appendAll(out, checkLabelMap(o.metadata?.labels));
  for (const v of checkAnnotations(['metadata', 'annotations'], o.metadata?.annotations))
    out.push(toProblem(v));
  appendAll(out, checkListMapKeys(o));
  // A built-in kind decoded as the API server decodes it (src/rules/schema/), then its kind's validation rules
  // (src/rules/validate.ts); a path already reported is not reported again.
  appendNew(out, checkSchema(o));
  appendAll(out, checkSize(o));
  appendNew(out, validateBuiltIn(o));
  // a CRD's CEL rules as the API server reads them (src/rules/crd/crd-validations.ts)
  if (isCrd(o)) appendNew(out, checkCrdValidations(o));
  appendAll(out, checkVendoredResource(o)); // custom resources of the vendored CRDs (src/rules/crd/)
  return out;
}

/** Adds the problems whose path no problem in `out` has yet. */
function appendNew(out: Problem<string>[], found: readonly Problem<string>[]): void {
  for (const p of found) if (!out.some((q) => q.path === p.path)) out.push(p);
}

/** A problem with its path printed (a hint, if any, is not carried, as before). */
function toProblem(v: Problem): Problem<string> {
  return { path: formatPath(v.path), expected: v.expected, found: v.found };
}

function checkType(o: Manifest): Problem<string>[] {
  const out: Problem<string>[] = [];
  if (typeof o.kind !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(o.kind))
    out.push({ path: 'kind', expected: 'a kind such as Deployment', found: describeValue(o.kind) });
  if (typeof o.apiVersion !== 'string' || !/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(o.apiVersion))
    out.push({
      path: 'apiVersion',
      expected: 'an apiVersion such as v1 or apps/v1',
      found: describeValue(o.apiVersion),
    });
  return out;
}

/**
 * The name, by the rule the API server applies to the object's kind (src/rules/name-rules.ts); whatever the kind, it
 * must be a path segment, so its dist/ file name never leaves the chart's directory.
 */
function checkName(o: Manifest): Problem<string>[] {
  const name: unknown = o.metadata?.name;
  const kind = typeof o.kind === 'string' ? o.kind : '';
  const rule = nameRuleOf(groupOf(o), kind);
  // Every rule is at least a path segment (a DNS name has no "/", "%" and is never "." or "..").
  const problem = typeof name !== 'string' ? expectedName(rule) : checkObjectName(groupOf(o), kind, name);
  if (problem === undefined) return [];
  return [
    {
      path: 'metadata.name',
      expected: kind === '' ? problem : `a ${kind} name: ${problem}`,
      found: describeValue(name),
    },
  ];
}

/** The longest file name most file systems take (bytes). */
const MAX_FILE_NAME_BYTES = 255;

/** The object's file in dist/ (`<kind>.<namespace>.<name>.yaml`) must be a name the file system takes. */
function checkFileName(o: Manifest): Problem<string>[] {
  const name: unknown = o.metadata?.name;
  if (typeof name !== 'string' || typeof o.kind !== 'string') return [];
  const ns: unknown = o.metadata?.namespace;
  // A UTF-16 unit is at most 3 bytes of UTF-8, lowercased or not (a pair of them 4): short names need no count.
  const units = o.kind.length + name.length + (typeof ns === 'string' ? ns.length + 1 : 0) + '..yaml'.length;
  if (3 * units <= MAX_FILE_NAME_BYTES) return [];
  const file = `${o.kind.toLowerCase()}.${typeof ns === 'string' ? `${ns}.` : ''}${name}.yaml`;
  const bytes = Buffer.byteLength(file);
  return bytes <= MAX_FILE_NAME_BYTES
    ? []
    : [
        {
          path: 'metadata.name',
          expected: `a name short enough for its file in dist/ (${file.slice(0, 40)}…, at most ${MAX_FILE_NAME_BYTES} bytes)`,
          found: `${bytes} bytes`,
        },
      ];
}

function checkNamespace(ns: unknown): Problem<string>[] {
  if (ns === undefined) return [];
  const problem = typeof ns === 'string' ? checkDns1123Label(ns) : 'a string';
  return problem === undefined
    ? []
    : [{ path: 'metadata.namespace', expected: problem, found: describeValue(ns) }];
}

function checkSize(o: Manifest): Problem<string>[] {
  const bytes = jsonBytesBeyond(o, MAX_OBJECT_BYTES);
  return bytes <= MAX_OBJECT_BYTES
    ? []
    : [
        {
          path: '',
          expected: `an object of at most ${MAX_OBJECT_BYTES} bytes of JSON (etcd's default request limit)`,
          found: `${bytes} bytes`,
        },
      ];
}

function checkLabelMap(labels: unknown): Problem<string>[] {
  if (labels === undefined) return [];
  if (typeof labels !== 'object' || labels === null)
    return [{ path: 'metadata.labels', expected: 'a mapping', found: describeValue(labels) }];
  return checkLabels(['metadata', 'labels'], labels as Record<string, unknown>).map(toProblem);
}
