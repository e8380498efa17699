import { describe, expect, it } from 'vitest';
import { compareFiles } from '../../../src/diff/comparison/compare.js';
import { effectsOf } from '../../../src/diff/effects/effects.js';
import { appObjects, file } from '../support.js';

const side = (files: Record<string, string>) => ({ files: new Map(Object.entries(files)), where: 'dist' });

describe('notes across objects', () => {
  it('call a spec whose objects were all removed while another of its kind appeared a rename', () => {
    const report = compareFiles(
      side({ 'shop/appservice.web.yaml': file(appObjects('web')) }),
      side({ 'shop/appservice.frontend.yaml': file(appObjects('frontend')) }),
      effectsOf,
    );
    expect(report.notes).toEqual([
      {
        type: 'rename',
        level: 'disrupts',
        text: 'renamed: AppService spec web → frontend (chart shop): its objects (Deployment, Service) are named after the spec, so they are removed and new ones added, not updated; pods get replaced; clients of Service web lose it',
      },
    ]);
  });

  it('pair several renames by likeness', () => {
    const report = compareFiles(
      side({
        's/a.yaml': file(appObjects('api', { image: 'api:1' })),
        's/b.yaml': file(appObjects('web', { image: 'web:1' })),
      }),
      side({
        's/c.yaml': file(appObjects('api2', { image: 'api:1' })),
        's/d.yaml': file(appObjects('web2', { image: 'web:1' })),
      }),
      effectsOf,
    );
    expect(report.notes.map((n) => n.text.split(' (')[0])).toEqual([
      'renamed: AppService spec api → api2',
      'renamed: AppService spec web → web2',
    ]);
  });

  it('do not call a removed spec a rename when nothing of its kind was added, or another chart got it', () => {
    expect(compareFiles(side({ 's/a.yaml': file(appObjects('api')) }), side({}), effectsOf).notes).toEqual(
      [],
    );
    expect(
      compareFiles(
        side({ 's/a.yaml': file(appObjects('api')) }),
        side({ 't/a.yaml': file(appObjects('api2')) }),
        effectsOf,
      ).notes,
    ).toEqual([]);
  });

  it('call an object that left one chart for another a move', () => {
    const report = compareFiles(
      side({ 'a/x.yaml': file(appObjects('web')) }),
      side({ 'b/x.yaml': file(appObjects('web')) }),
      effectsOf,
    );
    expect(report.notes.map((n) => n.type)).toEqual(['move', 'move']);
    expect(report.notes[0]?.text).toMatch(
      /^moved: Deployment web left chart a for chart b; .* a's prunes it and b's creates it again$/,
    );
  });
});
