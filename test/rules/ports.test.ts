import { describe, expect, it } from 'vitest';
import {
  containerPortsOfSpec,
  derivedContainerPorts,
  pinPortNames,
  PODROUTE_PORT,
} from '../../src/rules/ports.js';

describe('container ports a spec makes', () => {
  it('derives one container port per number and protocol, from targetPort else port, named after the service port', () => {
    expect(
      derivedContainerPorts([
        { name: 'http', port: 80, targetPort: 8080 },
        { name: 'alt', port: 81, targetPort: 8080 },
        { name: 'dns', port: 53, protocol: 'UDP' },
        { port: 9000, targetPort: 'metrics' },
      ]),
    ).toEqual([
      { name: 'http', containerPort: 8080 },
      { name: 'dns', containerPort: 53, protocol: 'UDP' },
    ]);
  });

  it('leaves a container port unnamed when the service port name is no valid port name', () => {
    expect(derivedContainerPorts([{ name: 'a-very-long-port-name', port: 80 }])).toEqual([
      { containerPort: 80 },
    ]);
  });

  it('gives a Myapp its containerPort, a Podroute the seed image port, a NodePool none', () => {
    expect(containerPortsOfSpec('Myapp', { containerPort: 3000 })).toEqual([{ containerPort: 3000 }]);
    expect(containerPortsOfSpec('Podroute', {})).toEqual([{ containerPort: PODROUTE_PORT }]);
    expect(containerPortsOfSpec('NodePool', {})).toEqual([]);
  });

  it('names pinned ports first and leaves the others as they are', () => {
    const pinned = pinPortNames(
      [
        { containerPort: 8080, protocol: 'TCP' },
        { name: 'x', containerPort: 9090 },
      ],
      {
        '8080': 'podroute',
      },
    );
    expect(pinned).toEqual([
      { name: 'podroute', containerPort: 8080, protocol: 'TCP' },
      { name: 'x', containerPort: 9090 },
    ]);
    expect(Object.keys(pinned[0] ?? {})[0]).toBe('name');
  });
});
