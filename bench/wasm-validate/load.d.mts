/** One field error of the API server's answer, or a decoding error (type "Decode"). */
export interface WasmProblem {
  readonly type: string;
  readonly field?: string;
  readonly detail?: string;
}

/** The answer for one object: `checked` false for a kind the program has no `Validate*` for. */
export interface WasmResult {
  readonly kind: string;
  readonly checked: boolean;
  readonly problems: WasmProblem[];
  /** Time inside Go: decoding, defaulting and conversion; BeforeCreate. */
  readonly decodeNs?: number;
  readonly validateNs?: number;
}

/** What a load took, in ms: reading the file, compiling it, the Go runtime's start (its init()s). */
export interface LoadTimes {
  readonly read: number;
  readonly compile: number;
  readonly start: number;
}

/** Where the build puts validate.wasm and wasm_exec.js. */
export const OUT: string;

/** The validator of one JSON text, and what loading it took. */
export function loadValidator(
  dir?: string,
): Promise<{ validate: (json: string) => string; times: LoadTimes }>;

/** The API server's answer for one object. */
export function validateWith(validate: (json: string) => string, o: unknown): WasmResult;
