/**
 * Base images for building the repository's `Dockerfile` where no registry is reachable (the test suite, with
 * buildah). The `Dockerfile` takes them as build arguments (`BUILD_IMAGE`, `RUNTIME_IMAGE`); users with a registry
 * keep its defaults (`node:24-bookworm-slim`).
 * - **runtime**: the base and node layers of specforge's image (Debian's libraries, the project's Node 24), nothing
 *   else: the Dockerfile's last stage only copies into it, so it needs no shell.
 * - **build**: the same plus what its `RUN npm ci` and `RUN npx tsc` stages need: Debian's `dash` as `/bin/sh`,
 *   `coreutils` (`/usr/bin/env` starts npm's scripts) with the libraries it links, and npm itself, from the npm
 *   registry (`npm pack npm@11`, Node 24's npm).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloadDebs, unpackDebs } from './debian.js';
import { writeImageArchive, type ImageArchive } from './oci-archive.js';
import { makeBase, makeNode, projectNode } from './rootfs.js';
import { run } from './run.js';
import { debCache, PATH_ENV, sourceRevision } from './specforge-image.js';

/** Debian packages of the build image beyond the base: a shell, coreutils, and the libraries coreutils links. */
export const BUILD_TOOLS = [
  'dash',
  'coreutils',
  'libacl1',
  'libattr1',
  'libgmp10',
  'libselinux1',
  'libpcre2-8-0',
] as const;

/** The npm the build image carries (the major Node 24 ships with). */
export const BUILD_NPM = 'npm@11';

export interface DockerfileBases {
  readonly runtime: ImageArchive & { readonly file: string; readonly ref: string };
  readonly build: ImageArchive & { readonly file: string; readonly ref: string };
}

function makeTools(root: string, scratch: string): void {
  unpackDebs(downloadDebs(BUILD_TOOLS, debCache()), root);
  if (!existsSync(join(root, 'bin/sh'))) symlinkSync('dash', join(root, 'bin/sh')); // dash's own /bin/sh link, else ours
  for (const d of ['tmp', 'root']) mkdirSync(join(root, d), { recursive: true });
  const packDir = join(scratch, 'npm-pack');
  mkdirSync(packDir, { recursive: true });
  run('npm', ['pack', BUILD_NPM, '--pack-destination', packDir, '--silent'], {
    what: `npm pack ${BUILD_NPM} (npm for the Dockerfile's build stages, from the npm registry)`,
  });
  const tarball = readdirSync(packDir).find((f) => f.endsWith('.tgz')) ?? '';
  const npmRoot = join(root, 'usr/lib/node_modules/npm');
  mkdirSync(npmRoot, { recursive: true });
  run('tar', ['-xzf', join(packDir, tarball), '-C', npmRoot, '--strip-components=1', '--no-same-owner'], {
    what: `unpacking ${tarball}`,
  });
  mkdirSync(join(root, 'usr/bin'), { recursive: true });
  symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/bin/npm'));
  symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/bin/npx'));
}

/** Writes the two base archives into `outDir` (`runtime.tar`, `build.tar`) for the checkout at `repo`. */
export function buildDockerfileBases(repo: string, outDir: string): DockerfileBases {
  const { epoch } = sourceRevision(repo);
  const node = projectNode(repo);
  const work = mkdtempSync(join(tmpdir(), 'specforge-bases-'));
  try {
    makeBase(join(work, 'base'), debCache());
    makeNode(join(work, 'node'), node.bin);
    makeTools(join(work, 'tools'), work);
    mkdirSync(outDir, { recursive: true });
    const common = { created: epoch, architecture: node.architecture };
    const runtimeConfig = { Env: [PATH_ENV], Cmd: ['node'] };
    // npm trusts the system's CA bundle, as Debian's npm does (so a machine whose bundle holds more, such as a
    // TLS-inspecting egress proxy's CA, can mount its own over it for the RUN steps).
    const buildConfig = {
      Env: [PATH_ENV, 'npm_config_cafile=/etc/ssl/certs/ca-certificates.crt'],
      Cmd: ['sh'],
    };
    const runtimeRef = 'localhost/specforge-runtime-base:test';
    const buildRef = 'localhost/specforge-build-base:test';
    const runtime = writeImageArchive(
      { ...common, config: runtimeConfig, ref: runtimeRef, layers: [join(work, 'base'), join(work, 'node')] },
      join(outDir, 'runtime.tar'),
    );
    const build = writeImageArchive(
      {
        ...common,
        config: buildConfig,
        ref: buildRef,
        layers: [join(work, 'base'), join(work, 'node'), join(work, 'tools')],
      },
      join(outDir, 'build.tar'),
    );
    return {
      runtime: { ...runtime, file: join(outDir, 'runtime.tar'), ref: runtimeRef },
      build: { ...build, file: join(outDir, 'build.tar'), ref: buildRef },
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
