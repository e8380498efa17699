/**
 * What the API server reads from a resource quantity is asked of kube-apiserver itself: each row of
 * test/support/quantity-readings.ts goes as `spec.hard.cpu` of a ResourceQuota through a server-side dry run, and the
 * stored text (parsed, rounded up to milli units by core/v1 defaulting, written back in canonical form) or the
 * refusal must be the row's. test/rules/quantity.test.ts holds specforge's emulation (src/rules/quantity.ts) to the
 * same rows without a cluster.
 */
import { expect, it } from 'vitest';
import { QUANTITY_READINGS } from '../support/quantity-readings.js';
import { clusterDescribe } from './helpers.js';
import { kubectl } from './kubectl.js';

/** The API server's verdict on one quantity: the text it stores, or why it refuses it. */
function serverReading(input: string | number): string | { refused: string } {
  const quota = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'quantity-reading', namespace: 'default' },
    spec: { hard: { cpu: input } },
  };
  try {
    const out = kubectl(['create', '--dry-run=server', '-o', 'json', '-f', '-'], [0], JSON.stringify(quota));
    return (JSON.parse(out) as { spec: { hard: { cpu: string } } }).spec.hard.cpu;
  } catch (err) {
    const message = String(err);
    if (message.includes('must be greater than or equal to 0')) return { refused: 'negative' };
    if (/quantities must match the regular expression|unable to parse quantity/.test(message))
      return { refused: 'unparsable' };
    throw err;
  }
}

clusterDescribe('quantity readings: the table against kube-apiserver', () => {
  it.each(QUANTITY_READINGS)('reads $input as the table says', ({ input, apiServer }) => {
    expect(serverReading(input)).toEqual(apiServer);
  });
});
