import { describe, expect, it } from 'vitest';
import { checkLifecycle } from '../../src/rules/core-lifecycle.js';
import { formatPath } from '../../src/rules/field-path.js';
import type { Problem } from '../../src/rules/problem.js';

const check = (lifecycle: Record<string, unknown>, grace = 30): string[] => {
  const out: Problem[] = [];
  checkLifecycle(['lifecycle'], lifecycle, grace, out);
  return out.map((p) => `${formatPath(p.path)}: ${p.expected}`);
};

describe('container lifecycle hooks (core-lifecycle)', () => {
  it('takes one handler per hook, and a sleep from 0 to the grace period', () => {
    expect(
      check({
        postStart: { exec: { command: ['true'] } },
        preStop: { httpGet: { port: 'http', path: '/quit' } },
      }),
    ).toEqual([]);
    expect(check({ preStop: { sleep: { seconds: 0 } } })).toEqual([]);
    expect(check({ preStop: { sleep: { seconds: 30 } } })).toEqual([]);
    expect(check({ preStop: { tcpSocket: { port: 8080 } } })).toEqual([]);
  });

  it('refuses a hook with no handler or two', () => {
    expect(check({ preStop: {} })).toEqual([
      'lifecycle.preStop: a handler: one of exec, httpGet, tcpSocket or sleep',
    ]);
    expect(check({ postStart: { exec: { command: ['x'] }, sleep: { seconds: 1 } } })).toEqual([
      'lifecycle.postStart: one handler',
    ]);
    expect(check({ preStop: { grpc: { port: 9090 } } })[0]).toContain('a handler');
  });

  it('refuses a sleep past the grace period or below 0, and a handler without its command or port', () => {
    expect(check({ preStop: { sleep: { seconds: 31 } } })[0]).toContain(
      "lifecycle.preStop.sleep.seconds: a number from 0 to the pod's terminationGracePeriodSeconds (30)",
    );
    expect(check({ preStop: { sleep: { seconds: 5 } } }, 2)[0]).toContain('(2)');
    expect(check({ preStop: { sleep: { seconds: -1 } } })).toHaveLength(1);
    expect(check({ postStart: { exec: { command: [] } } })[0]).toContain('exec.command');
    expect(check({ postStart: { httpGet: { port: 70000 } } })[0]).toContain('httpGet.port');
    expect(check({ postStart: { httpGet: { port: 80, scheme: 'http' } } })[0]).toContain('httpGet.scheme');
    expect(check({ postStart: { tcpSocket: {} } })[0]).toContain('tcpSocket.port');
  });
});
