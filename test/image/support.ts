/**
 * What the image suites share: whether this machine can build and run images (root, apt-get, dpkg, chroot, unshare,
 * mount, buildah), unpacking an archive's layers into a root filesystem, and running a program in it as a user, the
 * root filesystem mounted read-only. Without a piece the suites skip saying what to install; under `CI=true` they
 * fail instead.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'vitest';

export const REPO = join(import.meta.dirname, '../..');

const APT_HINT =
  'apt-get install buildah (root, on Debian or Ubuntu; apt-get, dpkg, chroot, unshare and mount come with it)';

const onPath = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** Why the image suites cannot run here (what to install), or undefined when they can. */
export function imageToolsMissing(needBuildah: boolean): string | undefined {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push('root (chroot and mounts)');
  for (const cmd of ['apt-get', 'dpkg', 'dpkg-deb', 'chroot', 'unshare', 'mount', 'tar', 'npm', 'git'])
    if (!onPath(cmd)) missing.push(cmd);
  if (needBuildah && !onPath('buildah')) missing.push('buildah');
  return missing.length === 0 ? undefined : `missing ${missing.join(', ')}: ${APT_HINT}`;
}

/** `describe` when the machine has what the image suites need; a skip saying what to install, or a failure under CI. */
export function describeImage(name: string, needBuildah: boolean, body: () => void): void {
  const missing = imageToolsMissing(needBuildah);
  if (missing === undefined) describe(name, body);
  else if (process.env.CI === 'true')
    describe(name, () => {
      throw new Error(`CI=true and the image suites cannot run: ${missing}`);
    });
  else describe.skip(`${name} [skipped: ${missing}]`, () => undefined);
}

/** Runs a command, returns its result (never throws on a non-zero exit). */
export function sh(
  cmd: string,
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
) {
  return spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
}

/** Like {@link sh}, but a non-zero exit throws with the command's output. */
export function must(
  cmd: string,
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): string {
  const r = sh(cmd, args, opts);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** A JSON file of an extracted archive. */
export const readJson = (file: string): any => JSON.parse(readFileSync(file, 'utf8'));

/** An archive extracted into `dir/archive`, its layers unpacked in order into `dir/rootfs`; returns both paths. */
export function unpackImage(archive: string, dir: string): { layout: string; rootfs: string } {
  const layout = join(dir, 'archive');
  const rootfs = join(dir, 'rootfs');
  mkdirSync(layout, { recursive: true });
  mkdirSync(rootfs, { recursive: true });
  must('tar', ['-xf', archive, '-C', layout]);
  const index = readJson(join(layout, 'index.json'));
  const manifestDigest: string = index.manifests[0].digest;
  const manifest = readJson(join(layout, 'blobs/sha256', manifestDigest.slice(7)));
  for (const layer of manifest.layers as { digest: string }[])
    must('tar', [
      '--numeric-owner',
      '-xpf',
      join(layout, 'blobs/sha256', layer.digest.slice(7)),
      '-C',
      rootfs,
    ]);
  return { layout, rootfs };
}

/** The image config of an extracted archive (through index.json and its manifest). */
export function imageConfig(layout: string): any {
  const index = readJson(join(layout, 'index.json'));
  const manifest = readJson(join(layout, 'blobs/sha256', index.manifests[0].digest.slice(7)));
  return readJson(join(layout, 'blobs/sha256', manifest.config.digest.slice(7)));
}

/**
 * Runs `argv` inside `rootfs` as `user` (uid:gid) with `env`, the way a container runtime would start it: a private
 * mount namespace where `rootfs` is bind-mounted read-only, then chroot. Nothing is mounted on the host.
 */
export function runInRootfs(rootfs: string, user: string, argv: readonly string[], env: readonly string[]) {
  const script =
    'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec chroot --userspec="$@"';
  return sh(
    'unshare',
    ['-m', '--propagation', 'private', 'sh', '-c', script, 'sh', rootfs, user, rootfs, ...argv],
    {
      env: Object.fromEntries(env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)])),
    },
  );
}

const CONTAINERD = join(REPO, '.cache/nodes/containerd/usr/bin');

/**
 * The directory of containerd and ctr (Debian's, unpacked by scripts/build-nodes.sh for the node suites), or
 * undefined when they are not built (under `CI=true`, a failure: .ci/run builds them).
 */
export function containerdDir(): string | undefined {
  if (existsSync(join(CONTAINERD, 'containerd')) && existsSync(join(CONTAINERD, 'ctr'))) return CONTAINERD;
  if (process.env.CI === 'true') throw new Error('CI=true and no containerd: bash scripts/build-nodes.sh');
  return undefined;
}

/** Starts a containerd of its own under `dir` (socket, root, state there) and gives `ctr` on it and a stop. */
export async function startContainerd(
  bin: string,
  dir: string,
): Promise<{ ctr: (...args: string[]) => string; stop: () => Promise<void> }> {
  const sock = join(dir, 'containerd.sock');
  writeFileSync(
    join(dir, 'config.toml'),
    `version = 2\nroot = "${dir}/root"\nstate = "${dir}/state"\n[grpc]\n  address = "${sock}"\n` +
      `[plugins."io.containerd.grpc.v1.cri"]\n  disable_tcp_service = true\n`,
  );
  const daemon = spawn(join(bin, 'containerd'), ['--config', join(dir, 'config.toml')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => daemon.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    daemon.kill('SIGTERM');
    const killer = setTimeout(() => daemon.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
  };
  for (let i = 0; i < 100 && !existsSync(sock); i++) await new Promise((r) => setTimeout(r, 100));
  if (!existsSync(sock)) {
    await stop();
    throw new Error('containerd did not start within 10 s');
  }
  return { ctr: (...args) => must(join(bin, 'ctr'), ['--address', sock, ...args]), stop };
}
