// Preloaded (`node --import`) into a specforge process by the kill tests: SIGKILLs the process itself just before
// or just after its Nth fs.renameSync call (KILL_AT_RENAME=N, KILL_WHEN=before|after), the instants where a swap
// of dist/ is half done. Nothing else changes.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const target = Number(process.env.KILL_AT_RENAME);
const when = process.env.KILL_WHEN;
const renameSync = fs.renameSync;
let calls = 0;
fs.renameSync = function (...args) {
  calls++;
  if (calls === target && when === 'before') process.kill(process.pid, 'SIGKILL');
  const result = renameSync.apply(this, args);
  if (calls === target && when === 'after') process.kill(process.pid, 'SIGKILL');
  return result;
};
syncBuiltinESMExports();
