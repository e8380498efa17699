import type { FieldPath } from './field-path.js';
import type { Manifest } from './manifest.js';
import type { Problem } from './problem.js';
import { checkPortOrName, invalid, list, notOneOf, push, rec, required } from './validation-kit.js';

/**
 * The part of a handler that probes and lifecycle hooks share, as the API server validates it.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/core/validation/validation.go `validateHandler` and
 * `validateLifecycleHandler`: exactly one of `kinds` (a probe's exec, httpGet, tcpSocket and grpc; a hook's exec,
 * httpGet, tcpSocket and sleep), an exec command, an httpGet port (a number from 1 to 65535 or a port name) and
 * scheme, a tcpSocket port. What only one of them has (a probe's grpc, a hook's sleep) its caller checks. Pure.
 */
export function checkHandler(path: FieldPath, h: Manifest, kinds: readonly string[], out: Problem[]): void {
  const handlers = kinds.filter((k) => h[k] !== undefined && h[k] !== null);
  if (handlers.length === 0)
    out.push(required(path, `a handler: one of ${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}`));
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
}

/** A handler's port: required, a number or a name. */
function port(out: Problem[], path: FieldPath, value: unknown): void {
  if (value === undefined || value === 0 || value === '')
    out.push(required([...path, 'port'], 'a port number or name'));
  else checkPortOrName(out, path, 'port', value);
}
