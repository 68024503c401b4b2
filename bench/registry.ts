import { failoverBench } from './actors/failover.bench';
import { groupCommitBench } from './actors/group-commit.bench';
import { persistedBench } from './actors/persisted.bench';
import { residentMemoryBench } from './actors/resident-memory.bench';
import { throughputBench } from './actors/throughput.bench';
import { challengeDnsAnswerLatencyBench } from './challenge-dns/answer-latency.bench';
import { certificatesIssuanceScaleBench } from './certificates/issuance-scale.bench';
import { certificatesRenewalsBench } from './certificates/renewals.bench';
import { certificatesTimeToHttpsBench } from './certificates/time-to-https.bench';
import { clusterIdleBench } from './cluster/idle.bench';
import { clusterScaleBench } from './cluster/scale.bench';
import { edgeCertificatesBench } from './edge/certificates.bench';
import { edgeHandshakesBench } from './edge/handshakes.bench';
import { edgeProxyBench } from './edge/proxy.bench';
import { domainsCreateBench } from './domains/create.bench';
import { domainsGetBench } from './domains/get.bench';
import { domainsMonitorBench } from './domains/monitor.bench';
import { Benchmark } from './lib/types';
import { limitsRateLimitBench } from './limits/rate-limit.bench';
import { webhookLatencyBench } from './webhooks/latency.bench';
import { webhookThroughputBench } from './webhooks/throughput.bench';

/** Every benchmark, in the order `npm run bench` runs them. Add other areas' benchmarks here. */
export const BENCHMARKS: Benchmark[] = [
  throughputBench,
  persistedBench,
  groupCommitBench,
  residentMemoryBench,
  failoverBench,
  edgeProxyBench,
  edgeHandshakesBench,
  edgeCertificatesBench,
  webhookLatencyBench,
  webhookThroughputBench,
  domainsGetBench,
  domainsCreateBench,
  domainsMonitorBench,
  limitsRateLimitBench,
  clusterScaleBench,
  clusterIdleBench,
  certificatesRenewalsBench,
  certificatesTimeToHttpsBench,
  certificatesIssuanceScaleBench,
  challengeDnsAnswerLatencyBench,
];

/** `actors.failover`, `failover` or a whole area (`actors`) select benchmarks; nothing selects all. */
export function select(names: string[]): Benchmark[] {
  if (!names.length) return BENCHMARKS;
  const unknown = names.filter((n) => !BENCHMARKS.some((b) => matches(b, n)));
  if (unknown.length) {
    throw new Error(`Unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
  }
  return BENCHMARKS.filter((b) => names.some((n) => matches(b, n)));
}

function matches(bench: Benchmark, name: string): boolean {
  return bench.name === name || bench.name.split('.')[0] === name || bench.name.split('.').slice(1).join('.') === name;
}
