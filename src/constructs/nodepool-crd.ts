/**
 * The NodePool CustomResourceDefinition (`nodepools.nodes.specforge.dev`, v1, cluster-scoped, status
 * subresource) and its structural schema: design §1's validation, plus `spec.adopt` and `spec.membership`.
 *
 * Its key patterns and CEL rules are built from the rule set the spec files and constructs obey
 * (`src/rules/k8s-names.ts`: names, label keys and values; `src/rules/node-keys.ts`: reserved keys, lengths, taint
 * effects), so the CRD cannot drift from them (test/constructs/nodepool-crd.test.ts holds them against each
 * other). Pure: no I/O.
 */
import { type ApiObject } from 'cdk8s';
import { k8s } from 'cdk8s-plus-27';
import type { Construct } from 'constructs';
import { NAME_PATTERNS } from '../rules/k8s-names.js';
import {
  KEY_LENGTHS_PATTERN,
  RESERVED_KEY_PATTERN,
  RESERVED_NAMESPACES,
  TAINT_EFFECTS,
  TAINT_ID_LENGTHS_PATTERN,
} from '../rules/node-keys.js';
import { NODEPOOL_CRD_NAME, NODEPOOL_GROUP, NODEPOOL_PLURAL, NODEPOOL_VERSION } from '../rules/vocabulary.js';

export { NODEPOOL_CRD_NAME };

/** An anchored pattern text (`^…$`) without its anchors, to build a longer one. */
const unanchored = (pattern: string): string => pattern.slice(1, -1);

/**
 * A label or taint key, `[prefix/]name` (a DNS-subdomain prefix, a qualified name), as an OpenAPI pattern:
 * `checkLabelKey`'s rule without its lengths. cdk8s emits `items` raw, so CEL written there would be lost.
 */
export const KEY_PATTERN = `^(${unanchored(NAME_PATTERNS.dns1123Subdomain)}/)?${unanchored(NAME_PATTERNS.qualifiedName)}$`;
/** A label (or taint) value: `checkLabelValue`'s rule without its length. */
export const LABEL_VALUE_PATTERN = NAME_PATTERNS.labelValue;
/** A taint's identity, `key:effect`, as the controller's ownership record writes it. */
export const TAINT_ID_PATTERN = `${KEY_PATTERN.slice(0, -1)}:(${TAINT_EFFECTS.join('|')})$`;
/** The longest prefix and name of a qualified name Kubernetes accepts. */
const MAX_PREFIX = 253;
const MAX_NAME = 63;
/** Longest qualified name (253-character prefix, `/`, 63-character name). */
const MAX_KEY = MAX_PREFIX + 1 + MAX_NAME;

/** A CEL string literal holding `text` (a regular expression). */
function celString(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

/** What the CRD says when a key is reserved (the rule of `src/rules/node-keys.ts`). */
const RESERVED_MESSAGE = `are reserved for Kubernetes: ${RESERVED_NAMESPACES}`;
/** What the CRD says when a key's parts are too long for a Node. */
const LENGTHS_MESSAGE = `must have a prefix of at most ${MAX_PREFIX} characters and a name of at most ${MAX_NAME} (what a Node accepts)`;

/**
 * CEL over a list or map of keys (`element`: the key, as CEL over the element `k`): no key in the reserved
 * namespaces, and each key's parts within the lengths a Node accepts. `lengths` is the length pattern for a label
 * key or for a taint id.
 */
function keyRules(what: string, element: string, lengths: string): k8s.ValidationRule[] {
  return [
    {
      rule: `self.all(k, !${element}.matches(${celString(RESERVED_KEY_PATTERN)}))`,
      message: `${what} ${RESERVED_MESSAGE}`,
    },
    { rule: `self.all(k, ${element}.matches(${celString(lengths)}))`, message: `${what} ${LENGTHS_MESSAGE}` },
  ];
}

function conditionSchema(): k8s.JsonSchemaProps {
  return {
    type: 'object',
    required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'],
    properties: {
      type: { type: 'string', maxLength: 316 },
      status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
      observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
      lastTransitionTime: { type: 'string', format: 'date-time' },
      reason: { type: 'string', maxLength: 1024 },
      message: { type: 'string', maxLength: 32768 },
    },
  };
}

/**
 * `spec.adopt`: label keys and taint ids (`key:effect`) the pool takes over on its member Nodes when they are there
 * and no pool owns them (what an older operator wrote). Patterns sit under `items` (cdk8s passes them through as
 * is); the reserved-prefix rule is CEL on the list.
 */
function adoptSchema(): k8s.JsonSchemaProps {
  return {
    type: 'object',
    description:
      'Keys an earlier operator wrote on member Nodes that this pool takes over: recorded as owned whatever their ' +
      'value, then set to the wanted value or removed.',
    properties: {
      labels: {
        type: 'array',
        description: 'Label keys to adopt.',
        maxItems: 64,
        xKubernetesListType: 'set',
        xKubernetesValidations: keyRules('adopt label keys', 'k', KEY_LENGTHS_PATTERN),
        items: { type: 'string', minLength: 1, maxLength: MAX_KEY, pattern: KEY_PATTERN },
      },
      taints: {
        type: 'array',
        description: 'Taints to adopt, as key:effect.',
        maxItems: 64,
        xKubernetesListType: 'set',
        xKubernetesValidations: keyRules('adopt taint keys', 'k', TAINT_ID_LENGTHS_PATTERN),
        items: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_KEY + 1 + 'PreferNoSchedule'.length,
          pattern: TAINT_ID_PATTERN,
        },
      },
    },
  };
}

