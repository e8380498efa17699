import { checkDns1123Label } from './k8s-names.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { parseQuantity } from './quantity.js';
import { checkLabelMap, int, invalid, notOneOf, push, rec, str } from './validation-kit.js';

/**
 * PriorityClass (scheduling.k8s.io/v1) and RuntimeClass (node.k8s.io/v1), as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/scheduling/validation/validation.go `ValidatePriorityClass` (no
 * `system-` name but the two built-in ones, a value of at most 1000000000 (`HighestUserDefinablePriority`),
 * `preemptionPolicy`) and pkg/apis/node/validation/validation.go `ValidateRuntimeClass` (a handler that is a DNS
 * label, `overhead.podFixed` quantities not negative, `scheduling.nodeSelector` labels). Pure.
 */

const HIGHEST_USER_PRIORITY = 1_000_000_000;
const SYSTEM_CLASSES = ['system-node-critical', 'system-cluster-critical'];

export function validatePriorityClass(o: Manifest, out: Problem[]): void {
  const name = str(o.metadata?.name) ?? '';
  const system = SYSTEM_CLASSES.includes(name);
  if (name.startsWith('system-') && !system)
    out.push(
      invalid(['metadata', 'name'], 'a name not starting with system- (kept for the built-in classes)', name),
    );
  const value = int(o.value);
  if (value !== undefined && value > HIGHEST_USER_PRIORITY && !system)
    out.push(invalid(['value'], `a priority of at most ${HIGHEST_USER_PRIORITY}`, value));
  push(out, notOneOf([], 'preemptionPolicy', o.preemptionPolicy, ['PreemptLowerPriority', 'Never']));
}

export function validateRuntimeClass(o: Manifest, out: Problem[]): void {
  const handler = str(o.handler) ?? '';
  const problem = checkDns1123Label(handler);
  if (problem !== undefined) out.push(invalid(['handler'], problem, o.handler));
  for (const [name, raw] of Object.entries(rec(rec(o.overhead)?.podFixed) ?? {})) {
    const q = parseQuantity(raw);
    if (q !== undefined && q.num < 0n)
      out.push(invalid(['overhead', 'podFixed', name], 'a quantity of at least 0', raw));
  }
  checkLabelMap(out, ['scheduling'], 'nodeSelector', rec(o.scheduling)?.nodeSelector);
}
