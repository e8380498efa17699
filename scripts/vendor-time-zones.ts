/**
 * Vendors the names of the IANA tz database that a CronJob's `spec.timeZone` may take into
 * src/rules/time-zones.json: the zones of Go's embedded tzdata (`time/tzdata`, which cmd/kube-apiserver imports "for
 * timeZone support in CronJob", read from `$GOROOT/lib/time/zoneinfo.zip`), from the Go toolchain that builds the
 * test kube-apiserver (`npm run control-plane`). The API server's `validateTimeZone` takes a name exactly when
 * `time.LoadLocation` does, which reads the host's zoneinfo first and this zip after it: the names of the zip are
 * the ones every API server takes. Generated: never edit the output by hand; test/cluster/time-zones.test.ts
 * checks every name against the live server. `npm run vendor-time-zones` (GOROOT taken from `go env` when unset).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const OUT = resolve(import.meta.dirname, '../src/rules/time-zones.json');

/** The file names in a zip's central directory (the end record is within the last 64 KiB and 22 bytes). */
function zipNames(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip file: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`no central directory entry at ${at}`);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + skip;
  }
  return names;
}

const goroot = process.env.GOROOT ?? execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim();
const go = readFileSync(join(goroot, 'VERSION'), 'utf8').split('\n')[0]!;
const names = zipNames(readFileSync(join(goroot, 'lib/time/zoneinfo.zip')))
  .filter((n) => !n.endsWith('/'))
  .sort();
const source = `${go} lib/time/zoneinfo.zip (time/tzdata), by npm run vendor-time-zones; do not edit`;
writeFileSync(OUT, `${JSON.stringify({ source, names }, null, 2)}\n`);
console.log(`vendor-time-zones: ${names.length} names from ${go} into ${OUT}`);
