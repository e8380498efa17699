/**
 * The scalar values the API server's JSON decoding takes apart from plain types, as Go decodes them: a Go []byte
 * (`format: byte`) is standard base64 with padding, line breaks ignored (encoding/base64 StdEncoding); a metav1.Time
 * is RFC 3339 as Go's time.Parse(time.RFC3339) reads it. Pure.
 */

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Whether Go's base64.StdEncoding decodes `s` (it skips `\r` and `\n`). */
export function isBase64(s: string): boolean {
  return BASE64.test(s.includes('\n') || s.includes('\r') ? s.replace(/[\r\n]/g, '') : s);
}

// Go reads the hour of layout `15` from one or two digits, a fraction after `.` or `,`, and a zone offset's hour up to
// 24 and minute up to 60 (kube-apiserver v1.34.4 takes `T9:00:00Z`, `00,5Z` and `+24:00`).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{1,2}):(\d{2}):(\d{2})(?:[.,]\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether Go's time.Parse(time.RFC3339, s) reads `s`: fields in range, the day one of its month. */
export function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (m === null) return false;
  const f = (i: number): number => Number(m[i] ?? 0);
  return inMonth(f(1), f(2), f(3)) && f(4) < 24 && f(5) < 60 && f(6) < 60 && f(7) <= 24 && f(8) <= 60;
}

function inMonth(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (DAYS[month - 1] ?? 31));
}
