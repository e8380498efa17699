/**
 * specforge's own image (`npm run image`): the base, node and app layers of ./rootfs.ts written by
 * {@link writeImageArchive}, with the runtime settings of the repository's `Dockerfile` and labels saying what it
 * holds. Reproducible: its mtimes and `created` are the commit's time (`SOURCE_DATE_EPOCH` when set), so two builds
 * of one commit, with the same Debian package versions, give the same digest.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONTROLLER_IMAGE } from '../../src/constructs/controller-bundle.js';
import { writeImageArchive, type ImageArchive, type ImageRunConfig } from './oci-archive.js';
import { ImageError, run } from './run.js';
import { makeApp, makeBase, makeNode, NONROOT, projectNode, type Base } from './rootfs.js';

export const PATH_ENV = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Where downloaded Debian packages are kept between builds (per machine, like the other built tools). */
export function debCache(): string {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'specforge', 'debs');
}

/** The commit of the checkout (with `-dirty` when tracked files differ from it) and its time in epoch seconds. */
export function sourceRevision(repo: string): { revision: string; epoch: number } {
  const git = (args: string[]): string =>
    run('git', ['-C', repo, ...args], {
      what: `git ${args.join(' ')} (the image is labelled with the commit it is built from)`,
      missing: 'git is not installed: the image is labelled with the commit it is built from',
    }).trim();
  const commit = git(['rev-parse', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  const fromEnv = process.env.SOURCE_DATE_EPOCH;
  if (fromEnv !== undefined && !/^\d+$/.test(fromEnv))
    throw new ImageError(`SOURCE_DATE_EPOCH must be seconds since the epoch, found "${fromEnv}"`);
  const epoch = fromEnv !== undefined ? Number(fromEnv) : Number(git(['log', '-1', '--format=%ct']));
  return { revision: dirty ? `${commit}-dirty` : commit, epoch };
}

/** `https://github.com/<owner>/<name>` of `ghcr.io/<owner>/<name>:<tag>` (how GitHub links a package to its source). */
function sourceOf(ref: string): string {
  const m = /^ghcr\.io\/([^/]+\/[^/:@]+)/.exec(ref);
  return m ? `https://github.com/${m[1]}` : '';
}

/** The image's runtime settings: those of the repository's `Dockerfile`, by absolute path. */
export function specforgeConfig(labels: Record<string, string>): ImageRunConfig {
  return {
    User: `${NONROOT}:${NONROOT}`,
    ExposedPorts: ['8080/tcp'],
    Env: [PATH_ENV, 'NODE_ENV=production', 'NODE_OPTIONS=--max-semi-space-size=4'],
    Entrypoint: ['/usr/bin/node', '/app/bin/specforge.js'],
    Cmd: ['controller'],
    WorkingDir: '/app',
    Labels: labels,
  };
}

export interface BuildOptions {
  readonly repo: string;
  readonly out: string;
  readonly ref?: string;
  /** Called with a line of progress (stderr in the command). */
  readonly progress?: (line: string) => void;
}

export interface BuiltImage extends ImageArchive {
  readonly ref: string;
  readonly out: string;
  readonly base: Base;
  readonly node: string;
  readonly revision: string;
}

/** Builds specforge's image from the checkout at `repo` into the archive `out`. */
export function buildSpecforgeImage(opts: BuildOptions): BuiltImage {
  const say = opts.progress ?? ((): void => {});
  const ref = opts.ref ?? DEFAULT_CONTROLLER_IMAGE;
  const pkg = JSON.parse(readFileSync(join(opts.repo, 'package.json'), 'utf8')) as {
    version: string;
    license?: string;
    description?: string;
  };
  const { revision, epoch } = sourceRevision(opts.repo);
  const node = projectNode(opts.repo);
  const work = mkdtempSync(join(tmpdir(), 'specforge-image-'));
  try {
    say('base: Debian packages (apt-get download, dpkg -x)');
    const base = makeBase(join(work, 'base'), debCache());
    say(`node: ${node.bin} (v${node.version})`);
    makeNode(join(work, 'node'), node.bin);
    say('app: lib/ compiled from src/, npm ci --omit=dev');
    makeApp(join(work, 'app'), opts.repo, work);
    say('archive');
    const labels: Record<string, string> = {
      'org.opencontainers.image.title': 'specforge',
      'org.opencontainers.image.description': pkg.description ?? '',
      'org.opencontainers.image.version': pkg.version,
      'org.opencontainers.image.revision': revision,
      'org.opencontainers.image.source': sourceOf(ref),
      'org.opencontainers.image.licenses': pkg.license ?? '',
      'org.opencontainers.image.created': new Date(epoch * 1000).toISOString().replace('.000Z', 'Z'),
      'dev.specforge.image.debian-packages': base.packages.map((p) => `${p.name}=${p.version}`).join(' '),
      'dev.specforge.image.node': node.version,
    };
    const archive = writeImageArchive(
      {
        ref,
        layers: [join(work, 'base'), join(work, 'node'), join(work, 'app')],
        history: [
          `Debian packages ${base.packages.map((p) => `${p.name}=${p.version}`).join(' ')}, unpacked`,
          `Node.js ${node.version} (npm package node)`,
          `specforge ${pkg.version} (${revision})`,
        ],
        config: specforgeConfig(labels),
        created: epoch,
        architecture: node.architecture,
      },
      opts.out,
    );
    return { ...archive, ref, out: opts.out, base, node: node.version, revision };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
