import type { FieldPath } from './field-path.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { checkHandler } from './core-handler.js';
import { int, invalid, rec } from './validation-kit.js';

/**
 * A container's `lifecycle` hooks, as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go `validateLifecycle` and `validateHandler`
 * on `postStart` and `preStop`: exactly one handler of exec, httpGet, tcpSocket and sleep, checked as a probe's
 * handler is (src/rules/core-handler.ts); `validateSleepAction`: seconds from 0 (PodLifecycleSleepActionAllowZero, GA in v1.34) to the pod's
 * `terminationGracePeriodSeconds` (30 when unset). An init container takes hooks only as a sidecar
 * (`restartPolicy: Always`): the caller says so. `stopSignal` needs the ContainerStopSignals gate, off in v1.34,
 * and is dropped on create: not checked. Runs only on hooks that are there. Pure.
 */

const HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

/** The hooks of `lifecycle` at `path`; `grace` is the pod's termination grace period. */
export function checkLifecycle(path: FieldPath, value: unknown, grace: number, out: Problem[]): void {
  const lifecycle = rec(value);
  if (lifecycle === undefined) return;
  for (const hook of ['postStart', 'preStop']) {
    const h = rec(lifecycle[hook]);
    if (h !== undefined) checkHook([...path, hook], h, grace, out);
  }
}

function checkHook(path: FieldPath, h: Manifest, grace: number, out: Problem[]): void {
  checkHandler(path, h, HANDLERS, out);
  const sleep = rec(h.sleep);
  const seconds = int(sleep?.seconds) ?? 0;
  if (sleep !== undefined && (seconds < 0 || seconds > grace))
    out.push(
      invalid(
        [...path, 'sleep', 'seconds'],
        `a number from 0 to the pod's terminationGracePeriodSeconds (${grace})`,
        seconds,
      ),
    );
}
