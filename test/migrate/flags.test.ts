import { describe, expect, it } from 'vitest';
import { connectionFlags } from '../../src/migrate/flags.js';
import { UsageError } from '../../src/util/usage-error.js';

describe('connectionFlags', () => {
  it('keeps only the flags given', () => {
    expect(connectionFlags({})).toEqual({});
    expect(connectionFlags({ kubeconfig: '/k', context: 'c' })).toEqual({ kubeconfig: '/k', context: 'c' });
  });

  it('refuses an empty kubeconfig or context as a usage error, naming the flag', () => {
    expect(() => connectionFlags({ kubeconfig: '' })).toThrow(UsageError);
    expect(() => connectionFlags({ kubeconfig: '' })).toThrow(
      /^--kubeconfig "" is empty: expected a kubeconfig file/,
    );
    expect(() => connectionFlags({ context: '' })).toThrow(/^--context "" is empty/);
  });
});
