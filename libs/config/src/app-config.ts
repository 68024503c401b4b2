import { AcmeIssuerConfig, acmeIssuers } from './acme-issuers-config';
import { hostname as osHostname } from 'node:os';
import { ChallengeZoneConfig, challengeZoneConfig } from './challenge-zone-config';
import { ConsoleOidcConfig, consoleOidcConfig } from './console-oidc-config';
import { DomainConnectConfig, domainConnectConfig } from './domain-connect-config';
import {
  ConfigError,
  Env,
  boolean,
  cidrList,
  hostname,
  integer,
  ipv4List,
  namedResolverList,
  oneOf,
  portList,
  raw,
  resolverList,
  secret,
  url,
  urlList,
} from './env-parsers';
import { NamecheapConfig, namecheapConfig, StripeConfig, stripeConfig } from './provider-accounts-config';

/** Which process reads the configuration; some variables are required by some roles only. */
export type ProcessRole = 'standalone' | 'api' | 'node' | 'edge' | 'tool';

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

/** Every setting of the service, typed and validated once at start. */
export interface AppConfig {
  role: ProcessRole;
  port: number;
  /** Unset: the embedded PostgreSQL (PGlite) in `dataDir`. */
  databaseUrl?: string;
  /** Unset: the in-process bus. */
  natsUrls?: string[];
  /** Namespace of subjects, buckets and streams when several deployments share one NATS. */
  natsSubjectPrefix?: string;
  /** Replicas of JetStream KV buckets and streams (3 on a NATS cluster). */
  natsReplicas: number;
  nodeId: string;
  dnsResolvers: string[];
  /** Per try of a DNS query (two tries); a busy machine or a slow resolver may need more than 2 s. */
  dnsTimeoutMs: number;
  /** Port of the authoritative nameservers the DNS diagnostics ask directly (53; tests: a loopback server). */
  dnsAuthoritativePort: number;
  edgeCnameTarget: string;
  edgeIpv4: string[];
  /** ACME certificate authorities, in order of preference (ACME_ISSUERS or ACME_DIRECTORY_URL). */
  acmeIssuers: AcmeIssuerConfig[];
  /** Certificate orders running at once per node. */
  acmeConcurrency: number;
  /** The zone customers delegate their DNS-01 challenge name to; unset: HTTP-01 only, no wildcard hostnames. */
  challengeZone?: ChallengeZoneConfig;

  registrar: 'sandbox' | 'namecheap';
  namecheap?: NamecheapConfig;
  payments: 'sandbox' | 'stripe';
  stripe?: StripeConfig;
  signingSecret?: string;
  /** Encrypts secrets at rest (certificate keys, webhook secrets); the same on every process. */
  encryptionKey?: string;
  adminToken?: string;
  dataDir: string;
  outboundAllowCidrs: string[];
  edgeHttpPort: number;
  edgeHttpsPort: number;
  /** Where the monitor connects to read the certificate a hostname serves (the edge's public HTTPS port). */
  probeTlsPort: number;
  logLevel: LogLevel;
  migrateOnStart: boolean;
  /** Idle actors are evicted from memory after this long. */
  actorIdleSeconds: number;
  /** Most actors a node keeps in memory. */
  actorMaxResident: number;
  /** SPEC section 8 rate limits; off only for internal deployments and tests of other features. */
  rateLimits: boolean;
  /** Proxies whose X-Forwarded-For is believed (CIDRs); the client IP of the keyless tools' limits. */
  trustedProxies: string[];
  /** Every domain is probed once per interval (SPEC: 5 minutes). */
  monitorIntervalSeconds: number;
  /** How often the monitor reads each hostname's served certificate over TLS (a handshake at the edge). */
  servedCheckIntervalSeconds: number;
  /** Probes in flight at once per node. */
  monitorConcurrency: number;
  /** The service's public address (OAuth issuer); unset: taken from each request's host. */
  publicBaseUrl?: string;
  /** Lifetime of OAuth access tokens. */
  oauthTokenTtlSeconds: number;
  /** A console session ends after this long without a request (idle expiry). */
  consoleIdleMinutes: number;
  /** A console session ends this long after sign-in, however active (absolute expiry). */
  consoleSessionHours: number;
  /** Console single sign-on (OpenID Connect, authorization code + PKCE); unset: passwords only. */
  consoleOidc?: ConsoleOidcConfig;
  /** Public resolvers the propagation tool asks, each with a display name. */
  propagationResolvers: NamedResolver[];
  /** How long the propagation tool waits for each resolver. */
  propagationTimeoutMs: number;
  /** Ports the TLS check tool may connect to (direct-TLS services only; public addresses only). */
  tlsCheckPorts: number[];
  /** Base URLs of the DNS providers dns/apply writes to (fakes in tests). */
  cloudflareApiUrl: string;
  digitaloceanApiUrl: string;
  domainConnect: DomainConnectConfig;
  /** Purchases: our fee over the registrar's wholesale price, a percentage with a floor. */
  purchaseFeePercent: number;
  purchaseFeeMinCents: number;
  /** Auto-renew renews a purchased domain this many days before it expires. */
  purchaseRenewDays: number;
  /**
   * A domain deleted while its DNS still points at the edge keeps its hostname from other
   * workspaces this many days (they connect it only with the TXT ownership proof); 0: no guard.
   */
  takeoverGuardDays: number;
  /** How often a node looks for stuck purchase sagas and due renewals of its shards. */
  purchaseSweepSeconds: number;
  /** Tests only: check every HTTP exchange against the OpenAPI document, violations as JSON lines to this file. */
  openapiViolationsFile?: string;
}

