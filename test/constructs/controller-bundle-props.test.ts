import { Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { ControllerBundle, type ControllerBundleProps } from '../../src/constructs/controller-bundle.js';
import { checkControllerBundleProps } from '../../src/constructs/controller-bundle-props.js';
import { SpecforgePropsError } from '../../src/constructs/props-check.js';

const build = (props: ControllerBundleProps): ControllerBundle =>
  new ControllerBundle(Testing.chart(), 'bundle', props);

/** The error a bundle with `props` throws. */
function errorOf(props: object): SpecforgePropsError {
  try {
    build(props as ControllerBundleProps);
  } catch (e) {
    if (e instanceof SpecforgePropsError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('ControllerBundle props', () => {
  it('refuses a port no Service can serve, in the words of a spec file', () => {
    expect(() => build({ port: 70000 })).toThrow(
      'specforge: invalid props for ControllerBundle test/bundle:\n' +
        '  port: expected an integer from 1 to 65535, found 70000.',
    );
  });

  it('refuses a namespace that is no DNS label', () => {
    const e = errorOf({ namespace: 'Bad_NS' });
    expect(e.kind).toBe('ControllerBundle');
    expect(e.violations).toEqual([
      {
        path: 'namespace',
        expected: expect.stringMatching(/^an RFC 1123 DNS label/),
        found: '"Bad_NS"',
      },
    ]);
  });

  it.each([0, -1, 1.5])('refuses %s replicas', (replicas) => {
    expect(errorOf({ replicas }).violations).toEqual([
      expect.objectContaining({ path: 'replicas', found: String(replicas) }),
    ]);
  });

  it("refuses a name one of the objects it names cannot take, naming that object's rule", () => {
    expect(errorOf({ name: '1controller' }).violations).toEqual([
      {
        path: 'name',
        expected: expect.stringMatching(/^a DNS label \(RFC 1035\).*\(it names the Service\)$/),
        found: '"1controller"',
      },
    ]);
    expect(errorOf({ name: 'Controller' }).violations[0]?.expected).toMatch(
      /\(it names the ServiceAccount\)$/,
    );
  });

  it('refuses a lease name no Lease can take and a partOf no label value can be', () => {
    expect(errorOf({ leaseName: 'Lease!', partOf: 'a b' }).violations.map((v) => v.path)).toEqual([
      'leaseName',
      'partOf',
    ]);
  });

  it('refuses an unknown prop, suggesting the known one it looks like', () => {
    const [v] = errorOf({ replica: 2 }).violations;
    expect(v).toMatchObject({ path: 'replica', found: 'unknown field "replica"' });
    expect(v?.hint).toMatch(/replicas/);
  });

  it('refuses props of the wrong type, reporting each once', () => {
    expect(errorOf({ image: 3, crd: 'yes', partOf: 7 }).violations.map((v) => v.path)).toEqual([
      'image',
      'partOf',
      'crd',
    ]);
  });

  it('accepts the defaults and every prop set to a valid value', () => {
    expect(checkControllerBundleProps({})).toEqual([]);
    expect(
      checkControllerBundleProps({
        name: 'nodepool-controller',
        namespace: 'ops',
        image: 'registry.example.com/specforge:1.2.3',
        replicas: 3,
        partOf: 'platform',
        leaseName: 'nodepools.example.com',
        port: 9090,
        crd: false,
      }),
    ).toEqual([]);
  });
});
