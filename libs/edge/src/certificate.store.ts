import { SecretBox } from '@app/crypto';
import { BoundedCache } from '@app/kernel';
import { MikroSqlExecutor, type SqlExecutor } from '@app/persistence';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { X509Certificate } from 'node:crypto';
import { SecureContext, createSecureContext } from 'node:tls';
import { EdgeRoute } from './edge-route';
import { EDGE_OPTIONS } from './edge.options';

/** A domain's current certificate, ready for the handshake. */
export interface ServedCertificate {
  domainId: string;
  context: SecureContext;
  leaf: X509Certificate;
  notAfter: Date;
}

interface Row {
  cert_pem: string;
  key_sealed: string;
  not_after: Date;
}

export interface CertificateCacheOptions {
  certificateTtlMs: number;
  negativeTtlMs: number;
  maxCachedCertificates: number;
}

/**
 * Certificates from `certificates` (the key opened with ENCRYPTION_KEY), as TLS contexts cached
 * per connected hostname until invalidated or `certificateTtlMs` (then refreshed in the background
 * within another `certificateTtlMs`); "no certificate yet" is cached for `negativeTtlMs`. The edge never orders certificates: a missing one fails the handshake.
 */
@Injectable()
export class CertificateStore {
  private readonly logger = new Logger(CertificateStore.name);
  private readonly cache: BoundedCache<ServedCertificate | null>;

  constructor(
    @Inject(MikroSqlExecutor) private readonly db: SqlExecutor,
    private readonly box: SecretBox,
    @Inject(EDGE_OPTIONS) private readonly options: CertificateCacheOptions,
  ) {
    this.cache = new BoundedCache({ maxEntries: options.maxCachedCertificates, staleMs: options.certificateTtlMs });
  }

  /** The context for a handshake with `servername` on `route`; a www twin needs a certificate naming it. */
  async contextFor(route: EdgeRoute, servername: string): Promise<SecureContext | undefined> {
    const served = await this.get(route);
    if (!served) return undefined;
    if ((route.twin || route.wildcard) && !served.leaf.checkHost(servername)) return undefined;
    return served.context;
  }

  /** The context of a connected hostname's certificate when cached and unexpired (no I/O). */
  cachedContext(hostname: string): SecureContext | undefined {
    return this.cache.peek(hostname)?.context;
  }

  /** Cached under the domain's own hostname: every name a wildcard serves shares one entry. */
  async get(route: Pick<EdgeRoute, 'hostname' | 'domainId' | 'wildcard'>): Promise<ServedCertificate | undefined> {
    const load = () => this.load(route.domainId);
    const ttl = (c: ServedCertificate | null) => (c ? this.options.certificateTtlMs : this.options.negativeTtlMs);
    const key = route.wildcard ?? route.hostname;
    let served = await this.cache.getOrLoad(key, load, ttl);
    if (served && served.domainId !== route.domainId) {
      // The hostname was deleted and connected again: the cached certificate was the old domain's.
      this.cache.delete(key);
      served = await this.cache.getOrLoad(key, load, ttl);
    }
    return served ?? undefined;
  }

  invalidate(hostname: string): void {
    this.cache.delete(hostname);
  }

  clear(): void {
    this.cache.clear();
  }

  private async load(domainId: string): Promise<ServedCertificate | null> {
    const [row] = await this.db.query<Row>(
      'select cert_pem, key_sealed, not_after from certificates where domain_id = ?',
      [domainId],
    );
    if (!row) return null;
    try {
      const context = createSecureContext({ cert: row.cert_pem, key: this.box.open(row.key_sealed) });
      return { domainId, context, leaf: new X509Certificate(row.cert_pem), notAfter: new Date(row.not_after) };
    } catch (error) {
      this.logger.error({ err: error, domainId }, 'Stored certificate cannot be used');
      return null;
    }
  }
}
