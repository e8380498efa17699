import { describe, expect, it } from 'vitest';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import {
  cacheDirValue,
  defaultJobs,
  jobsValue,
  chartsDirArgument,
  namespaceValue,
  nonEmptyValue,
  objectNameValue,
} from '../../src/util/flag-values.js';
import { UsageError } from '../../src/util/usage-error.js';

describe('flag values checked as the API server checks names', () => {
  it.each(['default', 'team-a', 'a', '0', 'a'.repeat(63)])('accepts the namespace %j', (ns) => {
    expect(namespaceValue('-n', ns)).toBe(ns);
  });

  it.each([
    ['', /-n "" is empty: .*--all-namespaces/],
    ['Team', /not a namespace name/],
    ['-a', /not a namespace name/],
    ['a-', /not a namespace name/],
    ['a.b', /not a namespace name/],
    ['a/b', /not a namespace name/],
    [' a', /not a namespace name/],
    ['a'.repeat(64), /not a namespace name/],
  ])('refuses the namespace %j as a usage error', (ns, message) => {
    expect(() => namespaceValue('-n', ns)).toThrow(UsageError);
    expect(() => namespaceValue('-n', ns)).toThrow(message);
  });

  it.each(['web', 'web.v2', 'a-b.c-d', 'a'.repeat(253)])('accepts the object name %j', (name) => {
    expect(objectNameValue('--operator', name)).toBe(name);
  });

  it.each(['', 'Web', 'a..b', '.a', 'a_b', 'a'.repeat(254)])('refuses the object name %j', (name) => {
    expect(() => objectNameValue('--operator', name)).toThrow(UsageError);
  });

  it('refuses an empty path or context, and keeps any other', () => {
    expect(() => nonEmptyValue('--kubeconfig', '', 'a kubeconfig file')).toThrow(/--kubeconfig "" is empty/);
    expect(nonEmptyValue('--kubeconfig', 'k', 'a kubeconfig file')).toBe('k');
  });

  it('takes charts for a CHARTS_DIR left out, refuses an empty one, and keeps any other', () => {
    expect(chartsDirArgument(undefined)).toBe('charts');
    expect(() => chartsDirArgument('')).toThrow(UsageError);
    expect(() => chartsDirArgument('')).toThrow(/^CHARTS_DIR "" is empty: expected the charts directory/);
    expect(chartsDirArgument('deploy/charts')).toBe('deploy/charts');
  });
});

describe('--jobs', () => {
  it('defaults to one worker fewer than the cores, at least one and at most 8 (the main thread keeps work of its own)', () => {
    expect([1, 2, 3, 4, 9, 64].map(defaultJobs)).toEqual([1, 1, 2, 3, 8, 8]);
    expect(jobsValue(undefined, 3)).toBe(3);
    expect(jobsValue('8', 3)).toBe(8);
    expect(() => jobsValue('0', 3)).toThrow(UsageError);
  });
});

describe('--cache', () => {
  // Checked here, not through a render: without the check, the render would write its entries there.
  it.each([
    ['/', '--cache / is the root of the file system (is a shell variable unset?)'],
    ['//', '--cache // is the root of the file system'],
    [`${process.cwd()}/${'../'.repeat(40)}`, 'is the root of the file system'],
    ['.', `--cache . is the working directory ${process.cwd()},`],
    ['..', `--cache .. holds the working directory ${process.cwd()},`],
    ...(dirname(homedir()) === homedir() ? [] : [[homedir(), `is the home directory ${homedir()},`]]),
  ])('refuses %j, which is not a directory of its own, in one sentence', (value, says) => {
    const call = () =>
      cacheDirValue(value, { chartsDir: '/nonexistent/charts', outDir: '/nonexistent/dist' });
    expect(call).toThrow(UsageError);
    expect(call).toThrow(says);
    expect(call).toThrow(/: keep the cache in a directory of its own, e\.g\. \.cache\/specforge\.$/);
  });

  it('keeps a directory of its own, as given', () => {
    expect(cacheDirValue('.cache/specforge', { chartsDir: 'charts', outDir: 'dist' })).toBe(
      '.cache/specforge',
    );
    expect(cacheDirValue(undefined, { chartsDir: 'charts' })).toBeUndefined();
  });
});
