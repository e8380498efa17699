import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempDir } from '../../support/tmp.js';

describe('specforge import and adopt on the command line', () => {
  it.each([
    [['import', '-n', 'x'], 'import needs --chart DIR'],
    [['import', '--chart', 'c'], 'import needs either -n NAMESPACE (repeatable) or --all-namespaces'],
    [
      ['import', '--chart', 'c', '-n', 'x', '-A'],
      'import needs either -n NAMESPACE (repeatable) or --all-namespaces',
    ],
    [['import', '--chart', 'c', '-A', '--format', 'yaml'], '--format takes text or json, got "yaml"'],
    [['import', '--chart', 'c', '-n', ''], '-n "" is empty: expected a namespace name'],
    [['import', '--chart', 'c', '-n', 'team-a', '-n', ''], '-n "" is empty'],
    [['import', '--chart', 'c', '--namespace='], '-n "" is empty'],
    [
      ['import', '--chart', 'c', '-n', 'Team_A'],
      '-n "Team_A" is not a namespace name: expected a DNS-1123 label',
    ],
    [['import', '--chart', 'c', '-n', 'a'.repeat(64)], 'is not a namespace name'],
    [['import', '--chart', 'c', '-n', '../x'], '-n "../x" is not a namespace name'],
    [['import', '--chart', '', '-A'], '--chart "" is empty'],
    [['import', '--chart', 'c', '-A', '--kubeconfig', ''], '--kubeconfig "" is empty'],
    [['import', '--chart', 'c', '-A', '--context', ''], '--context "" is empty'],
    [['adopt', 'apply', '--field-manager', 'f', '--operator-gone'], 'adopt needs --chart DIR'],
    [
      ['adopt', 'plan', '--chart', 'c', '--field-manager', 'f', '--operator-gone', '--kubeconfig', ''],
      '--kubeconfig "" is empty',
    ],
    [
      ['adopt', 'plan', '--chart', 'c', '--field-manager', 'f', '--operator-gone', '--context', ''],
      '--context "" is empty',
    ],
    [['adopt', 'go', '--chart', 'c'], 'adopt takes plan or apply, got "go"'],
    [['adopt', 'plan', '--chart', 'c', '--operator-gone'], 'adopt needs --field-manager NAME'],
    [['adopt', 'plan', '--chart', 'c', '--field-manager', 'f'], 'adopt needs --operator NS/DEPLOYMENT'],
    [
      ['adopt', 'plan', '--chart', 'c', '--field-manager', 'f', '--operator', 'op'],
      '--operator takes NAMESPACE/NAME, got "op"',
    ],
  ])('refuses %j as a usage error: %s', async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('prints its help', async () => {
    expect((await run(['import', '--help'])).out).toContain('Usage: specforge import --chart DIR');
    expect((await run(['adopt', '--help'])).out).toContain('Usage: specforge adopt plan|apply');
  });

  it('names the kubeconfig it cannot read, with no stack trace', async () => {
    const r = await run(['import', '--chart', 'c', '-A', '--kubeconfig', '/nonexistent/kubeconfig']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^specforge: .*\/nonexistent\/kubeconfig/);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('names the API server it cannot reach, and what to check, with no stack trace', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    server.close();
    await once(server, 'close');
    const d = tempDir();
    const kubeconfig = join(d, 'config');
    writeFileSync(
      kubeconfig,
      [
        'current-context: c',
        'contexts: [{name: c, context: {cluster: k, user: u}}]',
        `clusters: [{name: k, cluster: {server: "http://127.0.0.1:${port}"}}]`,
        'users: [{name: u, user: {token: t}}]',
      ].join('\n'),
    );
    const r = await run(['import', '--chart', join(d, 'c'), '-A', '--kubeconfig', kubeconfig]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      new RegExp(
        `^specforge: cannot reach the API server http://127\\.0\\.0\\.1:${port} \\(connect ECONNREFUSED .*--context`,
      ),
    );
    expect(r.err).not.toMatch(/\n\s+at /);
  });
});
