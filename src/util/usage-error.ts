/** A mistake in how specforge was called (not in the specs): exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** Whether the command's usage text helps (a wrong argument), or only the message does (an unwritable place). */
    public readonly showUsage = true,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
