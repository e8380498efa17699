/**
 * Records `events.k8s.io/v1` Events about NodePools and Nodes, as the controller's reporting instance. Recording is
 * best effort: a failed write is logged and never fails the reconcile that made it.
 */
import type { Api } from '../kube/client.js';
import { NODEPOOL_GROUP, NODEPOOL_VERSION } from '../rules/vocabulary.js';
import { microTime } from './time.js';
import type { Logger } from './log.js';
import type { Metrics } from './metrics.js';
import type { PoolView } from './model.js';
import { CONTROLLER_NAME } from '../rules/vocabulary.js';

/** What an Event is about. */
export interface EventSubject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid?: string;
}

export interface EventRecorderOptions {
  readonly client: Api;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Reported as the Events' `reportingInstance`. */
  readonly identity: string;
  /** Namespace the Events go to (NodePools and Nodes are cluster-scoped). @default default */
  readonly namespace?: string;
  /** The time, in ms since the epoch. @default Date.now */
  readonly clock?: () => number;
}

export class EventRecorder {
  private seq = 0;

  constructor(private readonly options: EventRecorderOptions) {}

  /** Records one Event about a pool or another object; `warning` makes it a Warning, else Normal. */
  async record(
    about: PoolView | EventSubject,
    reason: string,
    note: string,
    warning: boolean,
  ): Promise<void> {
    const regarding: EventSubject =
      'kind' in about
        ? about
        : {
            apiVersion: `${NODEPOOL_GROUP}/${NODEPOOL_VERSION}`,
            kind: 'NodePool',
            name: about.name,
            uid: about.uid,
          };
    const namespace = this.options.namespace ?? 'default';
    const now = (this.options.clock ?? Date.now)();
    const body = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: {
        name: `${regarding.name}.${(BigInt(now) * 1_000_000n + BigInt(++this.seq)).toString(16)}`,
        namespace,
      },
      eventTime: microTime(now),
      reportingController: CONTROLLER_NAME,
      reportingInstance: this.options.identity,
      action: 'Reconcile',
      reason,
      type: warning ? 'Warning' : 'Normal',
      note: note.slice(0, 1000),
      regarding,
    };
    try {
      await this.options.client.request(
        'POST',
        `/apis/events.k8s.io/v1/namespaces/${namespace}/events`,
        body,
      );
      this.options.metrics.writes.inc({ resource: 'events' });
    } catch (err) {
      this.options.logger.warn('could not record event', {
        about: regarding.name,
        reason,
        error: String(err),
      });
    }
  }
}
