import { afterEach, describe, expect, it, vi } from 'vitest';
import { runController } from '../../src/controller/main.js';

describe('runController', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('returns 2 and prints the usage for an unknown flag', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runController(['--nope'])).toBe(2);
    expect(String(err.mock.calls[0]?.[0])).toContain('Usage: specforge controller');
  });

  it('returns 2 for a malformed number or boolean', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await runController(['--port', 'eighty'])).toBe(2);
    expect(await runController(['--leader-elect', 'maybe'])).toBe(2);
  });

  it('prints the usage and returns 0 for --help', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await runController(['--help'])).toBe(0);
    expect(String(out.mock.calls[0]?.[0])).toContain('--kubeconfig');
  });

  it('returns 1 with a JSON log line when no cluster can be reached from the kubeconfig', async () => {
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    expect(await runController(['--kubeconfig', '/nonexistent/kubeconfig'])).toBe(1);
    const line = JSON.parse(String(out.mock.calls.at(-1)?.[0])) as { level: string; msg: string };
    expect(line).toMatchObject({ level: 'error', msg: 'controller failed to start' });
  });
});
