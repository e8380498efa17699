import { describe, expect, it } from 'vitest';
import { ApiError, type Api } from '../../src/kube/client.js';
import type { WatchEvent } from '../../src/kube/watch-lines.js';
import { silentLogger } from '../../src/controller/log.js';
import type { Manifest } from '../../src/rules/manifest.js';
import { Reflector } from '../../src/controller/reflector.js';

type Script = Array<
  { list?: Manifest[]; rv?: string } | { watch: WatchEvent[]; end?: Error } | { listError: Error }
>;

function obj(name: string, rv: string): Manifest {
  return { metadata: { name, resourceVersion: rv } };
}

/** A fake API that plays a script of list and watch answers, then blocks until aborted. */
function fakeApi(script: Script): Api & { calls: string[] } {
  const calls: string[] = [];
  const next = (): Script[number] | undefined => script.shift();
  return {
    calls,
    request: async <T>(_method: string, path: string): Promise<T> => {
      calls.push(`list ${path}`);
      const step = next();
      if (step !== undefined && 'listError' in step) throw step.listError;
      if (step === undefined || !('list' in step)) throw new Error(`unexpected list ${path}`);
      return { metadata: { resourceVersion: step.rv ?? '1' }, items: step.list } as T;
    },
    watch: async (path: string, onEvent: (e: WatchEvent) => void, signal: AbortSignal): Promise<void> => {
      calls.push(`watch ${path}`);
      const step = script[0];
      if (step === undefined || !('watch' in step)) {
        await new Promise((resolve) => signal.addEventListener('abort', resolve));
        return;
      }
      script.shift();
      for (const e of step.watch) onEvent(e);
      if (step.end !== undefined) throw step.end;
    },
  };
}

function run(api: Api): {
  reflector: Reflector<Manifest>;
  events: string[];
  delays: number[];
  stop: () => void;
} {
  const events: string[] = [];
  const delays: number[] = [];
  const reflector = new Reflector<Manifest>({
    client: api,
    path: '/api/v1/nodes',
    labelSelector: 'a=b',
    transform: (raw) => raw,
    logger: silentLogger,
    watchTimeoutSeconds: () => 60,
    delay: async (ms) => {
      delays.push(ms);
    },
    handlers: {
      onAdd: (o) => events.push(`add ${o.metadata?.name}@${o.metadata?.resourceVersion}`),
      onUpdate: (_old, o) => events.push(`update ${o.metadata?.name}@${o.metadata?.resourceVersion}`),
      onDelete: (o) => events.push(`delete ${o.metadata?.name}`),
    },
  });
  const ctl = new AbortController();
  void reflector.run(ctl.signal);
  return { reflector, events, delays, stop: () => ctl.abort() };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise((r) => setImmediate(r));
}

describe('Reflector', () => {
  it('lists, then watches from the list resourceVersion with bookmarks and the selector', async () => {
    const api = fakeApi([{ list: [obj('a', '5')], rv: '10' }]);
    const { events, reflector, stop } = run(api);
    await reflector.waitForSync();
    await settle();
    stop();
    expect(events).toEqual(['add a@5']);
    expect(api.calls[0]).toBe('list /api/v1/nodes?limit=500&labelSelector=a%3Db');
    expect(api.calls[1]).toContain(
      'watch=1&resourceVersion=10&allowWatchBookmarks=true&timeoutSeconds=60&labelSelector=a%3Db',
    );
  });

  it('relists on 410 Gone and delivers the deletions it missed', async () => {
    const api = fakeApi([
      { list: [obj('a', '1'), obj('b', '1')], rv: '2' },
      {
        watch: [{ type: 'MODIFIED', object: obj('a', '3') as Record<string, unknown> }],
        end: new ApiError(410, 'Expired', 'gone'),
      },
      { list: [obj('a', '4')], rv: '9' },
    ]);
    const { events, reflector, stop } = run(api);
    await settle();
    stop();
    expect(events).toEqual(['add a@1', 'add b@1', 'update a@3', 'delete b', 'update a@4']);
    expect(reflector.lists).toBe(2);
    expect(api.calls.filter((c) => c.startsWith('watch')).at(-1)).toContain('resourceVersion=9');
  });

  it('treats a watch ERROR event with code 410 like 410 Gone', async () => {
    const api = fakeApi([
      { list: [], rv: '2' },
      { watch: [{ type: 'ERROR', object: { code: 410, reason: 'Expired', message: 'too old' } }] },
      { list: [obj('x', '8')], rv: '8' },
    ]);
    const { events, reflector, stop } = run(api);
    await settle();
    stop();
    expect(reflector.lists).toBe(2);
    expect(events).toEqual(['add x@8']);
  });

  it('resumes a watch from the last bookmark after the stream ends, without relisting', async () => {
    const api = fakeApi([
      { list: [], rv: '2' },
      { watch: [{ type: 'BOOKMARK', object: { metadata: { resourceVersion: '42' } } }] },
    ]);
    const { reflector, stop } = run(api);
    await settle();
    stop();
    expect(reflector.lists).toBe(1);
    expect(api.calls.filter((c) => c.startsWith('watch')).at(-1)).toContain('resourceVersion=42');
  });

  it('waits at least the Retry-After a failed answer named before trying again', async () => {
    const api = fakeApi([
      { listError: new ApiError(429, 'TooManyRequests', 'slow down', 5_000) },
      { listError: new ApiError(503, 'ServiceUnavailable', 'not now', 100) },
      { list: [obj('a', '1')], rv: '1' },
      { watch: [], end: new Error('watch stream aborted') },
    ]);
    const { reflector, delays, stop } = run(api);
    await settle();
    stop();
    expect(reflector.synced).toBe(true);
    expect(delays.slice(0, 2)).toEqual([5_000, 500]);
  });

  it('backs off exponentially on other failures and keeps going', async () => {
    const api = fakeApi([
      { listError: new Error('ECONNREFUSED') },
      { listError: new ApiError(500, 'InternalError', 'boom') },
      { listError: new Error('ECONNRESET') },
      { list: [obj('a', '1')], rv: '1' },
      { watch: [], end: new Error('watch stream aborted') },
    ]);
    const { reflector, delays, stop } = run(api);
    await settle();
    stop();
    expect(reflector.synced).toBe(true);
    expect(delays.slice(0, 4)).toEqual([250, 500, 1000, 2000]);
  });
});
