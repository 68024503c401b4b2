/** Injection token of the listener's `ChallengeDnsOptions`. */
export const CHALLENGE_DNS_OPTIONS = Symbol('CHALLENGE_DNS_OPTIONS');

export interface ChallengeDnsOptions {
  /** The address UDP and TCP bind to: the edge's listen host. */
  listenHost: string;
  /** A TCP connection silent this long is closed (RFC 7766 suggests seconds). */
  tcpIdleMs: number;
  /** TCP connections open at once, from everyone. */
  maxTcpConnections: number;
  /** TCP connections open at once from one address, so one client cannot hold them all. */
  maxTcpConnectionsPerSource: number;
  /** Source addresses the rate limiter remembers; beyond it the least recently seen is forgotten. */
  maxTrackedSources: number;
  /** Periodic reload of the copy, in case a bus message was lost. */
  reloadEveryMs: number;
  /** A TXT query for a name not in the copy reloads it, at most this often. */
  missReloadMs: number;
  /** Longest a query waits for that reload before it is answered from the copy as it is. */
  missWaitMs: number;
}

export const CHALLENGE_DNS_DEFAULTS: ChallengeDnsOptions = {
  listenHost: '0.0.0.0',
  tcpIdleMs: 10_000,
  maxTcpConnections: 1_000,
  maxTcpConnectionsPerSource: 16,
  maxTrackedSources: 100_000,
  reloadEveryMs: 10_000,
  missReloadMs: 250,
  missWaitMs: 1_000,
};