export interface NamedResolver {
  name: string;
  /** `ip`, `ip:port` or `[v6]:port`. */
  address: string;
}

/** Well-known public resolvers (PROPAGATION_RESOLVERS unset). */
const DEFAULT_PROPAGATION_RESOLVERS = 'Cloudflare=1.1.1.1,Google=8.8.8.8,Quad9=9.9.9.9,OpenDNS=208.67.222.222';
/** HTTPS, SMTPS, LDAPS, DNS over TLS, IMAPS, POP3S, HTTPS alternate. */
const DEFAULT_TLS_CHECK_PORTS = '443,465,636,853,993,995,8443';

export function loadConfig(env: Env, role: ProcessRole): AppConfig {
  const natsUrls = urlList(env, 'NATS_URL', ['nats:', 'tls:', 'ws:', 'wss:']);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  if (role !== 'standalone' && role !== 'tool') {
    if (!databaseUrl) throw new ConfigError('DATABASE_URL', `is required by the ${role} process`);
    if (!natsUrls) throw new ConfigError('NATS_URL', `is required by the ${role} process`);
  }
  const registrar = oneOf(env, 'REGISTRAR', ['sandbox', 'namecheap'] as const, 'sandbox');
  const payments = oneOf(env, 'PAYMENTS', ['sandbox', 'stripe'] as const, 'sandbox');
  const signingSecret = secret(env, 'SIGNING_SECRET', 32);
  if (role === 'api' && !signingSecret) {
    throw new ConfigError(
      'SIGNING_SECRET',
      'is required by the api process (at least 32 characters, the same on every replica)',
    );
  }
  if ((role === 'api' || role === 'node' || role === 'edge') && !raw(env, 'ENCRYPTION_KEY')) {
    throw new ConfigError(
      'ENCRYPTION_KEY',
      `is required by the ${role} process (at least 32 characters, the same everywhere)`,
    );
  }
  const edgeCnameTarget = hostname(env, 'EDGE_CNAME_TARGET', 'edge.custom-domains.example');
  return {
    role,
    port: integer(env, 'PORT', 3000, 0, 65535), // 0: any free port
    databaseUrl,
    natsUrls,
    natsSubjectPrefix: subjectToken(env, 'NATS_SUBJECT_PREFIX'),
    natsReplicas: integer(env, 'NATS_REPLICAS', 1, 1, 5),
    nodeId: nodeId(env),
    dnsResolvers: resolverList(env, 'DNS_RESOLVERS'),
    dnsTimeoutMs: integer(env, 'DNS_TIMEOUT_MS', 2_000, 100, 30_000),
    dnsAuthoritativePort: integer(env, 'DNS_AUTHORITATIVE_PORT', 53, 1, 65535),
    edgeCnameTarget,
    edgeIpv4: ipv4List(env, 'EDGE_IPV4', ['192.0.2.10']),
    acmeIssuers: acmeIssuers(env),
    acmeConcurrency: integer(env, 'ACME_CONCURRENCY', 16, 1, 1024),
    challengeZone: challengeZoneConfig(env, edgeCnameTarget),
    registrar,
    namecheap: registrar === 'namecheap' ? namecheapConfig(env) : undefined,
    payments,
    stripe: payments === 'stripe' ? stripeConfig(env) : undefined,
    signingSecret,
    encryptionKey: secret(env, 'ENCRYPTION_KEY', 32),
    adminToken: secret(env, 'ADMIN_TOKEN', 16),
    dataDir: raw(env, 'DATA_DIR') ?? './data',
    outboundAllowCidrs: cidrList(env, 'OUTBOUND_ALLOW_CIDRS'),
    edgeHttpPort: integer(env, 'EDGE_HTTP_PORT', 8080, 1, 65535),
    edgeHttpsPort: integer(env, 'EDGE_HTTPS_PORT', 8443, 1, 65535),
    probeTlsPort: integer(env, 'PROBE_TLS_PORT', integer(env, 'EDGE_HTTPS_PORT', 8443, 1, 65535), 1, 65535),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    migrateOnStart: boolean(env, 'MIGRATE_ON_START', true),
    actorIdleSeconds: integer(env, 'ACTOR_IDLE_SECONDS', 300, 1, 86_400),
    actorMaxResident: integer(env, 'ACTOR_MAX_RESIDENT', 200_000, 100, 10_000_000),
    rateLimits: boolean(env, 'RATE_LIMITS', true),
    trustedProxies: cidrList(env, 'TRUSTED_PROXIES'),
    monitorIntervalSeconds: integer(env, 'MONITOR_INTERVAL_SECONDS', 300, 2, 86_400),
    servedCheckIntervalSeconds: integer(env, 'SERVED_CHECK_INTERVAL_SECONDS', 86_400, 2, 604_800),
    monitorConcurrency: integer(env, 'MONITOR_CONCURRENCY', 1024, 1, 10_000),
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', ['https:', 'http:'])?.replace(/\/+$/, ''),
    oauthTokenTtlSeconds: integer(env, 'OAUTH_TOKEN_TTL_SECONDS', 3600, 60, 86_400),
    consoleIdleMinutes: integer(env, 'CONSOLE_IDLE_MINUTES', 60, 1, 1_440),
    consoleSessionHours: integer(env, 'CONSOLE_SESSION_HOURS', 12, 1, 720),
    consoleOidc: consoleOidcConfig(env),
    propagationResolvers: namedResolverList(env, 'PROPAGATION_RESOLVERS', DEFAULT_PROPAGATION_RESOLVERS),
    propagationTimeoutMs: integer(env, 'PROPAGATION_TIMEOUT_MS', 2_000, 100, 30_000),
    tlsCheckPorts: portList(env, 'TLS_CHECK_PORTS', DEFAULT_TLS_CHECK_PORTS),
    cloudflareApiUrl: apiBase(env, 'CLOUDFLARE_API_URL', 'https://api.cloudflare.com/client/v4'),
    digitaloceanApiUrl: apiBase(env, 'DIGITALOCEAN_API_URL', 'https://api.digitalocean.com/v2'),
    domainConnect: domainConnectConfig(env),
    purchaseFeePercent: integer(env, 'PURCHASE_FEE_PERCENT', 15, 0, 1_000),
    purchaseFeeMinCents: integer(env, 'PURCHASE_FEE_MIN_CENTS', 200, 0, 1_000_000),
    purchaseRenewDays: integer(env, 'PURCHASE_RENEW_DAYS', 30, 1, 3_650),
    takeoverGuardDays: integer(env, 'TAKEOVER_GUARD_DAYS', 30, 0, 3_650),
    purchaseSweepSeconds: integer(env, 'PURCHASE_SWEEP_SECONDS', 30, 1, 3_600),
    openapiViolationsFile: raw(env, 'OPENAPI_VIOLATIONS_FILE'),
  };
}

function subjectToken(env: Env, name: string): string | undefined {
  const value = raw(env, name);
  if (value !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(value)) {
    throw new ConfigError(name, 'may hold only letters, digits, dash and underscore (1-64 characters)');
  }
  return value;
}

function nodeId(env: Env): string {
  const value = raw(env, 'NODE_ID') ?? `${osHostname()}-${process.pid}`;
  if (!/^[A-Za-z0-9._-]{1,128}$/.test(value)) {
    throw new ConfigError('NODE_ID', 'may hold only letters, digits, dot, dash and underscore (1-128 characters)');
  }
  return value;
}

/** An HTTP(S) API base URL without its trailing slash. */
function apiBase(env: Env, name: string, fallback: string): string {
  return (url(env, name, ['https:', 'http:']) ?? fallback).replace(/\/+$/, '');
}
