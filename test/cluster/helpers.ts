/**
 * Helpers for cluster tests: an admin client, per-test scopes (unique names plus a label selector, so controllers
 * of parallel tests never see each other's objects), object factories, polling, and controller lifecycle.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, inject } from 'vitest';
import { KubeClient, MERGE_PATCH, isStatus } from '../../src/kube/client.js';
import { silentLogger, jsonLogger } from '../../src/controller/log.js';
import { startController, type ControllerHandle, type ControllerOptions } from '../../src/controller/main.js';
import { toNodeView, type NodeView, type Taint } from '../../src/rules/node-view.js';
import { OWNED_ANNOTATION } from '../../src/rules/vocabulary.js';
import type { Manifest } from '../../src/rules/manifest.js';
import type { ControlPlaneInfo } from './control-plane.js';
import { adminConfig } from './kubeconfig.js';

export const SCOPE_LABEL = 'test.specforge.dev/scope';

export function controlPlane(): ControlPlaneInfo | null {
  return inject('controlPlane');
}

/** `describe` when the control plane is up; otherwise a skipped suite whose name says how to enable it. */
export function clusterDescribe(name: string, fn: () => void): void {
  if (controlPlane() === null) describe.skip(`${name} [skipped: ${inject('controlPlaneMissing')}]`, fn);
  else describe(name, fn);
}

export function uniq(prefix: string): string {
  return `${prefix}-${randomBytes(3).toString('hex')}`;
}

