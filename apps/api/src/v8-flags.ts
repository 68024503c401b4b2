/**
 * V8 flags an api process starts with (k8s/base/api.yaml, `npm run start:api`, the README's cluster
 * recipe, the benchmarks). An api's requests in flight (32 GETs at once in `domains.get`) are alive
 * at every scavenge, and with V8's default 16 MB semi-spaces it copied them ~750 answers apart:
 * 215-249 scavenges of 7-9 ms, 1.8 s of GC per ~170,000 GETs (~11 us each). With 64 MB: 67-76
 * scavenges, 0.39-0.47 s, and 0.063-0.073 against 0.078-0.092 ms of api CPU per GET (alternating
 * runs, bench/results/domains.get.notes.md). The cost is at most 96 MB more young generation,
 * taken only when the api allocates that fast. The node's flags: apps/node/src/v8-flags.ts.
 */
export const API_V8_FLAGS = ['--max-semi-space-size=64'];
