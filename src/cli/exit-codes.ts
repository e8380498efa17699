/** Exit codes of design §3: what `specforge` returns. */
export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;
