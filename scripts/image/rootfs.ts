/**
 * The three layer trees of specforge's image, each made in a directory of its own:
 * - **base**: the Debian packages Node needs, unpacked (no maintainer scripts ran), with the CA bundle, `nonroot`
 *   (65532) in `/etc/passwd` and `/etc/group`, and nothing that runs: no shell, no package manager, no coreutils;
 * - **node**: `/usr/bin/node`, the project's own Node 24 (the npm `node` package in node_modules);
 * - **app**: `/app` with `lib/` compiled from `src/`, `bin/`, `schemas/`, `package.json` and the production
 *   dependencies as `npm ci --omit=dev --ignore-scripts` installs them from `package-lock.json`.
 */
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { downloadDebs, unpackDebs, writeCaBundle, type DebPackage } from './debian.js';
import { ImageError, run } from './run.js';

/** The Debian packages of the base: what Node's binary links (libc, libstdc++, libgcc) and what a process expects. */
export const BASE_PACKAGES = ['libc6', 'libstdc++6', 'libgcc-s1', 'ca-certificates', 'tzdata'] as const;

/** The non-root user of the image, as the controller's pod security context expects it (runAsUser 65532). */
export const NONROOT = 65532;

/** What the base holds: its packages, and how many certificates the CA bundle has. */
export interface Base {
  readonly packages: readonly DebPackage[];
  readonly certificates: number;
}

/** Paths (relative to the root) removed from unpacked packages: programs, and documentation but the licences. */
const PRUNED = [
  'usr/sbin',
  'sbin',
  'bin',
  'usr/bin',
  'usr/libexec',
  'usr/share/man',
  'usr/share/info',
  'usr/share/lintian',
  'usr/share/gdb',
  'usr/share/bug',
];

function pruneDocs(root: string): void {
  const docs = join(root, 'usr/share/doc');
  if (!existsSync(docs)) return;
  for (const pkg of readdirSync(docs, { withFileTypes: true })) {
    if (!pkg.isDirectory()) continue; // libgcc-s1's is a link to gcc-12-base's, which the base does not hold
    for (const f of readdirSync(join(docs, pkg.name)))
      if (f !== 'copyright') rmSync(join(docs, pkg.name, f), { recursive: true });
  }
}

/** Unpacks `packages` (downloaded into `debCache`) into `root` and adds what the base needs around them. */
export function makeBase(root: string, debCache: string, packages: readonly string[] = BASE_PACKAGES): Base {
  const unpacked = unpackDebs(downloadDebs(packages, debCache), root);
  for (const p of PRUNED) rmSync(join(root, p), { recursive: true, force: true });
  pruneDocs(root);
  const certificates = existsSync(join(root, 'usr/share/ca-certificates')) ? writeCaBundle(root) : 0;
  mkdirSync(join(root, 'etc'), { recursive: true });
  writeFileSync(
    join(root, 'etc/passwd'),
    `root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:${NONROOT}:${NONROOT}:nonroot:/nonexistent:/sbin/nologin\n`,
  );
  writeFileSync(join(root, 'etc/group'), `root:x:0:\nnonroot:x:${NONROOT}:\n`);
  return { packages: [...unpacked].sort((a, b) => (a.name < b.name ? -1 : 1)), certificates };
}

const ELF_MACHINE: Record<number, string> = { 0x3e: 'amd64', 0xb7: 'arm64' };

/** The OCI architecture of an ELF executable, or undefined when the file is not one this build knows. */
export function elfArchitecture(file: string): string | undefined {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(20);
    readSync(fd, b, 0, 20, 0);
    if (b.subarray(0, 4).toString('latin1') !== '\x7fELF') return undefined;
    return ELF_MACHINE[b.readUInt16LE(18)];
  } finally {
    closeSync(fd);
  }
}

/** The project's Node binary (the npm `node` package's, in node_modules), its version and architecture. */
export function projectNode(repo: string): { bin: string; version: string; architecture: string } {
  const bin = join(repo, 'node_modules/node/bin/node');
  if (!existsSync(bin))
    throw new ImageError(
      `${bin} is missing: run npm ci (the devDependency node brings the Node binary of the image)`,
    );
  const architecture = elfArchitecture(bin);
  if (architecture === undefined) throw new ImageError(`${bin} is not a Linux amd64 or arm64 executable`);
  const version = run(bin, ['--version'], { what: `${bin} --version` })
    .trim()
    .replace(/^v/, '');
  const locked = (JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as LockFile).packages?.[
    'node_modules/node'
  ]?.version;
  if (locked !== version)
    throw new ImageError(`${bin} is Node ${version}, package-lock.json pins ${locked ?? 'none'}: run npm ci`);
  return { bin, version, architecture };
}

interface LockFile {
  packages?: Record<string, { version?: string }>;
}

/** Places the project's Node as `/usr/bin/node` in `root`. */
export function makeNode(root: string, bin: string): void {
  mkdirSync(join(root, 'usr/bin'), { recursive: true });
  cpSync(bin, join(root, 'usr/bin/node'));
}

/** Makes `/app` in `root`: lib compiled from src (into the image only; the checkout's lib/ is not read), bin, schemas, package.json, production node_modules. */
export function makeApp(root: string, repo: string, scratch: string): void {
  const app = join(root, 'app');
  const tsc = join(repo, 'node_modules/typescript/bin/tsc');
  if (!existsSync(tsc)) throw new ImageError(`${tsc} is missing: run npm ci`);
  run(
    process.execPath,
    [
      tsc,
      '-p',
      join(repo, 'tsconfig.build.json'),
      '--outDir',
      join(app, 'lib'),
      '--declaration',
      'false',
      '--declarationMap',
      'false',
      '--sourceMap',
      'false',
    ],
    {
      what: 'compiling src/ (tsc -p tsconfig.build.json)',
    },
  );
  if (!existsSync(join(app, 'lib/cli.js')))
    throw new ImageError('tsc -p tsconfig.build.json wrote no lib/cli.js');
  for (const d of ['bin', 'schemas']) cpSync(join(repo, d), join(app, d), { recursive: true });
  cpSync(join(repo, 'package.json'), join(app, 'package.json'));
  const npmDir = join(scratch, 'npm');
  mkdirSync(npmDir, { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) cpSync(join(repo, f), join(npmDir, f));
  run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: npmDir,
    what: 'npm ci --omit=dev (the production dependencies, from the npm registry)',
    missing: 'npm is not installed: it installs the production dependencies of the image',
  });
  renameSync(join(npmDir, 'node_modules'), join(app, 'node_modules'));
}
