import { describe, expect, it } from 'vitest';
import { checkServicePortsApi } from '../../src/rules/core-service.js';

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
