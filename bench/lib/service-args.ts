import { API_V8_FLAGS } from '../../apps/api/src/v8-flags';
import { NODE_V8_FLAGS } from '../../apps/node/src/v8-flags';

/** What a benchmark starts: an api, a node (or the standalone, which hosts one), or anything else. */
export type ServiceKind = 'api' | 'node' | 'other';

/**
 * Node's arguments for a service process the benchmarks start, as it ships: an api or a node (or the
 * standalone) with its V8 flags. BENCH_NODE_ARGS (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof') go to
 * every service process.
 */
export const serviceArgs = (kind: ServiceKind): string[] => [
  '--enable-source-maps',
  ...(kind === 'node' ? NODE_V8_FLAGS : kind === 'api' ? API_V8_FLAGS : []),
  ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
];