export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}${last === undefined ? '' : `: ${String(last)}`}`);
}

export interface NodeInit {
  readonly labels?: Record<string, string>;
  readonly taints?: readonly Taint[];
}

/** One test's world: its scope label, its objects, its controllers; `dispose()` removes them all. */
export class Scope {
  readonly id = uniq('s');
  readonly selector = `${SCOPE_LABEL}=${this.id}`;
  private readonly nodes = new Set<string>();
  private readonly pools = new Set<string>();
  private readonly controllers: ControllerHandle[] = [];

  private constructor(
    readonly info: ControlPlaneInfo,
    readonly admin: KubeClient,
  ) {}

  static async open(info: ControlPlaneInfo | null = controlPlane()): Promise<Scope> {
    if (info === null) throw new Error('no control plane');
    return new Scope(info, await KubeClient.fromKubeConfig(adminConfig(info)));
  }

  name(prefix: string): string {
    return `${prefix}-${this.id}`;
  }

  async createNode(name: string, init: NodeInit = {}): Promise<NodeView> {
    this.nodes.add(name);
    const body = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { ...init.labels, [SCOPE_LABEL]: this.id } },
      spec: init.taints === undefined ? {} : { taints: init.taints },
    };
    return toNodeView(await this.admin.request<Manifest>('POST', '/api/v1/nodes', body));
  }

  async node(name: string): Promise<NodeView> {
    return toNodeView(await this.admin.request<Manifest>('GET', `/api/v1/nodes/${name}`));
  }

  async patchNode(name: string, patch: unknown): Promise<NodeView> {
    return toNodeView(
      await this.admin.request<Manifest>('PATCH', `/api/v1/nodes/${name}`, patch, {
        contentType: MERGE_PATCH,
      }),
    );
  }

  /** Creates a NodePool in this scope (or, with `scope`, in another shard this scope's controllers do not see). */
  async createPool(name: string, spec: Record<string, unknown>, scope = this.id): Promise<Manifest> {
    this.pools.add(name);
    const body = {
      apiVersion: 'nodes.specforge.dev/v1',
      kind: 'NodePool',
      metadata: { name, labels: { [SCOPE_LABEL]: scope } },
      spec,
    };
    return this.admin.request<Manifest>('POST', '/apis/nodes.specforge.dev/v1/nodepools', body);
  }

  /**
   * Stores a NodePool straight into etcd, past the CRD's validation: a pool an older CRD let in. The API server and
   * the controller's watch then read it like any other.
   */
  async createPoolUnchecked(name: string, spec: Record<string, unknown>): Promise<void> {
    if (this.info.etcd === undefined) throw new Error('no etcd URL for this control plane');
    this.pools.add(name);
    const object = {
      apiVersion: 'nodes.specforge.dev/v1',
      kind: 'NodePool',
      metadata: {
        name,
        uid: randomUUID(),
        generation: 1,
        creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        labels: { [SCOPE_LABEL]: this.id },
      },
      spec: { handler: 'runc', ...spec },
    };
    const b64 = (text: string): string => Buffer.from(text).toString('base64');
    const res = await fetch(`${this.info.etcd}/v3/kv/put`, {
      method: 'POST',
      body: JSON.stringify({
        key: b64(`/registry/nodes.specforge.dev/nodepools/${name}`),
        value: b64(JSON.stringify(object)),
      }),
    });
    if (!res.ok) throw new Error(`etcd put ${name}: ${res.status} ${await res.text()}`);
    await waitFor(`${name} served`, () => this.pool(name));
  }

  async pool(name: string): Promise<Manifest | undefined> {
    try {
      return await this.admin.request<Manifest>('GET', `/apis/nodes.specforge.dev/v1/nodepools/${name}`);
    } catch (err) {
      if (isStatus(err, 404)) return undefined;
      throw err;
    }
  }

  async patchPoolSpec(name: string, spec: Record<string, unknown>): Promise<void> {
    await this.admin.request(
      'PATCH',
      `/apis/nodes.specforge.dev/v1/nodepools/${name}`,
      { spec },
      { contentType: MERGE_PATCH },
    );
  }

  async deletePool(name: string): Promise<void> {
    await this.admin.request('DELETE', `/apis/nodes.specforge.dev/v1/nodepools/${name}`);
  }

  /** Starts a controller limited to this scope, with short lease timings. */
  async startController(options: ControllerOptions = {}): Promise<ControllerHandle> {
    const handle = await startController({
      kubeConfig: adminConfig(this.info),
      namespace: 'default',
      leaseName: this.name('lease'),
      selector: this.selector,
      leaseDurationMs: 3000,
      renewDeadlineMs: 2000,
      retryPeriodMs: 300,
      statusDebounceMs: 100,
      workers: 4,
      logger: process.env.SPECFORGE_TEST_LOGS === undefined ? silentLogger : jsonLogger('debug'),
      ...options,
    });
    this.controllers.push(handle);
    return handle;
  }

  /** Waits until the node satisfies `check`; returns the node. */
  waitNode(
    name: string,
    what: string,
    check: (node: NodeView) => boolean,
    timeoutMs?: number,
  ): Promise<NodeView> {
    return waitFor(
      `${name}: ${what}`,
      async () => {
        const node = await this.node(name);
        return check(node) ? node : undefined;
      },
      timeoutMs,
    );
  }

  async dispose(): Promise<void> {
    await Promise.all(this.controllers.map((c) => c.stop()));
    for (const name of this.pools) {
      try {
        await this.admin.request(
          'PATCH',
          `/apis/nodes.specforge.dev/v1/nodepools/${name}`,
          { metadata: { finalizers: null } },
          { contentType: MERGE_PATCH },
        );
        await this.deletePool(name);
      } catch (err) {
        if (!isStatus(err, 404)) throw err;
      }
    }
    for (const name of this.nodes) {
      try {
        await this.admin.request('DELETE', `/api/v1/nodes/${name}`);
      } catch (err) {
        if (!isStatus(err, 404)) throw err;
      }
    }
    this.admin.close();
  }
}

/** The labels of a node minus the scope label (what tests compare). */
export function labelsOf(node: NodeView): Record<string, string> {
  return Object.fromEntries(Object.entries(node.labels).filter(([k]) => k !== SCOPE_LABEL));
}

export function taintIds(node: NodeView): string[] {
  return node.taints.map((t) => `${t.key}=${t.value ?? ''}:${t.effect}`).sort();
}

export function ownedOf(node: NodeView): unknown {
  return node.ownedRaw === undefined ? undefined : JSON.parse(node.ownedRaw);
}

export { OWNED_ANNOTATION };

/** Opens a fresh {@link Scope} before each test of the enclosing suite (handed to `use`) and disposes of it after. */
export function useScope(use: (scope: Scope) => void): void {
  let scope: Scope | undefined;
  beforeEach(async () => {
    scope = await Scope.open();
    use(scope);
  });
  afterEach(async () => {
    await scope?.dispose();
  });
}
