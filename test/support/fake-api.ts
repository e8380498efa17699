/**
 * A tiny stand-in for the API server on loopback, for the unit tests of which headers a kubeconfig makes the
 * client send (test/kube/kubeconfig-files.test.ts) and how the client retries (test/kube/client.test.ts): it serves
 * the CRDs and resources it is given, answers 404 to anything else, and records every request; an `answer` hook may
 * answer a request first (a 429 with `Retry-After`, a 503). Everything else, what import writes included, is tested on the real
 * API server (test/cluster).
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './tmp.js';

type Json = Record<string, unknown>;

/** A scripted answer: status, headers and a JSON body. */
export interface FakeAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Json;
}

export interface FakeApiOptions {
  /** Called for every request (counted from 1); an answer it returns is sent instead of the served objects. */
  readonly answer?: (request: { method: string; path: string; n: number }) => FakeAnswer | undefined;
}

export interface FakeApi {
  readonly url: string;
  /** A kubeconfig file whose current context reaches this server with a token. */
  readonly kubeconfig: string;
  readonly requests: { method: string; path: string; headers: IncomingHttpHeaders; rawHeaders: string[] }[];
  close(): Promise<void>;
}

/** Serves `crds` and `resources` (each with apiVersion, kind, metadata.namespace and name). */
export async function fakeApi(
  crds: Json[],
  resources: Json[],
  options: FakeApiOptions = {},
): Promise<FakeApi> {
  const requests: FakeApi['requests'] = [];
  const lists = new Map<string, Json[]>();
  for (const r of resources) {
    const c = crds.find(
      (d) => `${(d.spec as Json).group}/${((d.spec as Json).versions as Json[])[0]?.name}` === r.apiVersion,
    );
    const plural = ((c?.spec as Json).names as Json).plural;
    const path = `/apis/${r.apiVersion}/namespaces/${(r.metadata as Json).namespace}/${plural}`;
    lists.set(path, [...(lists.get(path) ?? []), r]);
  }
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    requests.push({ method: req.method ?? '', path, headers: req.headers, rawHeaders: req.rawHeaders });
    const scripted = options.answer?.({ method: req.method ?? '', path, n: requests.length });
    if (scripted !== undefined) {
      res.writeHead(scripted.status, { 'Content-Type': 'application/json', ...scripted.headers });
      res.end(JSON.stringify(scripted.body ?? {}));
      return;
    }
    const items = path === '/apis/apiextensions.k8s.io/v1/customresourcedefinitions' ? crds : lists.get(path);
    res.setHeader('Content-Type', 'application/json');
    if (items !== undefined || /^\/apis\/[^/]+\/[^/]+\/namespaces\/[^/]+\/[^/]+$/.test(path)) {
      res.end(JSON.stringify({ kind: 'List', items: items ?? [] }));
      return;
    }
    res.statusCode = 404;
    res.end(
      JSON.stringify({
        kind: 'Status',
        status: 'Failure',
        reason: 'NotFound',
        message: `${path} not found`,
        code: 404,
      }),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kubeconfig = join(tempDir('specforge-fake-api-'), 'config');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'current-context: fake',
      'contexts: [{name: fake, context: {cluster: fake, user: fake}}]',
      `clusters: [{name: fake, cluster: {server: "${url}"}}]`,
      'users: [{name: fake, user: {token: fake-token}}]',
    ].join('\n'),
  );
  return {
    url,
    kubeconfig,
    requests,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** A kubeconfig whose current context names a loopback port nothing listens on (one just closed), and that URL. */
export async function closedPortKubeconfig(): Promise<{ url: string; kubeconfig: string }> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.close();
  await once(server, 'close');
  const kubeconfig = join(tempDir('specforge-closed-port-'), 'config');
  writeFileSync(
    kubeconfig,
    [
      'current-context: c',
      'contexts: [{name: c, context: {cluster: k, user: u}}]',
      `clusters: [{name: k, cluster: {server: "${url}"}}]`,
      'users: [{name: u, user: {token: t}}]',
    ].join('\n'),
  );
  return { url, kubeconfig };
}
