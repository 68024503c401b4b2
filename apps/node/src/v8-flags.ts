/**
 * V8 flags a node process starts with (k8s/base/node.yaml, the Dockerfile's standalone, `npm start`,
 * `npm run start:node`, the benchmarks). A node delivering webhooks keeps hundreds of requests in
 * flight, and with V8's default 16 MB semi-spaces every scavenge copied them again: 115 scavenges,
 * about 1 s of the node's CPU in a `webhooks.throughput` run. With 64 MB: 42 scavenges, 0.4 s, and
 * 20-28% more deliveries per second. The cost is at most 96 MB more young generation, taken only when
 * a node allocates that fast (V8 grows it as it fills). Creations (the api) did not move with it.
 */
export const NODE_V8_FLAGS = ['--max-semi-space-size=64'];
