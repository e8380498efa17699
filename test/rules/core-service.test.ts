import { describe, expect, it } from 'vitest';
import { checkServicePortIdentity, checkServicePortsApi } from '../../src/rules/core-service.js';

const nodePortProblems = (ports: Parameters<typeof checkServicePortsApi>[1]) =>
  checkServicePortsApi(['ports'], ports).map((p) => p.path.join('.'));

describe('Service ports (core-service)', () => {
  it('refuses a node port outside the default range 30000-32767', () => {
    expect(nodePortProblems([{ port: 80, nodePort: 29999 }])).toEqual(['ports.0.nodePort']);
    expect(nodePortProblems([{ port: 80, nodePort: 32768 }])).toEqual(['ports.0.nodePort']);
    expect(
      nodePortProblems([
        { port: 80, nodePort: 30000 },
        { port: 81, nodePort: 32767 },
      ]),
    ).toEqual([]);
  });

  it('shares a node port only between entries of the same port over different protocols', () => {
    expect(
      nodePortProblems([
        { port: 53, protocol: 'TCP', nodePort: 30053 },
        { port: 53, protocol: 'UDP', nodePort: 30053 },
      ]),
    ).toEqual([]);
    expect(
      nodePortProblems([
        { port: 53, nodePort: 30053 },
        { port: 54, protocol: 'UDP', nodePort: 30053 },
      ]),
    ).toEqual(['ports.1.nodePort']);
    expect(
      nodePortProblems([
        { port: 53, nodePort: 30053 },
        { port: 53, nodePort: 30053 },
      ]),
    ).toEqual(['ports.1.nodePort']);
  });

  it('takes an appProtocol that is a qualified name, and refuses one that is not', () => {
    expect(nodePortProblems([{ port: 80, appProtocol: 'kubernetes.io/ws' }])).toEqual([]);
    expect(nodePortProblems([{ port: 80, appProtocol: 'not a name' }])).toEqual(['ports.0.appProtocol']);
  });
});

const identityProblems = (ports: Parameters<typeof checkServicePortIdentity>[1]) =>
  ports.flatMap((_, i) =>
    checkServicePortIdentity(['ports'], ports, i).map((p) => `${p.path.join('.')}: ${p.expected}`),
  );

describe('Service port identity (core-service)', () => {
  it('takes a single unnamed port, and asks for a name on each of several ports', () => {
    expect(identityProblems([{ port: 80 }])).toEqual([]);
    expect(identityProblems([{ port: 80, name: 'http' }, { port: 81 }])).toEqual([
      'ports.1.name: a name (a Service with several ports needs a name on each)',
    ]);
  });

  it('refuses a port name that is not a DNS label', () => {
    const [problem] = checkServicePortIdentity(['ports'], [{ port: 80, name: 'Web_1' }], 0);
    expect(problem?.path).toEqual(['ports', 0, 'name']);
    expect(problem?.found).toBe('"Web_1"');
  });

  it('refuses a name or a port/protocol already used by an earlier port, TCP when unset', () => {
    expect(
      identityProblems([
        { port: 80, name: 'web' },
        { port: 81, name: 'web' },
      ]),
    ).toEqual(['ports.1.name: a name not used by another port']);
    expect(
      identityProblems([
        { port: 53, name: 'a' },
        { port: 53, name: 'b', protocol: 'TCP' },
        { port: 53, name: 'c', protocol: 'UDP' },
      ]),
    ).toEqual(['ports.1.port: a port/protocol not used by another port']);
  });
});
