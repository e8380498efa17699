import type { FieldPath } from './field-path.js';
import type { Problem } from './problem.js';
import timeZones from './time-zones.json' with { type: 'json' };
import { invalid } from './validation-kit.js';

/**
 * A CronJob's `spec.timeZone`, as the API server validates it.
 *
 * Mirrors (v1.34) k8s.io/kubernetes pkg/apis/batch/validation/validation.go `validateTimeZone`: not empty, not
 * `Local` in any case, and a name `time.LoadLocation` loads (its check of each part's characters refuses nothing
 * that is not refused for want of a zone). kube-apiserver embeds Go's tzdata (`time/tzdata`); the names it holds are
 * src/rules/time-zones.json (scripts/vendor-time-zones.ts), case-sensitive, links such as `US/Eastern` among them.
 * Stricter on purpose: `LoadLocation` reads the host's zoneinfo first, so an API server on a host with
 * `/usr/share/zoneinfo` also takes its files `posixrules`, `localtime`, `posix/…` and `right/…`; they depend on that
 * host and are refused here. Node's `Intl` is not used: it takes names in any case, lists only the canonical ones and
 * changes with Node's ICU. Pure; the set is made on the first time zone checked.
 */

const EXPECTED =
  'a time zone of the IANA tz database as kube-apiserver loads it, case-sensitive (e.g. Etc/UTC, America/New_York)';

let names: ReadonlySet<string> | undefined;

export function checkTimeZone(path: FieldPath, value: unknown, out: Problem[]): void {
  if (typeof value !== 'string') return; // unset, or the schema check's to report
  if (value === '') out.push(invalid(path, `${EXPECTED}, or no timeZone at all`, value));
  else if (value.toLowerCase() === 'local')
    out.push(invalid(path, `an explicit time zone (${value} is the API server's own), e.g. Etc/UTC`, value));
  else if (!(names ??= new Set(timeZones.names)).has(value)) out.push(invalid(path, EXPECTED, value));
}
