import { describe, expect, it } from 'vitest';
import { withSyncOption } from '../../src/constructs/sync-options.js';

const KEY = 'argocd.argoproj.io/sync-options';

type Meta = { name: string; annotations?: Record<string, string> };
const meta = (annotations?: Record<string, string>): Meta => ({
  name: 'web',
  ...(annotations === undefined ? {} : { annotations }),
});

describe('an Argo CD sync option added to metadata', () => {
  it('is the annotation where there was none, the other annotations kept, the input unchanged', () => {
    const team = meta({ team: 'shop' });
    expect(withSyncOption(team, 'PruneLast=true')).toEqual({
      name: 'web',
      annotations: { team: 'shop', [KEY]: 'PruneLast=true' },
    });
    expect(team).toEqual({ name: 'web', annotations: { team: 'shop' } });
    expect(withSyncOption(meta(), 'PruneLast=true')).toEqual({
      name: 'web',
      annotations: { [KEY]: 'PruneLast=true' },
    });
  });

  it('goes after the options already there, and is not written twice', () => {
    const once = withSyncOption(meta({ [KEY]: 'Prune=false' }), 'PruneLast=true');
    expect(once.annotations?.[KEY]).toBe('Prune=false,PruneLast=true');
    expect(withSyncOption(once, 'PruneLast=true')).toBe(once);
    expect(withSyncOption(meta({ [KEY]: '' }), 'PruneLast=true').annotations?.[KEY]).toBe('PruneLast=true');
  });
});
