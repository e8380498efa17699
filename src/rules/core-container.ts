import type { FieldPath } from './field-path.js';
import { describeValue, type Problem } from './problem.js';

/**
 * A container's image, as the API server validates it.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go: `validateContainersOnlyForPod` (the
 * `len(ctr.Image) != len(strings.TrimSpace(ctr.Image))` check, "must not have leading or trailing whitespace"),
 * which runs when a Pod is created, not on a pod template (`validateContainerCommon` leaves whitespace alone): the
 * Deployment is accepted, its Pods are not. The container's environment and resources are in
 * src/rules/core-env.ts and src/rules/core-resources.ts. Pure.
 */

/** What Go's `strings.TrimSpace` trims (unicode.IsSpace): not the same set as JavaScript's `trim()`. */
const GO_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;

/** Whether `s` starts or ends with what Go's `strings.TrimSpace` trims. */
export function hasGoSpaceAtEdge(s: string): boolean {
  const edge = [s[0], s[s.length - 1]];
  return edge.some((c) => c !== undefined && GO_SPACE.test(c));
}

/** A container image: the Pods of a Deployment refuse leading or trailing whitespace. */
export function checkImage(path: FieldPath, image: string): Problem[] {
  return !hasGoSpaceAtEdge(image)
    ? []
    : [
        {
          path,
          expected: 'an image without leading or trailing whitespace (Pods refuse it)',
          found: describeValue(image),
        },
      ];
}
