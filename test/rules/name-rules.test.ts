import { describe, expect, it } from 'vitest';
import { checkObject } from '../../src/rules/object-rules.js';
import { checkObjectName, nameRuleOf } from '../../src/rules/name-rules.js';

const object = (apiVersion: string, kind: string, name: string) => ({ apiVersion, kind, metadata: { name } });
const nameProblems = (apiVersion: string, kind: string, name: string) =>
  checkObject(object(apiVersion, kind, name)).filter((p) => p.path === 'metadata.name');

describe('object names follow the rule of their kind', () => {
  it.each(['Bad Name!', 'UPPER', 'a..b', '-a', 'a_b'])(
    'refuses a ConfigMap named %j (a DNS subdomain is expected)',
    (name) => {
      expect(nameProblems('v1', 'ConfigMap', name)).toEqual([
        {
          path: 'metadata.name',
          expected: expect.stringContaining('a ConfigMap name: a DNS subdomain (RFC 1123)'),
          found: JSON.stringify(name),
        },
      ]);
    },
  );

  it('takes a ConfigMap named with dots, as a DNS subdomain may be', () => {
    expect(nameProblems('v1', 'ConfigMap', 'app.config-1')).toEqual([]);
  });

  it('refuses a dot in a Namespace or Service name, which are DNS labels', () => {
    expect(nameProblems('v1', 'Namespace', 'team.a')[0]?.expected).toMatch(
      /a Namespace name: a DNS label \(RFC 1123\)/,
    );
    expect(nameProblems('v1', 'Service', 'web.a')[0]?.expected).toMatch(
      /a Service name: a DNS label \(RFC 1035\)/,
    );
  });

  it('refuses a Service name that starts with a digit (RFC 1035), but not a Namespace one (RFC 1123)', () => {
    expect(nameProblems('v1', 'Service', '1web')).toHaveLength(1);
    expect(nameProblems('v1', 'Namespace', '1team')).toEqual([]);
  });

  it('takes RBAC names the API server takes (a path segment: upper case, spaces, colons)', () => {
    for (const kind of ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'])
      expect(nameProblems('rbac.authorization.k8s.io/v1', kind, 'system:Bad Name!')).toEqual([]);
    expect(nameProblems('rbac.authorization.k8s.io/v1', 'Role', 'a/b')).toHaveLength(1);
    expect(nameProblems('rbac.authorization.k8s.io/v1', 'Role', '..')).toHaveLength(1);
  });

  it('checks a custom resource name as a DNS subdomain', () => {
    expect(nameRuleOf('nodes.specforge.dev', 'NodePool')).toBe('dns1123-subdomain');
    expect(nameProblems('example.com/v1', 'Widget', 'Bad Name!')).toHaveLength(1);
  });

  it('refuses a CronJob name longer than 52 characters, which its Jobs could not carry', () => {
    expect(checkObjectName('batch', 'CronJob', 'a'.repeat(52))).toBeUndefined();
    expect(checkObjectName('batch', 'CronJob', 'a'.repeat(53))).toMatch(
      /at most 52 characters for a CronJob/,
    );
  });

  it('refuses a name that is not a string, saying what the kind expects', () => {
    expect(checkObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: {} })).toContainEqual({
      path: 'metadata.name',
      expected: expect.stringContaining('a DNS subdomain'),
      found: 'nothing',
    });
  });

  describe('the file in dist/ (<kind>.<namespace>.<name>.yaml) must be a name of at most 255 bytes', () => {
    const fileProblems = (name: string, namespace?: string) =>
      checkObject({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace } }).filter(
        (p) => p.path === 'metadata.name' && p.expected.startsWith('a name short enough for its file'),
      );

    it.each([
      ['243 ASCII characters (a file name of 255 bytes)', 'a'.repeat(243), undefined, 0],
      ['244 ASCII characters (256 bytes)', 'a'.repeat(244), undefined, 1],
      ['121 two-byte characters (254 bytes)', 'é'.repeat(121), undefined, 0],
      ['122 two-byte characters (256 bytes)', 'é'.repeat(122), undefined, 1],
      ['80 three-byte characters (252 bytes)', '名'.repeat(80), undefined, 0],
      ['81 three-byte characters (255 bytes)', '名'.repeat(81), undefined, 0],
      ['82 three-byte characters (258 bytes)', '名'.repeat(82), undefined, 1],
      ['a name and a namespace long together', 'a'.repeat(120), 'n'.repeat(123), 1],
      ['a short name in a long namespace', 'a', 'n'.repeat(250), 1],
    ])('%s', (_, name, namespace, problems) => {
      expect(fileProblems(name, namespace)).toHaveLength(problems);
    });

    it('counts a kind of characters that lowercase to three bytes each', () => {
      const problems = checkObject({
        apiVersion: 'example.com/v1',
        kind: 'Ⱥ'.repeat(90),
        metadata: { name: 'a' },
      });
      expect(problems.filter((p) => p.expected.startsWith('a name short enough for its file'))).toHaveLength(
        1,
      );
    });

    it('rests on a UTF-16 unit lowercasing to at most 3 bytes of UTF-8, and a surrogate pair to at most 4', () => {
      let unit = 0;
      for (let c = 0; c < 0x10000; c++)
        unit = Math.max(unit, Buffer.byteLength(String.fromCharCode(c).toLowerCase()));
      let pair = 0;
      for (let c = 0x10000; c < 0x110000; c++)
        pair = Math.max(pair, Buffer.byteLength(String.fromCodePoint(c).toLowerCase()));
      expect([unit, pair]).toEqual([3, 4]);
    });
  });
});
