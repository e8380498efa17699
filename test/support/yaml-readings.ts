/**
 * What kubectl (sigs.k8s.io/yaml over go-yaml v2, as `kubectl apply -f` reads a file) reads from a plain scalar
 * `v: <raw>`, for the scalars where YAML 1.1 and YAML 1.2 might part ways and their neighbours. Each row is checked
 * against kubectl itself by test/cluster/yaml-readings.test.ts (`kubectl create --dry-run=client -o json` into a
 * schemaless custom resource), and against specforge's emulation by test/specs/yaml-read.test.ts.
 */
export interface YamlReading {
  /** The plain scalar as written after `v: `. */
  readonly raw: string;
  /** The JSON value kubectl reads. */
  readonly kubectl: unknown;
}

const row = (raw: string, kubectl: unknown): YamlReading => ({ raw, kubectl });

export const YAML_READINGS: readonly YamlReading[] = [
  // YAML 1.1 booleans (go-yaml v2's resolve table): every spelling it knows, and near misses it does not.
  row('yes', true),
  row('Yes', true),
  row('YES', true),
  row('no', false),
  row('No', false),
  row('on', true),
  row('On', true),
  row('off', false),
  row('OFF', false),
  row('y', true),
  row('Y', true),
  row('n', false),
  row('N', false),
  row('true', true),
  row('False', false),
  row('yess', 'yess'),
  row('nope', 'nope'),
  // Integers: Go's ParseInt with base 0 after dropping underscores; a leading 0 is octal.
  row('012', 10),
  row('-012', -10),
  row('+012', 10),
  row('00', 0),
  row('07', 7),
  row('010', 8),
  row('08', 8),
  row('0o12', 10),
  row('-0o12', -10),
  row('0O12', 10),
  row('0o8', '0o8'),
  row('0x1F', 31),
  row('+0x1F', 31),
  row('0X1F', 31),
  row('0x_1F', 31),
  row('0x', '0x'),
  row('0b101', 5),
  row('-0b101', -5),
  row('0B1', 1),
  row('1_000', 1000),
  row('1__0', 10),
  row('+5', 5),
  row('-0', 0),
  // Floats.
  row('1e3', 1000),
  row('1.5e+3', 1500),
  row('3.0', 3),
  row('1_000.5', 1000.5),
  row('+.5', 0.5),
  row('08.5', 8.5),
  row('1.', 1),
  row('-0.0', -0),
  // Strings both read alike: timestamps stay text (go-yaml v2 keeps them strings for interface{}), no sexagesimal.
  row('2001-12-14', '2001-12-14'),
  row('2001-12-14T21:59:43.10-05:00', '2001-12-14T21:59:43.10-05:00'),
  row('1:20', '1:20'),
  // Nulls.
  row('null', null),
  row('~', null),
];
