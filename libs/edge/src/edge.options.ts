import type { AppConfig } from '@app/config';

/** Injection token of the edge's `EdgeOptions`. */
export const EDGE_OPTIONS = Symbol('EDGE_OPTIONS');

export interface EdgeOptions {
  httpPort: number;
  httpsPort: number;
  /** Address the traffic ports bind to. */
  listenHost: string;
  /** OUTBOUND_ALLOW_CIDRS: ranges exempt from the SSRF rules. */
  allowCidrs: readonly string[];
  /** Peers whose X-Forwarded-Proto is believed on the HTTP port (Caddy in front of the edge): TRUSTED_PROXIES. */
  trustedProxyCidrs: readonly string[];
  connectTimeoutMs: number;
  /** Longest silence from the origin while waiting for or streaming its response. */
  idleTimeoutMs: number;
  maxBodyBytes: number;
  /** Opened TLS contexts kept (the sealed certificates are all in memory; see BENCHMARKS.md edge.certificates). */
  maxCachedCertificates: number;
}

export const EDGE_DEFAULTS: Omit<EdgeOptions, 'httpPort' | 'httpsPort' | 'allowCidrs' | 'trustedProxyCidrs'> = {
  listenHost: '0.0.0.0',
  connectTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
  maxBodyBytes: 100 * 1024 * 1024,
  maxCachedCertificates: 10_000,
};

export function edgeOptions(config: AppConfig, overrides: Partial<EdgeOptions> = {}): EdgeOptions {
  return {
    ...EDGE_DEFAULTS,
    httpPort: config.edgeHttpPort,
    httpsPort: config.edgeHttpsPort,
    allowCidrs: config.outboundAllowCidrs,
    // Exactly the configured proxies: loopback is not trusted by default (any local process could claim HTTPS).
    trustedProxyCidrs: config.trustedProxies,
    ...overrides,
  };
}
