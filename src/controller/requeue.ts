/**
 * What a reconciler answers: when to look at its key again. The controller hands it to the work queue, which keeps
 * the earliest deadline per key; failures are not answers (they throw, and the queue backs the key off).
 */

/** Milliseconds after which the key is reconciled again; `undefined`: not until something changes. */
export type Requeue = number | undefined;

/** Reconciles the object named `name`; resolves to when to reconcile it again. */
export type Reconcile = (name: string) => Promise<Requeue>;
