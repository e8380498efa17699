import { checkLabelKey } from './k8s-names.js';
import type { FieldPath } from './field-path.js';
import type { ResourceRequirements } from './core-types.js';
import { describeValue, type Problem } from './problem.js';
import { compareQuantities, isWhole, parseQuantity, roundUpToMilli, type Quantity } from './quantity.js';

/**
 * A container's resource requirements, as the API server defaults and validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go: `ValidateContainerResourceRequirements`
 * / `ValidateResourceRequirements` (requests at most limits, no overcommit of extended resources and hugepages,
 * "HugePages require cpu or memory", claims), `validateContainerResourceName`, `validateResourceName`,
 * `ValidateResourceQuantityValue` (`ValidateNonnegativeQuantity`, whole units of extended resources) and
 * `validateResourceQuantityHugePageValue`; quantities are rounded up to milli units first, as
 * pkg/apis/core/v1 defaulting does. Quantities themselves: src/rules/quantity.ts. Pure.
 */

/** Resource names a container may ask for without a domain prefix. */
const CONTAINER_RESOURCES = ['cpu', 'memory', 'ephemeral-storage'];

/**
 * Container resources: names a container may use, quantities the API server parses and that are not negative,
 * requests at most their limits, extended resources (a domain prefix) and hugepages whole, limited and requested
 * alike, and resource claims only by the names of the pod's `spec.resourceClaims` (`claimNames`; a spec's pod
 * declares none, so a spec may name none).
 */
export function checkResources(
  path: FieldPath,
  resources: ResourceRequirements | undefined,
  claimNames: ReadonlySet<string> = new Set(),
): Problem[] {
  if (resources === undefined) return [];
  const out: Problem[] = [];
  const limits = quantities([...path, 'limits'], resources.limits, out);
  const requests = quantities([...path, 'requests'], resources.requests, out);
  for (const [name, request] of requests) out.push(...checkRequest(path, name, request, limits.get(name)));
  const hugepages = [...limits.keys(), ...requests.keys()].some((n) => n.startsWith('hugepages-'));
  const cpuOrMemory = ['cpu', 'memory'].some((n) => limits.has(n) || requests.has(n));
  if (hugepages && !cpuOrMemory)
    out.push({
      path,
      expected: 'cpu or memory beside hugepages (the API server requires one)',
      found: 'hugepages only',
    });
  (resources.claims ?? []).forEach((c, i) => {
    if (typeof c.name === 'string' && claimNames.has(c.name)) return;
    out.push({
      path: [...path, 'claims', i],
      expected:
        claimNames.size === 0
          ? 'no resource claims (a rendered pod declares no spec.resourceClaims for a container to name)'
          : `the name of one of the pod's spec.resourceClaims (${[...claimNames].sort().join(', ')})`,
      found: describeValue(c.name),
    });
  });
  return out;
}

/** Parses one resource list, recording name and quantity problems; returns the valid entries (milli-rounded). */
function quantities(
  path: FieldPath,
  list: Readonly<Record<string, string | number>> | undefined,
  out: Problem[],
): Map<string, Quantity> {
  const parsed = new Map<string, Quantity>();
  for (const [name, raw] of Object.entries(list ?? {})) {
    const at = [...path, name];
    const nameProblem = resourceNameProblem(name);
    if (nameProblem !== undefined) {
      out.push({ path: at, expected: nameProblem, found: `resource ${describeValue(name)}` });
      continue;
    }
    const q = parseQuantity(raw);
    if (q === undefined) {
      out.push({
        path: at,
        expected: 'a Kubernetes quantity such as 100m, 0.5, 128Mi or 1G',
        found: describeValue(raw),
      });
      continue;
    }
    const problem = quantityProblem(name, q);
    if (problem !== undefined) out.push({ path: at, expected: problem, found: describeValue(raw) });
    else parsed.set(name, roundUpToMilli(q));
  }
  return parsed;
}

/** A container resource name (`validateContainerResourceName`), or what it must be. */
export function resourceNameProblem(name: string): string | undefined {
  if (!name.includes('/')) {
    return CONTAINER_RESOURCES.includes(name) || /^hugepages-./.test(name)
      ? undefined
      : `a container resource: cpu, memory, ephemeral-storage, hugepages-<size>, or a domain-prefixed extended resource (example.com/gpu)`;
  }
  if (checkLabelKey(name) !== undefined)
    return 'a resource name: a DNS-subdomain prefix, "/" and a name (example.com/gpu)';
  if (name.includes('kubernetes.io/')) return undefined;
  if (name.startsWith('requests.') || checkLabelKey(`requests.${name}`) !== undefined)
    return 'an extended resource name (example.com/gpu)';
  return undefined;
}

function quantityProblem(name: string, q: Quantity): string | undefined {
  if (q.num < 0n) return 'a quantity of at least 0';
  if (!overcommitAllowed(name) && !name.startsWith('hugepages-') && !isWhole(roundUpToMilli(q)))
    return 'a whole number (extended resources are counted in units)';
  if (name.startsWith('hugepages-')) {
    const page = parseQuantity(name.slice('hugepages-'.length));
    if (page === undefined || page.num <= 0n)
      return 'a hugepages resource named after a page size (hugepages-2Mi)';
    const ratio = { num: q.num * page.den, den: q.den * page.num };
    if (!isWhole(ratio)) return `a whole multiple of the page size of ${name}`;
  }
  return undefined;
}

/** Native resources other than hugepages may be requested below their limit (overcommitted). */
function overcommitAllowed(name: string): boolean {
  const native = !name.includes('/') || name.includes('kubernetes.io/');
  return native && !name.startsWith('hugepages-');
}

function checkRequest(
  path: FieldPath,
  name: string,
  request: Quantity,
  limit: Quantity | undefined,
): Problem[] {
  const at = [...path, 'requests', name];
  if (limit === undefined)
    return overcommitAllowed(name)
      ? []
      : [
          {
            path: [...path, 'limits', name],
            expected: `a limit equal to the request (${name} cannot be overcommitted)`,
            found: 'nothing',
          },
        ];
  const cmp = compareQuantities(request, limit);
  if (!overcommitAllowed(name) && cmp !== 0)
    return [
      {
        path: at,
        expected: `a request equal to the ${name} limit (it cannot be overcommitted)`,
        found: 'a different value',
      },
    ];
  if (cmp > 0)
    return [{ path: at, expected: `a request at most the ${name} limit`, found: 'more than the limit' }];
  return [];
}
