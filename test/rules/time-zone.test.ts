import { describe, expect, it } from 'vitest';
import type { Problem } from '../../src/rules/problem.js';
import { checkTimeZone } from '../../src/rules/time-zone.js';
import timeZones from '../../src/rules/time-zones.json' with { type: 'json' };

/** The problems of one CronJob `spec.timeZone`. */
function problems(value: unknown): Problem[] {
  const out: Problem[] = [];
  checkTimeZone(['spec', 'timeZone'], value, out);
  return out;
}

describe('a CronJob time zone', () => {
  it('takes the zones and links of the tz database as kube-apiserver loads them', () => {
    for (const zone of [
      'Etc/UTC',
      'America/New_York',
      'UTC',
      'US/Eastern',
      'Europe/Kiev',
      'EST5EDT',
      'Factory',
    ])
      expect(problems(zone), zone).toEqual([]);
    expect(problems(undefined)).toEqual([]);
  });

  it('refuses a name the tz database lacks, Local, the empty name and another case, naming spec.timeZone', () => {
    for (const zone of [
      'Mars/Base',
      'Local',
      'local',
      '',
      'america/new_york',
      'utc',
      '/Etc/UTC',
      'Etc//UTC',
      '+05:00',
    ]) {
      const found = problems(zone);
      expect(found, zone).toHaveLength(1);
      expect(found[0]!.path).toEqual(['spec', 'timeZone']);
    }
    expect(problems('Local')[0]!.expected).toContain('explicit time zone');
  });

  it("refuses, on purpose, the zoneinfo files only some API servers' hosts have", () => {
    for (const zone of ['posixrules', 'localtime', 'posix/Europe/Berlin', 'right/UTC'])
      expect(problems(zone), zone).toHaveLength(1);
  });

  it('holds the names vendored from Go’s tzdata, sorted, with where they came from', () => {
    expect(timeZones.names.length).toBeGreaterThan(500);
    expect([...timeZones.names].sort()).toEqual(timeZones.names);
    expect(timeZones.source).toMatch(/^go1\.\d+\.\d+ lib\/time\/zoneinfo\.zip/);
  });
});
