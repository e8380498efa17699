import { Chart, Testing } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { skipPropsCheck } from '../../src/constructs/props-check.js';
import { AppService, checkProps, Myapp, NodePool, Podroute, SpecforgePropsError } from '../../src/index.js';

const chart = (): Chart => new Chart(Testing.app(), 'shop', { namespace: 'shop' });

describe('construct props', () => {
  it('throws on an empty image and a port of 0, naming the construct path, each prop, expected and found', () => {
    const c = chart();
    expect(() => new AppService(c, 'web2', { image: '', ports: [{ port: 0 }] })).toThrow(
      'specforge: invalid props for AppService shop/web2:\n' +
        '  image: expected a string of length of at least 1, found "".\n' +
        '  ports[0].port: expected an integer from 1 to 65535, found 0.',
    );
  });

  it('throws on a named targetPort that names no container port instead of dropping the container ports', () => {
    expect(
      () => new AppService(chart(), 'web', { image: 'nginx', ports: [{ port: 80, targetPort: 'http' }] }),
    ).toThrow(/ports\[0\]\.targetPort: expected a port number \(no container port has a name.*found "http"/);
  });

  it('carries the violations as data on the error', () => {
    let caught: unknown;
    try {
      new Myapp(chart(), 'shop', { image: 'x', containerPort: 0 });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SpecforgePropsError);
    const err = caught as SpecforgePropsError;
    expect(err.constructPath).toBe('shop/shop');
    expect(err.violations.map((v) => v.path)).toEqual(['image', 'containerPort']);
  });

  it('checks the name, whether given or taken from the construct id', () => {
    expect(() => new Podroute(chart(), 'Web_App', { image: 'x' })).toThrow(
      /name: expected a DNS label \(RFC 1035\)/,
    );
    expect(() => new Podroute(chart(), 'ok', { name: '1web', image: 'x' })).toThrow(/found "1web"/);
  });

  it('checks labels, annotations, partOf, hardening and ingressClassName like chart settings and metadata', () => {
    const v = checkProps('Myapp', 'shop', {
      image: 'shop:1',
      containerPort: 80,
      labels: { 'bad key!': 'x' },
      partOf: 'two words',
      hardening: 'maximal',
      ingressClassName: '',
    });
    expect(v.map((x) => x.path)).toEqual(['labels["bad key!"]', 'partOf', 'ingressClassName', 'hardening']);
  });

  it('checks platform and ingressClassName on a Podroute as on a Myapp, by the chart-settings rule', () => {
    for (const kind of ['Myapp', 'Podroute'] as const) {
      const base = { image: 'shop:1', ...(kind === 'Myapp' ? { containerPort: 80 } : {}) };
      const found = (extra: object) =>
        checkProps(kind, 'shop', { ...base, ...extra }).map((x) => `${x.path}: ${x.found}`);
      expect(found({ platform: 'aws' })).toEqual(['platform: "aws"']);
      expect(found({ platform: 'kubernetes', ingressClassName: 'Nginx' })).toEqual([
        'ingressClassName: "Nginx"',
      ]);
      expect(found({ platform: 'openshift', ingressClassName: 'traefik' })).toEqual([]);
    }
  });

  it('reports NodePool object labels at objectLabels and Node labels at labels', () => {
    const v = checkProps('NodePool', 'gpu', { labels: { 'a b': 'x' }, objectLabels: { team: 'a b' } });
    expect(v.map((x) => x.path).sort()).toEqual(['labels["a b"]', 'objectLabels.team']);
  });

  it('names a misspelt prop and suggests the right one (props from JavaScript)', () => {
    const props = { image: 'nginx', ports: [{ port: 80 }], replica: 2 } as unknown as {
      image: string;
      ports: [];
    };
    expect(() => new AppService(chart(), 'web', props)).toThrow(
      'replica: expected one of the known fields (replicas, size, image, resources, envs, ports), found unknown field "replica". Did you mean "replicas"?',
    );
  });

  it('accepts valid props without complaint, optional props given as undefined included', () => {
    expect(
      checkProps('AppService', 'web', {
        image: 'nginx',
        replicas: undefined,
        ports: [{ port: 80, name: undefined }],
      }),
    ).toEqual([]);
    expect(() => new NodePool(chart(), 'gpu', { labels: { gpu: 'true' } })).not.toThrow();
  });

  it('takes props marked skipPropsCheck unchecked, and only those: its siblings and props spread from them are checked', () => {
    const c = chart();
    const bad = { image: '', ports: [{ port: 80 }] };
    expect(() => new AppService(c, 'unchecked', skipPropsCheck(bad))).not.toThrow();
    expect(() => new AppService(c, 'sibling', bad)).toThrow(
      /image: expected a string of length of at least 1/,
    );
    expect(() => new AppService(c, 'spread', { ...skipPropsCheck(bad) })).toThrow(
      /image: expected a string of length of at least 1/,
    );
  });
});
