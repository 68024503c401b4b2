import { APP_CONFIG, AppConfig } from '@app/config';
import { DnsLookupError, DnsResolver, OriginPreflight, climbCaa } from '@app/dns';
import {
  HostnameError,
  NormalizedHostname,
  PreflightWarning,
  caaWarning,
  evaluateCaa,
  normalizeHostname,
} from '@app/domain-model';
import { DomainError } from '@app/http';
import { Inject, Injectable, Logger } from '@nestjs/common';

/** Checks that run before a domain is connected: the hostname rules, the origin's SSRF rules, CAA. */
@Injectable()
export class DomainPreflight {
  private readonly logger = new Logger(DomainPreflight.name);

  constructor(
    private readonly resolver: DnsResolver,
    private readonly origins: OriginPreflight,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  hostname(input: string): NormalizedHostname {
    try {
      return normalizeHostname(input, { edgeCnameTarget: this.config.edgeCnameTarget });
    } catch (error) {
      if (error instanceof HostnameError)
        throw new DomainError('bad_request', `hostname: ${error.message}`, { field: 'hostname' });
      throw error;
    }
  }

  async origin(originUrl: string): Promise<void> {
    await this.origins.check(originUrl);
  }

  /** A warning when CAA forbids both public CAs; creation goes on either way (SPEC 7). */
  async caa(hostname: string): Promise<PreflightWarning[]> {
    try {
      const warning = caaWarning(evaluateCaa(await climbCaa(this.resolver, hostname)));
      return warning ? [warning] : [];
    } catch (error) {
      if (!(error instanceof DnsLookupError)) throw error;
      this.logger.warn({ hostname, code: error.code }, 'CAA lookup failed; connecting without the CAA check');
      return [];
    }
  }
}
