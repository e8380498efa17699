import type { FieldPath } from './field-path.js';
import { invalid } from './validation-kit.js';
import type { Problem } from './problem.js';

/**
 * A CronJob schedule, parsed as the API server parses it.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/batch/validation/validation.go `validateScheduleFormat` (no `TZ=` or
 * `CRON_TZ=`: the time zone goes in `spec.timeZone`) over github.com/robfig/cron/v3 `ParseStandard`: five fields
 * (minute 0–59, hour 0–23, day of month 1–31, month 1–12 or jan–dec, day of week 0–6 or sun–sat), each a comma list
 * of `*`, `?`, `n`, `a-b`, with an optional `/step` of at least 1; or a descriptor `@yearly`, `@annually`,
 * `@monthly`, `@weekly`, `@daily`, `@midnight`, `@hourly`, `@every <duration>`. Pure.
 */

const DESCRIPTORS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS: readonly { min: number; max: number; names?: readonly string[]; base?: number }[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS, base: 1 },
  { min: 0, max: 6, names: DAYS, base: 0 },
];
/** A Go duration (`time.ParseDuration`) such as 1h30m or 90s, as `@every` takes it. */
const GO_DURATION = /^[-+]?(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$|^[-+]?0$/;

const EXPECTED =
  'a cron schedule: five fields (minute hour day-of-month month day-of-week, e.g. "0 3 * * *") or @hourly, @daily, @weekly, @monthly, @yearly, @every <duration>';

export function checkCronSchedule(path: FieldPath, schedule: string): Problem[] {
  if (schedule.includes('TZ'))
    return [invalid(path, 'a schedule without TZ= (set spec.timeZone instead)', schedule)];
  return parses(schedule) ? [] : [invalid(path, EXPECTED, schedule)];
}

function parses(schedule: string): boolean {
  const s = schedule.trim();
  if (s.startsWith('@')) {
    if (DESCRIPTORS.includes(s)) return true;
    return s.startsWith('@every ') && GO_DURATION.test(s.slice('@every '.length));
  }
  const fields = s.split(/\s+/);
  return fields.length === FIELDS.length && fields.every((f, i) => fieldParses(f, FIELDS[i]!));
}

function fieldParses(field: string, range: (typeof FIELDS)[number]): boolean {
  return field.split(',').every((part) => partParses(part, range));
}

function partParses(part: string, range: (typeof FIELDS)[number]): boolean {
  const [span = '', step, ...rest] = part.split('/');
  if (rest.length > 0) return false;
  if (step !== undefined && !(/^[0-9]+$/.test(step) && Number(step) >= 1)) return false;
  if (span === '*' || span === '?') return true;
  const bounds = span.split('-');
  if (bounds.length > 2) return false;
  const values = bounds.map((b) => value(b, range));
  if (values.some((v) => v === undefined || v < range.min || v > range.max)) return false;
  const [lo, hi] = values as number[];
  return hi === undefined || lo! <= hi;
}

function value(text: string, range: (typeof FIELDS)[number]): number | undefined {
  if (/^[0-9]+$/.test(text)) return Number(text);
  const index = range.names?.indexOf(text.toLowerCase()) ?? -1;
  return index === -1 ? undefined : index + (range.base ?? 0);
}
