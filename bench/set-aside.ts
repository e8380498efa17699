/**
 * The first and last step of `npm run bench`: removes the directories the benches set aside (bench/harness.ts,
 * `setAside`), before anything is timed (what a stopped run left) and once nothing is timed any more.
 */
import { removeSetAside } from './harness.js';

removeSetAside();
