/**
 * The last step of `npm run bench`: removes the directories the benches set aside (bench/harness.ts, `setAside`),
 * once nothing is timed any more.
 */
import { removeSetAside } from './harness.js';

removeSetAside();
