/**
 * Stand-in until scripts/image/oci-archive.ts lands: a one-layer-per-directory image written as a tarball that is both
 * an OCI image layout and a docker archive, with tar and sha256 only.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './netns.js';

export interface ImageSpec {
  readonly ref: string;
  readonly layers: readonly string[];
  readonly config: Readonly<Record<string, unknown>>;
}

const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

export function writeImageArchive(spec: ImageSpec, out: string): { digest: string; size: number } {
  const w = mkdtempSync(join(tmpdir(), 'sf-image-'));
  try {
    mkdirSync(join(w, 'blobs', 'sha256'), { recursive: true });
    const layers: { digest: string; size: number }[] = [];
    for (const dir of spec.layers) {
      const tar = join(w, 'layer.tar');
      run('tar', [
        '-C',
        dir,
        '--sort=name',
        '--mtime=@0',
        '--owner=0',
        '--group=0',
        '--numeric-owner',
        '-cf',
        tar,
        '.',
      ]);
      const digest = sha(readFileSync(tar));
      layers.push({ digest, size: statSync(tar).size });
      renameSync(tar, join(w, 'blobs', 'sha256', digest));
    }
    const blob = (text: string): { digest: string; size: number } => {
      const digest = sha(text);
      writeFileSync(join(w, 'blobs', 'sha256', digest), text);
      return { digest, size: Buffer.byteLength(text) };
    };
    const config = blob(
      JSON.stringify({
        architecture: 'amd64',
        os: 'linux',
        config: spec.config,
        rootfs: { type: 'layers', diff_ids: layers.map((l) => `sha256:${l.digest}`) },
      }),
    );
    const manifest = blob(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        config: {
          mediaType: 'application/vnd.oci.image.config.v1+json',
          digest: `sha256:${config.digest}`,
          size: config.size,
        },
        layers: layers.map((l) => ({
          mediaType: 'application/vnd.oci.image.layer.v1.tar',
          digest: `sha256:${l.digest}`,
          size: l.size,
        })),
      }),
    );
    writeFileSync(join(w, 'oci-layout'), '{"imageLayoutVersion":"1.0.0"}');
    writeFileSync(
      join(w, 'index.json'),
      JSON.stringify({
        schemaVersion: 2,
        manifests: [
          {
            mediaType: 'application/vnd.oci.image.manifest.v1+json',
            digest: `sha256:${manifest.digest}`,
            size: manifest.size,
            annotations: {
              'io.containerd.image.name': spec.ref,
              'org.opencontainers.image.ref.name': spec.ref.split(':').pop(),
            },
          },
        ],
      }),
    );
    writeFileSync(
      join(w, 'manifest.json'),
      JSON.stringify([
        {
          Config: `blobs/sha256/${config.digest}`,
          RepoTags: [spec.ref],
          Layers: layers.map((l) => `blobs/sha256/${l.digest}`),
        },
      ]),
    );
    run('tar', [
      '-C',
      w,
      '--sort=name',
      '--mtime=@0',
      '--owner=0',
      '--group=0',
      '-cf',
      out,
      'oci-layout',
      'index.json',
      'manifest.json',
      'blobs',
    ]);
    return { digest: `sha256:${manifest.digest}`, size: statSync(out).size };
  } finally {
    rmSync(w, { recursive: true, force: true });
  }
}
