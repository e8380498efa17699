import { describe, expect, it } from 'vitest';
import { checkResources } from '../../src/rules/core-resources.js';

const paths = (resources: Parameters<typeof checkResources>[1]) =>
  checkResources(['r'], resources).map((p) => p.path.join('.'));

describe('container resources (core-resources)', () => {
  it('lets cpu and memory be requested below their limit, never above it', () => {
    expect(paths({ requests: { cpu: '100m' }, limits: { cpu: '1' } })).toEqual([]);
    expect(paths({ requests: { cpu: '2' }, limits: { cpu: '1' } })).toEqual(['r.requests.cpu']);
  });

  it('compares after rounding up to milli units, as defaulting does', () => {
    expect(paths({ requests: { cpu: '1.0001' }, limits: { cpu: '1001m' } })).toEqual([]);
  });

  it('wants extended resources whole and not overcommitted', () => {
    expect(paths({ limits: { 'example.com/gpu': '1' }, requests: { 'example.com/gpu': '1' } })).toEqual([]);
    expect(paths({ limits: { 'example.com/gpu': '0.5' } })).toEqual(['r.limits.example.com/gpu']);
    expect(paths({ requests: { 'example.com/gpu': '1' } })).toEqual(['r.limits.example.com/gpu']);
  });

  it('wants hugepages in whole pages and beside cpu or memory', () => {
    expect(paths({ limits: { 'hugepages-2Mi': '4Mi', memory: '1Gi' } })).toEqual([]);
    expect(paths({ limits: { 'hugepages-2Mi': '3Mi', memory: '1Gi' } })).toEqual(['r.limits.hugepages-2Mi']);
    expect(paths({ limits: { 'hugepages-2Mi': '4Mi' } })).toEqual(['r']);
  });

  it('refuses negative and unparsable quantities and unknown resource names', () => {
    expect(paths({ limits: { cpu: '-1', memory: 'lots', gpu: '1' } })).toEqual([
      'r.limits.cpu',
      'r.limits.memory',
      'r.limits.gpu',
    ]);
  });
});
