/** Structured JSON logs, one object per line: `{"time","level","msg",...fields}`. */

export type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A logger writing JSON lines through `write` (stdout by default), dropping levels below `min`. */
export function jsonLogger(
  min: Level = 'info',
  write: (line: string) => void = (line) => process.stdout.write(line),
  base: Record<string, unknown> = {},
): Logger {
  const emit =
    (level: Level) =>
    (msg: string, fields: Record<string, unknown> = {}): void => {
      if (ORDER[level] < ORDER[min]) return;
      write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...base, ...fields })}\n`);
    };
  return {
    debug: emit('debug'),
    info: emit('info'),
    warn: emit('warn'),
    error: emit('error'),
    child: (fields) => jsonLogger(min, write, { ...base, ...fields }),
  };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
