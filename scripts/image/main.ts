/**
 * `npm run image [-- --tag REF] [-- --out FILE]`: builds specforge's image into an OCI archive (also a
 * docker-archive) and prints its path, digest and size. Exit 0 built, 1 the build failed (one sentence), 2 usage.
 */
import { mkdirSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ImageError } from './run.js';
import { buildSpecforgeImage } from './specforge-image.js';

const USAGE = `Usage: npm run image [-- --tag REF] [-- --out FILE]

Builds specforge's image (the CLI; \`specforge controller\` by default) into an archive that is both an OCI image
layout and a docker-archive: load it with skopeo, ctr, docker, podman or kind.

  --tag REF    the image's name (default: DEFAULT_CONTROLLER_IMAGE, ghcr.io/specforge/specforge:<package version>)
  --out FILE   where to write it (default: build/specforge-image.tar)
`;

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function usage(message: string): never {
  process.stderr.write(`image: ${message}\n${USAGE}`);
  process.exit(2);
}

function main(): void {
  let values: { tag?: string; out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { tag: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: false,
    }));
  } catch (e) {
    usage((e as Error).message.split('\n')[0] ?? 'bad arguments');
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (values.tag !== undefined && !/^[a-z0-9][a-z0-9._\-/:]*[a-zA-Z0-9_.-]$/.test(values.tag))
    usage(`--tag: expected an image reference like registry.example/specforge:1.0, found "${values.tag}"`);
  const out = resolve(values.out ?? resolve(REPO, 'build/specforge-image.tar'));
  mkdirSync(dirname(out), { recursive: true });
  const started = Date.now();
  const image = buildSpecforgeImage({
    repo: REPO,
    out,
    ref: values.tag,
    progress: (line) => process.stderr.write(`image: ${line}\n`),
  });
  const shown = relative(process.cwd(), out).startsWith('..') ? out : relative(process.cwd(), out);
  process.stdout.write(
    `${shown}\n  ref     ${image.ref}\n  digest  ${image.digest}\n  size    ${(image.size / 1e6).toFixed(1)} MB (${image.size} bytes)\n` +
      `  built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

try {
  main();
} catch (e) {
  const message = e instanceof Error ? e.message : String(e);
  process.stderr.write(
    `image: ${e instanceof ImageError ? '' : 'unexpected error: '}${message.split('\n')[0]}\n`,
  );
  process.exit(1);
}
