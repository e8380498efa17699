import { KubeConfig } from '@kubernetes/client-node';
import type { ControlPlaneInfo } from './control-plane.js';

/** A KubeConfig for the test control plane with the given bearer token (admin by default). */
export function adminConfig(info: ControlPlaneInfo, token: string = info.token): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'test', server: info.server, skipTLSVerify: true }],
    users: [{ name: 'user', token }],
    contexts: [{ name: 'test', cluster: 'test', user: 'user' }],
    currentContext: 'test',
  });
  return kc;
}
