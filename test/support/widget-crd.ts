/**
 * A test CRD that holds every structural-schema feature and CEL library the custom-resource gate covers
 * (src/rules/crd/): defaults, nullable, int-or-string, formats, enum, bounds, patterns, list sets and maps,
 * preserve-unknown-fields, an embedded resource, and `x-kubernetes-validations` with message, messageExpression,
 * fieldPath and reason. Installed in the test API server by the differential test and read by the unit tests.
 */
export const WIDGET_GROUP = 'gate.specforge.test';

const spec = {
  type: 'object',
  required: ['size'],
  'x-kubernetes-validations': [
    {
      rule: 'self.minReplicas <= self.maxReplicas',
      message: 'minReplicas must not exceed maxReplicas',
      fieldPath: '.minReplicas',
    },
    {
      rule: "!has(self.mode) || self.mode != 'Paused' || !has(self.schedule)",
      messageExpression: "'schedule is forbidden in mode ' + self.mode",
      reason: 'FieldValueForbidden',
    },
    {
      rule: "!has(self.memory) || (isQuantity(self.memory) && quantity(self.memory).compareTo(quantity('1Gi')) <= 0)",
      message: 'memory must be a quantity of at most 1Gi',
    },
    {
      rule: "!has(self.endpoint) || (isURL(self.endpoint) && url(self.endpoint).getScheme() == 'https')",
      message: 'endpoint must be an https URL',
    },
    {
      rule: '!has(self.address) || (isIP(self.address) && ip(self.address).family() == 4)',
      message: 'address must be an IPv4 address',
    },
    {
      rule: '!has(self.ports) || self.ports.map(p, p.port).isSorted()',
      message: 'ports must be sorted by port',
    },
    { rule: "!has(self.nick) || self.nick.matches('^[a-z]+$')", message: 'nick must be lowercase letters' },
    { rule: '!has(self.labels) || self.labels.all(k, k.size() <= 8)', message: 'label keys must be short' },
    { rule: '!has(self.id) || self.id.lowerAscii() == self.id', message: 'id must be lowercase' },
    {
      rule: '!has(self.tags) || self.tags.size() < 2 || self.tags.exists(t, t.startsWith("x"))',
      message: 'two tags or more need one starting with x',
    },
    {
      rule: "!has(self.version) || (isSemver(self.version) && semver(self.version).isGreaterThan(semver('1.0.0')))",
      message: 'version must be a semantic version after 1.0.0',
    },
  ],
  properties: {
    size: { type: 'integer', minimum: 1, maximum: 100 },
    minReplicas: { type: 'integer', default: 1 },
    maxReplicas: { type: 'integer', default: 10 },
    mode: { type: 'string', enum: ['Active', 'Paused'] },
    schedule: { type: 'string', pattern: '^\\S+ \\S+ \\S+ \\S+ \\S+$' },
    port: { 'x-kubernetes-int-or-string': true },
    ratio: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1 },
    note: { type: 'string', nullable: true, maxLength: 5 },
    memory: { type: 'string' },
    endpoint: { type: 'string' },
    address: { type: 'string' },
    nick: { type: 'string' },
    created: { type: 'string', format: 'date-time' },
    uid: { type: 'string', format: 'uuid' },
    tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set', maxItems: 3 },
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: {
        type: 'object',
        required: ['name', 'port'],
        properties: {
          name: { type: 'string' },
          port: { type: 'integer', minimum: 1, maximum: 65535 },
          protocol: { type: 'string', default: 'TCP', enum: ['TCP', 'UDP'] },
        },
      },
    },
    template: {
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    },
    extra: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: { known: { type: 'boolean' } },
    },
    labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 3 },
    id: { type: 'string', minLength: 2 },
    version: { type: 'string' },
  },
};

export const WIDGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${WIDGET_GROUP}` },
  spec: {
    group: WIDGET_GROUP,
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            required: ['spec'],
            properties: {
              apiVersion: { type: 'string' },
              kind: { type: 'string' },
              metadata: { type: 'object' },
              spec,
            },
          },
        },
      },
    ],
  },
};
