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
  it.each([
    '2024-01-31T12:00:00Z',
    '2024-02-29T23:59:59.123456+01:00',
    '2023-12-31T00:00:00-05:30',
    '2024-01-01T9:00:00Z',
    '2024-01-01T00:00:00,5Z',
    '2024-01-01T00:00:00+24:00',
    '2024-01-01T00:00:00+00:60',
    '0000-01-01T00:00:00Z',
  ])('takes %j (as kube-apiserver v1.34.4 does: a one-digit hour, a comma, offsets to 24:60)', (s) =>
    expect(isDateTime(s)).toBe(true),
  );
  it.each([
    'yesterday',
    '2023-02-29T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01 00:00:00Z',
    '2024-01-01T00:00:00',
    '2024-01-01t00:00:00z',
    '2024-01-01T00:00:60Z',
    '2024-01-01T00:00:00+25:00',
    '2024-01-01T00:00:00+00:61',
    '2100-02-29T00:00:00Z',
    '2024-01-01T00:0:00Z',
    '2024-01-01T00:00:00,Z',
    ' 2024-01-01T00:00:00Z',
    '',
  ])('refuses %j (not a date, a day its month lacks, no zone, as kube-apiserver v1.34.4 does)', (s) =>
    expect(isDateTime(s)).toBe(false),
  );
});
