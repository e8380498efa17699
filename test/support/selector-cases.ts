/**
 * Label selectors the API server accepts and refuses, shared by `test/controller/selector.test.ts` (the controller's
 * up-front check) and `test/cluster/nodepool-selector.test.ts` (the same lists sent to kube-apiserver).
 */
export const VALID_SELECTORS: readonly string[] = [
  'shard=a',
  'shard==a',
  'shard!=a',
  'shard',
  '!shard',
  'shard=',
  'shard in (a,b)',
  'shard notin (a, b)',
  'shard in (a,)',
  'shard in ()',
  ' shard = a , tier != x ',
  'example.com/shard=a,test.specforge.dev/scope=s-1',
  'weight>3',
  'weight<10',
  'in=x',
  '',
];

export const INVALID_SELECTORS: readonly string[] = [
  '=x',
  'a b',
  'a=b,',
  ',a=b',
  'a in (b',
  'a in b',
  'a notin',
  'k=not a value',
  '!a=b',
  'a=b=c',
  `k=${'v'.repeat(64)}`,
  `${'k'.repeat(64)}=v`,
  'Bad_Prefix/k=v',
  'a>b',
  'a<',
  'a=(b)',
  'a!b',
];
