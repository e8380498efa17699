import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkRules, parseFieldPath } from '../../../../src/rules/crd/cel/rules.js';
import type { Structural } from '../../../../src/rules/crd/structural.js';
import type { Problem } from '../../../../src/rules/problem.js';

/** The messages of the rule `rule` on `value` (an object of integers and strings, or a list of integers). */
function failures(rule: string, value: unknown, s: Partial<Structural> = {}): string[] {
  const schema = {
    type: 'object',
    additionalProperties: { type: 'integer' },
    ...s,
    'x-kubernetes-validations': [{ rule }],
  } as Structural;
  const out: Problem[] = [];
  checkRules(value, schema, { path: [], out });
  return out.map((p) => p.expected);
}
const holds = (rule: string, value: unknown = {}, s: Partial<Structural> = {}) =>
  failures(rule, value, s).length === 0;
const list = { type: 'array', items: { type: 'integer' } } as const;

describe('Kubernetes CEL rules', () => {
  it('binds self to the node, integers as CEL ints', () => {
    expect(holds('self.a + 1 == 3', { a: 2 })).toBe(true);
    expect(failures('self.a > 5', { a: 2 })).toEqual(['a value for which self.a > 5 holds']);
  });

  it('fails a rule that reads an absent field, as the API server does ("no such key")', () => {
    expect(failures('self.missing == 1', {})[0]).toMatch(/^a rule that evaluates \(/);
  });

  it('has the lists library', () => {
    expect(
      holds('self.isSorted() && self.sum() == 6 && self.min() == 1 && self.max() == 3', [1, 2, 3], list),
    ).toBe(true);
    expect(holds('self.indexOf(2) == 1 && self.lastIndexOf(9) == -1', [1, 2, 3], list)).toBe(true);
    expect(holds('self.isSorted()', [2, 1], list)).toBe(false);
  });

  it('has the strings extension and RE2 regex', () => {
    const strings = { type: 'object', additionalProperties: { type: 'string' } } as const;
    expect(
      holds(
        "self.s.lowerAscii() == 'ab' && self.s.matches('^[[:upper:]]+$') && self.s.find('[A-Z]') == 'A'",
        { s: 'AB' },
        strings,
      ),
    ).toBe(true);
    expect(
      holds("self.s.findAll('[0-9]').size() == 2 && self.s.split('-').size() == 2", { s: '1-2' }, strings),
    ).toBe(true);
  });

  it('has the quantity, URL, IP and CIDR libraries', () => {
    expect(
      holds(
        "quantity('1Gi').isGreaterThan(quantity('512Mi')) && quantity('1.5').asApproximateFloat() == 1.5",
      ),
    ).toBe(true);
    expect(
      holds(
        "isQuantity('1Gi') && !isQuantity('lots') && quantity('2').add(quantity('1')).compareTo(quantity('3')) == 0",
      ),
    ).toBe(true);
    expect(
      holds(
        "url('https://a.b:8443/p').getHostname() == 'a.b' && url('https://a.b:8443/p').getPort() == '8443'",
      ),
    ).toBe(true);
    expect(holds("isURL('https://') && !isURL('x') && url('/p').getEscapedPath() == '/p'")).toBe(true);
    expect(
      holds("isIP('10.0.0.1') && ip('::1').family() == 6 && ip('127.0.0.1').isLoopback() && !isIP('1.2.3')"),
    ).toBe(true);
    expect(
      holds("isCIDR('10.0.0.0/8') && cidr('10.0.0.0/8').prefixLength() == 8 && !isCIDR('10.0.0.0/33')"),
    ).toBe(true);
  });

  it('has the semver library, ordering pre-releases before their release', () => {
    expect(
      holds(
        "isSemver('1.2.3-rc.1+b') && !isSemver('v1.2.3') && !isSemver('01.2.3') && semver('1.2.3').major() == 1",
      ),
    ).toBe(true);
    expect(
      holds(
        "semver('1.0.0-rc.1').isLessThan(semver('1.0.0')) && semver('1.0.0-alpha.2').compareTo(semver('1.0.0-alpha.10')) < 0",
      ),
    ).toBe(true);
  });

  it('has the format library', () => {
    expect(
      holds(
        "format.dns1123Label().validate('ok') == null && format.dns1123Label().validate('Not OK') != null",
      ),
    ).toBe(true);
  });

  it('does not evaluate transition rules (oldSelf) on create', () => {
    expect(holds('self.a == oldSelf.a', { a: 1 })).toBe(true);
  });

  it('stops a rule past its cost budget instead of hanging the render', () => {
    const big = Array.from({ length: 2000 }, (_, i) => i);
    const started = Date.now();
    expect(failures('self.all(x, self.all(y, x + y >= 0))', big, list)[0]).toMatch(
      /^a rule that evaluates within its cost budget/,
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  describe('on a loaded machine', () => {
    // Date.now() `step` ms later at each call: the budget looks at it once a rule starts and every 1,024 reads.
    const slow = (step: number) => {
      let clock = Date.now();
      vi.spyOn(Date, 'now').mockImplementation(() => (clock += step));
    };
    afterEach(() => {
      vi.restoreAllMocks();
    });
    const many = (n: number) => Array.from({ length: n }, (_, i) => i);

    it('refuses a rule past its cost budget by its cost, as the API server does, though it ran for 8 s', () => {
      slow(8); // a million reads: 977 looks, 8 s
      expect(failures('self.all(x, self.all(y, x + y >= 0))', many(2000), list)).toEqual([
        'a rule that evaluates within its cost budget (it took more than 1000000 steps)',
      ]);
    });

    it('takes a rule within its cost budget however long it takes, up to the hang guard', () => {
      slow(8); // 900,000 reads: 878 looks, 7 s
      expect(failures('self.all(x, self.all(y, x + y >= 0))', many(948), list)).toEqual([]);
    });

    it('gives no verdict on a rule the hang guard stops within its cost: it is set aside for the note', () => {
      slow(1000); // 12,000 reads: 11 looks, 11 s
      const schema = { ...list, 'x-kubernetes-validations': [{ rule: 'self.all(x, x >= 0)' }] } as Structural;
      const out: Problem[] = [];
      const late = new Set<string>();
      checkRules(many(12_000), schema, { path: [], out, late });
      expect(out).toEqual([]);
      expect([...late]).toEqual(['self.all(x, x >= 0)']);
      // a caller that keeps no note (the vendored CRDs) gets it as an error saying so
      expect(failures('self.all(x, x >= 0)', many(12_000), list)[0]).toMatch(
        /^a rule that evaluates in time \(the hang guard stopped it after more than 10 s, within its cost: no verdict/,
      );
    });
  });

  it('reads fieldPath as the API server writes it', () => {
    expect(parseFieldPath(".spec.ports[0]['a.b']")).toEqual(['spec', 'ports', 0, 'a.b']);
  });

  it('reads a declared property under its escaped name (a reserved word, __ . - /), a map key as it is', () => {
    const props = {
      properties: {
        namespace: { type: 'string' },
        'a.b-c/d': { type: 'string' },
        x__y: { type: 'string' },
      },
    } as Partial<Structural>;
    const value = { namespace: 'n', 'a.b-c/d': 'v', x__y: 'w' };
    expect(holds("self.__namespace__ == 'n'", value, props)).toBe(true);
    expect(holds('has(self.__namespace__) && !has(self.other)', value, props)).toBe(true);
    expect(holds("self.a__dot__b__dash__c__slash__d == 'v'", value, props)).toBe(true);
    expect(holds("self.x__underscores__y == 'w'", value, props)).toBe(true);
    // a map's keys (additionalProperties) are not escaped
    expect(holds("self['a-b'] == 1", { 'a-b': 1 })).toBe(true);
  });
});
