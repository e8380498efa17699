import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderChartDir } from '../../src/migrate/chart-render.js';
import { tempDir, writeFiles } from '../support/tmp.js';

const appService = (name: string, size: number) =>
  `apiVersion: app.example.com/v1\nkind: AppService\nmetadata: {name: ${name}, namespace: shop}\nspec: {size: ${size}, image: nginx, ports: [{port: 80, targetPort: 80}]}\n`;

/** Name and replicas of every Deployment rendered. */
const deployments = (
  objects: readonly { kind?: string; metadata?: { name?: string }; spec?: { replicas?: number } }[],
) => objects.filter((o) => o.kind === 'Deployment').map((o) => `${o.metadata?.name}=${o.spec?.replicas}`);

describe('renderChartDir', () => {
  it('renders a chart directory as it is on disk', async () => {
    const chart = join(writeFiles(tempDir(), { 'team-a/web.yaml': appService('web', 2) }), 'team-a');
    const r = await renderChartDir(chart);
    expect(r.errors).toEqual([]);
    expect(r.input?.name).toBe('team-a');
    expect(deployments(r.objects)).toEqual(['web=2']);
  });

  it('renders the given files in place of the files of the same path, and beside the others', async () => {
    const chart = join(writeFiles(tempDir(), { 'team-a/web.yaml': appService('web', 2) }), 'team-a');
    const files = new Map([
      [join(chart, 'web.yaml'), appService('web', 3)],
      [join(chart, 'api.yaml'), appService('api', 1)],
    ]);
    expect(deployments((await renderChartDir(chart, files)).objects)).toEqual(['api=1', 'web=3']);
  });

  it('renders a chart directory that does not exist yet as one holding only the given files', async () => {
    const chart = join(tempDir(), 'team-b');
    const r = await renderChartDir(chart, new Map([[join(chart, 'web.yaml'), appService('web', 1)]]));
    expect(r.input).toBeUndefined();
    expect(deployments(r.objects)).toEqual(['web=1']);
  });

  it('renders nothing for a chart directory that does not exist and no files', async () => {
    expect(await renderChartDir(join(tempDir(), 'team-c'))).toEqual({
      input: undefined,
      objects: [],
      errors: [],
    });
  });

  it('returns the errors of the files as data, naming the file', async () => {
    const chart = join(tempDir(), 'team-d');
    const file = join(chart, 'web.yaml');
    const r = await renderChartDir(
      chart,
      new Map([[file, appService('web', 1).replace('image: nginx, ', '')]]),
    );
    expect(r.objects).toEqual([]);
    expect(r.errors).toEqual([expect.objectContaining({ file, path: expect.stringContaining('image') })]);
  });
});
