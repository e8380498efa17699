import { App, ApiObject, Chart } from 'cdk8s';
import { describe, expect, it } from 'vitest';
import { applyModule } from '../../../src/render/chart/apply-module.js';
import { ChartModuleError } from '../../../src/render/module/module-error.js';

/** The chart module's half of building a construct tree: awaited, guarded, its failures named after its file. */

const chart = (): Chart => new Chart(new App({ outdir: '.' }), 'm');

describe('applyModule', () => {
  it('awaits an async default export, so objects it adds after an await are in the tree', async () => {
    const c = chart();
    await applyModule(
      c,
      async (into) => {
        await new Promise((done) => setTimeout(done, 5));
        new ApiObject(into, 'x', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late' } });
      },
      'm/chart.mjs',
    );
    expect(c.toJson().map((o: { metadata: { name: string } }) => o.metadata.name)).toEqual(['late']);
  });

  it('turns a throw or a rejection into an error naming the module file, keeping what was thrown', async () => {
    for (const module of [
      () => {
        throw new Error('no config');
      },
      async () => Promise.reject(new Error('no config')),
    ]) {
      const e = await applyModule(chart(), module, 'm/chart.mjs').catch((thrown: unknown) => thrown);
      expect(e).toBeInstanceOf(ChartModuleError);
      expect(e).toMatchObject({ moduleFile: 'm/chart.mjs', message: 'no config' });
    }
  });

  it('turns process.exit in the module into an error instead of ending the process', async () => {
    const e = await applyModule(chart(), () => process.exit(3), 'm/chart.mjs').catch((t: unknown) => t);
    expect((e as ChartModuleError).message).toBe(
      'it called process.exit(3); a chart module must not end the render',
    );
  });
});
