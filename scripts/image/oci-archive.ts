/**
 * `writeImageArchive`: an image archive from layer directories and a config, with no Docker, no registry and no
 * library beyond Node's own. The archive is at once
 * - an **OCI image layout** (`oci-layout`, `index.json`, `blobs/sha256/…`) for `skopeo copy oci-archive:…`,
 *   `ctr images import`, `podman load`, `buildah pull oci-archive:…`, and
 * - a **docker-archive** (`manifest.json` with `RepoTags`, pointing at the same blobs) for `docker load` and
 *   `kind load image-archive`,
 * as `docker save` writes it since Docker 25.
 *
 * Reproducible: the same directories, config and `created` give the same bytes, hence the same digest. Entries are
 * sorted, every mtime is `created`, owner is numeric 0 with no names, modes are normalised (directories and
 * executables 0755, other files 0644, symlinks 0777), no extended attributes, layers uncompressed (a compressor's
 * bytes may differ between its versions and CPUs; a registry push may compress them). Files are root-owned and not
 * writable by anyone else. Hard links are stored as regular files; sockets, devices and FIFOs are refused.
 */
import { mkdtempSync, readdirSync, readlinkSync, lstatSync, renameSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { TarWriter, type TarResult } from './tar.js';

/** The runtime settings of the image (the OCI image config's `config`), written in this order. */
export interface ImageRunConfig {
  readonly User?: string;
  readonly ExposedPorts?: readonly string[];
  readonly Env?: readonly string[];
  readonly Entrypoint?: readonly string[];
  readonly Cmd?: readonly string[];
  readonly WorkingDir?: string;
  readonly Labels?: Readonly<Record<string, string>>;
}

/** What {@link writeImageArchive} builds. */
export interface ImageSpec {
  /** Full reference, e.g. `ghcr.io/specforge/specforge:0.1.0`: the name `docker load`, `ctr` and `podman` give it. */
  readonly ref: string;
  /** Directories whose trees become the layers, bottom first; each one's root is the image's `/`. */
  readonly layers: readonly string[];
  /** One `created_by` line per layer for the image's history (default: `layer <n>`). */
  readonly history?: readonly string[];
  readonly config: ImageRunConfig;
  /** The image's creation time and every entry's mtime, in seconds since the epoch (use `SOURCE_DATE_EPOCH`). */
  readonly created: number;
  /** OCI architecture (`amd64`, `arm64`); default: this machine's. */
  readonly architecture?: string;
}

/** What was written: the image (manifest) digest, the archive's size in bytes, and the config's digest. */
export interface ImageArchive {
  readonly digest: string;
  readonly size: number;
  readonly configDigest: string;
  readonly layers: readonly TarResult[];
}

const MEDIA = {
  index: 'application/vnd.oci.image.index.v1+json',
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layer: 'application/vnd.oci.image.layer.v1.tar',
} as const;

const ARCH: Record<string, string> = {
  x64: 'amd64',
  arm64: 'arm64',
  arm: 'arm',
  ppc64: 'ppc64le',
  s390x: 's390x',
};

/** Writes one directory tree into a tar, sorted, root-owned, with normalised modes and every mtime `mtime`. */
export function writeLayer(dir: string, tarFile: string, mtime: number): TarResult {
  const tar = new TarWriter(tarFile);
  const walk = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs).sort()) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(join(abs, name));
      if (st.isDirectory()) {
        tar.directory(path, 0o755, mtime);
        walk(join(abs, name), path);
      } else if (st.isSymbolicLink()) tar.symlink(path, readlinkSync(join(abs, name)), mtime);
      else if (st.isFile())
        tar.file(path, st.mode & 0o111 ? 0o755 : 0o644, mtime, { file: join(abs, name), size: st.size });
      else
        throw new Error(
          `${join(abs, name)} is not a file, directory or symlink; an image layer holds only those`,
        );
    }
  };
  walk(dir, '');
  return tar.finish();
}

