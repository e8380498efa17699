/**
 * Where a command writes, one line at a time: standard output for results, standard error for problems and notes.
 * Injected into every command (render, diff, import, adopt, ...) so tests capture what a user would read.
 */
export interface Io {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** The process's own standard output and error, a newline after each line. */
export const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};