/**
 * The NodePool v1 schema: design §1 (labels map, taints with an effect enum, handler defaulting to runc), plus
 * `spec.adopt` and `spec.membership` for pools taking over from the seed operator (docs/controller.md, "Adoption").
 */
export function nodePoolSchema(): k8s.JsonSchemaProps {
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        properties: {
          labels: {
            type: 'object',
            description: 'Labels put on every member Node.',
            maxProperties: 64,
            additionalProperties: { type: 'string', maxLength: 63, pattern: LABEL_VALUE_PATTERN },
            xKubernetesValidations: [
              {
                rule: `self.all(k, size(k) <= ${MAX_KEY} && k.matches(${celString(KEY_PATTERN)}))`,
                message: 'label keys must be qualified names ([prefix/]name)',
              },
              ...keyRules('label keys', 'k', KEY_LENGTHS_PATTERN),
            ],
          },
          taints: {
            type: 'array',
            description: 'Taints put on every member Node.',
            maxItems: 64,
            // At the list, not under items: cdk8s passes schemas under items through unconverted.
            xKubernetesValidations: keyRules('taint keys', 'k.key', KEY_LENGTHS_PATTERN),
            items: {
              type: 'object',
              required: ['key', 'effect'],
              properties: {
                key: { type: 'string', minLength: 1, maxLength: MAX_KEY, pattern: KEY_PATTERN },
                value: { type: 'string', maxLength: 63, pattern: LABEL_VALUE_PATTERN },
                effect: { type: 'string', enum: [...TAINT_EFFECTS] },
              },
            },
          },
          adopt: adoptSchema(),
          membership: {
            type: 'object',
            description:
              'Opt-in membership rule: a Node is a member only when its node-role.kubernetes.io/<pool> label has ' +
              'exactly this value ("" is the seed operator\'s rule). Absent: the label present, any value.',
            required: ['value'],
            properties: { value: { type: 'string', maxLength: 63, pattern: LABEL_VALUE_PATTERN } },
          },
          handler: {
            type: 'string',
            description: 'RuntimeClass handler.',
            default: 'runc',
            minLength: 1,
            maxLength: 63,
            pattern: NAME_PATTERNS.dns1123Label,
          },
        },
      },
      status: {
        type: 'object',
        properties: {
          observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
          members: { type: 'integer', format: 'int32', minimum: 0 },
          adoptedKeys: {
            type: 'integer',
            format: 'int32',
            minimum: 0,
            description: 'Keys listed in spec.adopt that member Nodes record as owned by this pool.',
          },
          ownedKeys: {
            type: 'object',
            description:
              'Label keys and taints (key:effect) this pool asks or asked for and that Nodes may still carry for it. ' +
              "Written by the controller: a key a Node's ownership annotation records is changed or removed only if " +
              'its pool lists it here or in its spec.',
            properties: {
              labels: { type: 'array', items: { type: 'string' } },
              taints: { type: 'array', items: { type: 'string' } },
            },
          },
          conditions: {
            type: 'array',
            items: conditionSchema(),
            xKubernetesListType: 'map',
            xKubernetesListMapKeys: ['type'],
          },
        },
      },
    },
  };
}

/** The NodePool CRD, labelled `labels`, as a child `id` of `scope`. */
export function nodePoolCrd(scope: Construct, id: string, labels: Record<string, string>): ApiObject {
  return new k8s.KubeCustomResourceDefinition(scope, id, {
    metadata: { name: NODEPOOL_CRD_NAME, labels },
    spec: {
      group: NODEPOOL_GROUP,
      scope: 'Cluster',
      names: { kind: 'NodePool', listKind: 'NodePoolList', plural: NODEPOOL_PLURAL, singular: 'nodepool' },
      versions: [
        {
          name: NODEPOOL_VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Members', type: 'integer', jsonPath: '.status.members' },
            { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: { openApiv3Schema: nodePoolSchema() },
        },
      ],
    },
  });
}
