/**
 * What kube-apiserver reads from a resource quantity: the text it stores for `spec.hard.cpu` of a ResourceQuota (the
 * quantity parsed by k8s.io/apimachinery `resource.ParseQuantity` from JSON, rounded up to milli units as core/v1
 * defaulting does for every ResourceList, and written back in canonical form, though a few inputs keep their own
 * text: `+1`, `5.`, `1E3`), or why it refuses it. Each row is checked against the API server by
 * test/cluster/quantity-readings.test.ts (server-side dry run), and against specforge's emulation
 * (src/rules/quantity.ts) by test/rules/quantity.test.ts, which compares values (the emulation keeps exact
 * rationals, not texts).
 */
export interface QuantityReading {
  /** The quantity as sent: a JSON string, or a JSON number. */
  readonly input: string | number;
  /** The canonical text the API server stores, or why it refuses the quantity. */
  readonly apiServer: string | { readonly refused: 'unparsable' | 'negative' };
}

const row = (input: string | number, apiServer: QuantityReading['apiServer']): QuantityReading => ({
  input,
  apiServer,
});
const unparsable = { refused: 'unparsable' } as const;
const negative = { refused: 'negative' } as const;

export const QUANTITY_READINGS: readonly QuantityReading[] = [
  // Decimal SI suffixes, written back with the largest suffix that keeps the value whole.
  row('1', '1'),
  row('0', '0'),
  row('1000', '1k'),
  row('1024', '1024'),
  row('1000m', '1'),
  row('0.5', '500m'),
  row('.5', '500m'),
  row('5.', '5.'),
  row('+1', '+1'),
  row('1.5', '1500m'),
  row('100m', '100m'),
  row('1G', '1G'),
  row('1000M', '1G'),
  row('128M', '128M'),
  row('1k', '1k'),
  row('1E', '1E'),
  // Below a milli: rounded up to the next milli by defaulting.
  row('100u', '1m'),
  row('1n', '1m'),
  row('1.0001', '1001m'),
  row('0.1m', '1m'),
  // Binary SI suffixes: kept binary when the value is a whole number of the suffix, else decimal.
  row('1Ki', '1Ki'),
  row('128Mi', '128Mi'),
  row('2048Ki', '2Mi'),
  row('1.5Gi', '1536Mi'),
  row('0.5Ki', '512'),
  row('1.5Ki', '1536'),
  // Exponents.
  row('1e3', '1e3'),
  row('1E3', '1E3'),
  row('1e-3', '1e-3'),
  row('1000e-3', '1'),
  row('1.5e3', '1500'),
  // JSON numbers are read from their decimal text.
  row(1000, '1k'),
  row(0.5, '500m'),
  row(1024, '1024'),
  // Surrounding spaces of a string are trimmed.
  row(' 1 ', '1'),
  // The scanner's odd accepts: a lone point, and a suffix or an exponent alone, read as 0.
  row('.', '0'),
  row('Ki', '0'),
  row('e3', '0'),
  // Refused.
  row('-1', negative),
  row('-100m', negative),
  row('lots', unparsable),
  row('1 Gi', unparsable),
  row('1KI', unparsable),
  row('1ki', unparsable),
  row('1.2.3', unparsable),
  row('', unparsable),
  row('0x10', unparsable),
];