const sha256 = (b: Buffer): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), 'utf8');
const sorted = (o: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

function runConfig(c: ImageRunConfig): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (c.User !== undefined) out.User = c.User;
  if (c.ExposedPorts !== undefined)
    out.ExposedPorts = Object.fromEntries(
      [...c.ExposedPorts].sort().map((p) => [p.includes('/') ? p : `${p}/tcp`, {}]),
    );
  if (c.Env !== undefined) out.Env = [...c.Env];
  if (c.Entrypoint !== undefined) out.Entrypoint = [...c.Entrypoint];
  if (c.Cmd !== undefined) out.Cmd = [...c.Cmd];
  if (c.WorkingDir !== undefined) out.WorkingDir = c.WorkingDir;
  if (c.Labels !== undefined) out.Labels = sorted(c.Labels);
  return out;
}

/** The tag of a reference (`0.1.0` of `ghcr.io/specforge/specforge:0.1.0`), or undefined when it has none. */
function tagOf(ref: string): string | undefined {
  const last = ref.slice(ref.lastIndexOf('/') + 1);
  const at = last.indexOf(':');
  return at === -1 || last.includes('@') ? undefined : last.slice(at + 1);
}

/**
 * Writes the image `spec` as an archive at `outFile` (written beside it under a temporary name, then renamed, so
 * `outFile` is never half-written) and returns its digest and size.
 */
export function writeImageArchive(spec: ImageSpec, outFile: string): ImageArchive {
  const created = new Date(spec.created * 1000).toISOString().replace('.000Z', 'Z');
  const architecture = spec.architecture ?? ARCH[process.arch] ?? process.arch;
  const work = mkdtempSync(join(dirname(outFile), `.${basename(outFile)}.tmp-`));
  try {
    const layers = spec.layers.map((dir, i) => {
      const file = join(work, `layer-${i}.tar`);
      return { file, ...writeLayer(dir, file, spec.created) };
    });
    const config = json({
      created,
      architecture,
      os: 'linux',
      config: runConfig(spec.config),
      rootfs: { type: 'layers', diff_ids: layers.map((l) => l.digest) },
      history: layers.map((_, i) => ({ created, created_by: spec.history?.[i] ?? `layer ${i + 1}` })),
    });
    const configDigest = sha256(config);
    const manifest = json({
      schemaVersion: 2,
      mediaType: MEDIA.manifest,
      config: { mediaType: MEDIA.config, digest: configDigest, size: config.length },
      layers: layers.map((l) => ({ mediaType: MEDIA.layer, digest: l.digest, size: l.size })),
    });
    const digest = sha256(manifest);
    const blobPath = (d: string): string => `blobs/sha256/${d.slice('sha256:'.length)}`;
    const tag = tagOf(spec.ref);
    const index = json({
      schemaVersion: 2,
      mediaType: MEDIA.index,
      manifests: [
        {
          mediaType: MEDIA.manifest,
          digest,
          size: manifest.length,
          annotations: {
            'io.containerd.image.name': spec.ref,
            'org.opencontainers.image.ref.name': spec.ref,
          },
          platform: { architecture, os: 'linux' },
        },
      ],
    });
    const dockerManifest = json([
      {
        Config: blobPath(configDigest),
        RepoTags: tag === undefined ? [] : [spec.ref],
        Layers: layers.map((l) => blobPath(l.digest)),
      },
    ]);
    const blobs = new Map<string, Buffer | { file: string; size: number }>([
      [configDigest, config],
      [digest, manifest],
      ...layers.map((l) => [l.digest, { file: l.file, size: l.size }] as const),
    ]);
    const tmpOut = join(work, 'image.tar');
    const tar = new TarWriter(tmpOut);
    const mtime = spec.created;
    tar.directory('blobs', 0o755, mtime);
    tar.directory('blobs/sha256', 0o755, mtime);
    for (const d of [...blobs.keys()].sort())
      tar.file(blobPath(d), 0o644, mtime, blobs.get(d) ?? Buffer.alloc(0));
    tar.file('index.json', 0o644, mtime, index);
    tar.file('manifest.json', 0o644, mtime, dockerManifest);
    tar.file('oci-layout', 0o644, mtime, json({ imageLayoutVersion: '1.0.0' }));
    const { size } = tar.finish();
    renameSync(tmpOut, outFile);
    return {
      digest,
      size,
      configDigest,
      layers: layers.map(({ digest: d, size: s }) => ({ digest: d, size: s })),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
