/**
 * V8 flags a node process starts with (k8s/base/node.yaml, the Dockerfile's standalone, `npm start`,
 * `npm run start:node`, the benchmarks). A node delivering webhooks keeps hundreds of requests in
 * flight, and with V8's default 16 MB semi-spaces every scavenge copied them again: 139-141
 * scavenges, 1.2-1.4 s of the node's CPU in a `webhooks.throughput` run. With 64 MB: 48 scavenges,
 * 0.56-0.63 s, and 12-19% more deliveries per second (A/B in bench/results/webhooks.throughput.notes.md).
 * The cost is at most 96 MB more young generation, taken only when a node allocates that fast (V8
 * grows it as it fills). The api's flags: apps/api/src/v8-flags.ts.
 */
export const NODE_V8_FLAGS = ['--max-semi-space-size=64'];
