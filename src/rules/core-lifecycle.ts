import type { FieldPath } from './field-path.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { checkPortOrName, int, invalid, list, notOneOf, push, rec, required } from './validation-kit.js';

/**
 * A container's `lifecycle` hooks, as the API server validates them.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go `validateLifecycle` and `validateHandler`
 * on `postStart` and `preStop`: exactly one handler of exec, httpGet, tcpSocket and sleep; an exec command; an
 * httpGet port (a number from 1 to 65535 or a port name) and scheme (its path is defaulted to "/"); a tcpSocket
 * port; `validateSleepAction`: seconds from 0 (PodLifecycleSleepActionAllowZero, GA in v1.34) to the pod's
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
  const handlers = HANDLERS.filter((k) => h[k] !== undefined && h[k] !== null);
  if (handlers.length === 0) out.push(required(path, 'a handler: one of exec, httpGet, tcpSocket or sleep'));
  else if (handlers.length > 1) out.push(invalid(path, 'one handler', handlers.join(' and ')));
  const exec = rec(h.exec);
  if (exec !== undefined && list(exec.command).length === 0)
    out.push(required([...path, 'exec', 'command'], 'a command'));
  const http = rec(h.httpGet);
  if (http !== undefined) {
    port(out, [...path, 'httpGet'], http.port);
    push(out, notOneOf([...path, 'httpGet'], 'scheme', http.scheme, ['HTTP', 'HTTPS']));
  }
  const tcp = rec(h.tcpSocket);
  if (tcp !== undefined) port(out, [...path, 'tcpSocket'], tcp.port);
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

/** A handler's port: required, a number or a name. */
function port(out: Problem[], path: FieldPath, value: unknown): void {
  if (value === undefined || value === 0 || value === '')
    out.push(required([...path, 'port'], 'a port number or name'));
  else checkPortOrName(out, path, 'port', value);
}
