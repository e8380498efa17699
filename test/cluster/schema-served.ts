/** `kubectl apply --server-side --dry-run=server` of one object, as the schema differential test asks it. */
import { kubectl } from './kubectl.js';

/** Its exit code and what kubectl printed. */
export function applies(o: object): { code: number; said: string } {
  try {
    const args = ['apply', '--server-side', '--dry-run=server', '--field-manager=specforge-test', '-f', '-'];
    return { code: 0, said: kubectl(args, [0], JSON.stringify(o)) };
  } catch (e) {
    return { code: 1, said: (e as Error).message };
  }
}
