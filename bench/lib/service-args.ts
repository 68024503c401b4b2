import { NODE_V8_FLAGS } from '../../apps/node/src/v8-flags';

/**
 * Node's arguments for a service process the benchmarks start, as it ships: a node (or the
 * standalone, which hosts one) with its V8 flags. BENCH_NODE_ARGS (e.g. '--cpu-prof
 * --cpu-prof-dir=/tmp/prof') go to every service process.
 */
export const serviceArgs = (hostsNode: boolean): string[] => [
  '--enable-source-maps',
  ...(hostsNode ? NODE_V8_FLAGS : []),
  ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
];
