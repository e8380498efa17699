import { describe, expect, it } from 'vitest';
import { isBase64, isDateTime } from '../../../src/rules/schema/scalars.js';

describe('isBase64', () => {
  it.each(['', 'YWJj', 'YQ==', 'YWI=', 'YW\nJj', 'YWJj\r\n', '+/+/'])(
    'takes %j, as Go StdEncoding decodes it',
    (s) => expect(isBase64(s)).toBe(true),
  );
  it.each(['not base64!', 'YQ', 'YWJ', '-_-_', 'YW Jj', 'YQ=', '=YWJ', 'YQ==YQ=='])(
    'refuses %j (no padding, URL alphabet, spaces, stray =)',
    (s) => expect(isBase64(s)).toBe(false),
  );
});

describe('isDateTime', () => {
  it.each(['2024-01-31T12:00:00Z', '2024-02-29T23:59:59.123456+01:00', '2023-12-31T00:00:00-05:30'])(
    'takes %j (RFC 3339, fractions and offsets)',
    (s) => expect(isDateTime(s)).toBe(true),
  );
  it.each([
    'yesterday',
    '2023-02-29T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01 00:00:00Z',
    '2024-01-01T00:00:00',
  ])('refuses %j (not a date, a day its month lacks, no zone)', (s) => expect(isDateTime(s)).toBe(false));
});
