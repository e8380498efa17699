/**
 * Debian packages into an image root, without installing them: `apt-get download` (the versions apt's lists name,
 * cached per machine by file name and checked by their sha256), `dpkg -x` to unpack, and what the maintainer
 * scripts would have made, made here deterministically (the CA bundle of `update-ca-certificates`). Each package's
 * control fields are written to `/var/lib/dpkg/status.d/<package>`, where image scanners look in images without
 * dpkg (as distroless images do).
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { ImageError, run } from './run.js';

/** A Debian package unpacked into an image: its name, version and architecture (from its own control file). */
export interface DebPackage {
  readonly name: string;
  readonly version: string;
  readonly architecture: string;
}

interface DebUri {
  readonly url: string;
  readonly file: string;
  readonly sha256: string;
}

/** What `apt-get download --print-uris` says it would fetch: URL, file name, size, `SHA256:<hex>`. */
function printUris(names: readonly string[]): DebUri[] {
  const out = run('apt-get', ['download', '--print-uris', ...names], {
    what: `apt-get download ${names.join(' ')}`,
    missing: 'apt-get is not installed: the image base is made of Debian packages; build on Debian or Ubuntu',
  });
  return out
    .split('\n')
    .filter((l) => l.startsWith("'"))
    .map((l) => {
      const [url = '', file = '', , hash = ''] = l.split(' ');
      return { url: url.slice(1, -1), file, sha256: hash.replace(/^SHA256:/, '') };
    });
}

const fileSha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** The `.deb` files of `names` in `cacheDir`, downloaded by `apt-get download` where not already there. */
export function downloadDebs(names: readonly string[], cacheDir: string): string[] {
  mkdirSync(cacheDir, { recursive: true });
  const uris = printUris(names);
  if (uris.length !== names.length)
    throw new ImageError(
      `apt-get knows ${uris.length} of the ${names.length} packages ${names.join(', ')}: run apt-get update`,
    );
  const missing = uris.filter(
    (u) => !existsSync(join(cacheDir, u.file)) || fileSha256(join(cacheDir, u.file)) !== u.sha256,
  );
  if (missing.length > 0) {
    const tmp = join(cacheDir, `.download-${process.pid}`);
    mkdirSync(tmp, { recursive: true, mode: 0o755 });
    const want = missing.map(
      (u) => u.file.replace(/_.*$/, '') + '=' + decodeURIComponent(u.file.split('_')[1] ?? ''),
    );
    run('apt-get', ['download', '-qq', ...want], {
      cwd: tmp,
      what: `apt-get download ${want.map((w) => w.split('=')[0]).join(' ')} (no network, or apt's lists are stale: apt-get update)`,
    });
    for (const u of missing) {
      if (fileSha256(join(tmp, u.file)) !== u.sha256)
        throw new ImageError(`${u.file} from ${u.url} does not have the sha256 apt's lists give`);
      renameSync(join(tmp, u.file), join(cacheDir, u.file));
    }
  }
  return uris.map((u) => join(cacheDir, u.file));
}

/** Unpacks each `.deb` into `root` (dpkg -x) and records its control fields in `root/var/lib/dpkg/status.d/`. */
export function unpackDebs(debs: readonly string[], root: string): DebPackage[] {
  const statusDir = join(root, 'var/lib/dpkg/status.d');
  mkdirSync(statusDir, { recursive: true });
  return debs.map((deb) => {
    run('dpkg', ['-x', deb, root], {
      what: `dpkg -x ${deb}`,
      missing: 'dpkg is not installed: build on Debian or Ubuntu',
    });
    const control = run('dpkg-deb', ['-f', deb], { what: `dpkg-deb -f ${deb}` });
    const field = (name: string): string => new RegExp(`^${name}: (.*)$`, 'm').exec(control)?.[1] ?? '';
    const pkg = { name: field('Package'), version: field('Version'), architecture: field('Architecture') };
    writeFileSync(join(statusDir, pkg.name), control.endsWith('\n') ? control : `${control}\n`);
    return pkg;
  });
}

/**
 * `/etc/ssl/certs/ca-certificates.crt` as `update-ca-certificates` writes it on a fresh install: every certificate
 * under `/usr/share/ca-certificates` (all of them, as the package's configuration selects by default), in the
 * byte order of their paths, each followed by a newline if it lacks one. Returns how many certificates it holds.
 */
export function writeCaBundle(root: string): number {
  const shared = join(root, 'usr/share/ca-certificates');
  const certs: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.name.endsWith('.crt')) certs.push(relative(shared, join(dir, e.name)));
    }
  };
  walk(shared);
  certs.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const parts = certs.map((c) => {
    const text = readFileSync(join(shared, c));
    return text.length > 0 && text[text.length - 1] !== 0x0a
      ? Buffer.concat([text, Buffer.from('\n')])
      : text;
  });
  mkdirSync(join(root, 'etc/ssl/certs'), { recursive: true });
  writeFileSync(join(root, 'etc/ssl/certs/ca-certificates.crt'), Buffer.concat(parts));
  writeFileSync(join(root, 'etc/ca-certificates.conf'), certs.map((c) => `${c}\n`).join(''));
  return certs.length;
}

/** Copies one file into the image root at `to` (its parents made), keeping its executable bit. */
export function place(root: string, from: string, to: string): void {
  mkdirSync(join(root, to, '..'), { recursive: true });
  copyFileSync(from, join(root, to));
}
