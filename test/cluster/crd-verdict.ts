/** The API server's verdict on custom resources, as the custom-resource gate's differential tests ask for it. */
import type { KubeClient } from '../../src/kube/client.js';

/**
 * The API server's refusal of `o` on a dry-run create in `namespace` with strict field validation (as kubectl,
 * Flux and Argo CD send objects); undefined when accepted. A server error or an unserved kind throws.
 */
export async function serverVerdict(
  client: KubeClient,
  o: Record<string, unknown>,
  plural: string,
  namespace: string,
): Promise<string | undefined> {
  try {
    await client.request(
      'POST',
      `/apis/${String(o.apiVersion)}/namespaces/${namespace}/${plural}?dryRun=All&fieldValidation=Strict`,
      o,
    );
    return undefined;
  } catch (e) {
    const status = (e as { status?: number }).status;
    if (status === undefined || status >= 500 || status === 404) throw e;
    return (e as Error).message;
  }
}

/** Runs `work` on every item, `n` at a time. */
export async function pool<T>(
  items: readonly T[],
  n: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
