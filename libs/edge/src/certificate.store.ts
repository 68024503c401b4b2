import { SecretBox } from '@app/crypto';
import { BoundedCache } from '@app/kernel';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { X509Certificate } from 'node:crypto';
import { SecureContext, createSecureContext } from 'node:tls';
import { EdgeRoute } from './edge-route';
import { EDGE_OPTIONS } from './edge.options';
import type { ReplicaCertificate } from './replica/replica-entry';
import { ReplicatedRoutes } from './replica/replicated-routes';

/** A domain's current certificate, ready for the handshake. */
export interface ServedCertificate {
  domainId: string;
  context: SecureContext;
  /** Parsed on first use: only www twins and a wildcard's names need it (0.2 ms and memory per context). */
  leaf(): X509Certificate;
  /** The replicated certificate it was made from: a new one replaces it. */
  source: ReplicaCertificate;
}

export interface CertificateCacheOptions {
  maxCachedCertificates: number;
}

/**
 * Certificates from the replicated copy, whose keys stay sealed until a handshake needs one: then
 * opened with ENCRYPTION_KEY into a TLS context, cached per connected hostname with a bound (the
 * least recently used leave first). Making a context is CPU only (no I/O), so handshakes for names
 * not in the cache never wait on each other or on a database. No certificate fails the handshake:
 * the edge never orders certificates.
 */
@Injectable()
export class CertificateStore {
  private readonly logger = new Logger(CertificateStore.name);
  private readonly cache: BoundedCache<ServedCertificate>;

  constructor(
    private readonly replicated: ReplicatedRoutes,
    private readonly box: SecretBox,
    @Inject(EDGE_OPTIONS) options: CertificateCacheOptions,
  ) {
    this.cache = new BoundedCache({ maxEntries: options.maxCachedCertificates });
    replicated.onChange((hostname) => this.cache.delete(hostname));
  }

  /** The context for a handshake with `servername` on `route`; a www twin needs a certificate naming it. */
  contextFor(route: EdgeRoute, servername: string): SecureContext | undefined {
    const served = this.get(route);
    if (!served) return undefined;
    if ((route.twin || route.wildcard) && !served.leaf().checkHost(servername)) return undefined;
    return served.context;
  }

  /** Cached under the domain's own hostname: every name a wildcard serves shares one entry. */
  get(route: Pick<EdgeRoute, 'hostname' | 'domainId' | 'wildcard'>): ServedCertificate | undefined {
    const key = route.wildcard ?? route.hostname;
    const entry = this.replicated.entry(key);
    const source = entry?.domainId === route.domainId ? entry.certificate : undefined;
    if (!source) return undefined;
    const cached = this.cache.get(key);
    if (cached?.source === source) return cached;
    const served = this.open(route.domainId, source);
    if (served) this.cache.set(key, served);
    return served;
  }

  get cachedContexts(): number {
    return this.cache.size;
  }

  private open(domainId: string, source: ReplicaCertificate): ServedCertificate | undefined {
    try {
      const context = createSecureContext({ cert: source.chainPem, key: this.box.open(source.keySealed) });
      let leaf: X509Certificate | undefined;
      return { domainId, context, leaf: () => (leaf ??= new X509Certificate(source.chainPem)), source };
    } catch (error) {
      this.logger.error({ err: error, domainId }, 'Stored certificate cannot be used');
      return undefined;
    }
  }
}
