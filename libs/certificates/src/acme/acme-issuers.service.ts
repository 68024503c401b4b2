import { APP_CONFIG, AppConfig, AcmeIssuerConfig } from '@app/config';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { AcmeAccountRepository } from '../acme-account.repository';
import { AcmeChallengeRepository } from '../acme-challenge.repository';
import { AcmeAuthorization, AcmeChallenge, AcmeClient, RenewalInfo } from './acme-client';
import { AcmeHttp } from './acme-http';
import { AccountKey } from './acme-jws';
import { AcmeProblem } from './acme-problem';
import { certificateFacts, certificateRequest } from './certificate-files';

export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
  notBefore: Date;
  notAfter: Date;
  /** The issuing CA's common name, as the certificate says. */
  issuer: string | null;
  /** Which of our configured issuers (ACME_ISSUERS name) issued it. */
  issuerName: string;
  /** RFC 9773 CertID, to ask for renewal information and to name it in `replaces`. */
  certId?: string;
}

/** The challenge of `type` the CA offers for the authorization; a CA without it refuses the identifier. */
function offered(authz: AcmeAuthorization, type: 'http-01' | 'dns-01'): AcmeChallenge {
  const challenge = authz.challenges.find((c) => c.type === type);
  if (challenge) return challenge;
  const detail = `The CA offers no ${type.toUpperCase()} challenge for ${authz.wildcard ? '*.' : ''}${authz.identifier.value}`;
  throw new AcmeProblem(
    { type: 'urn:ietf:params:acme:error:rejectedIdentifier', detail },
    400,
    undefined,
    'authorization',
  );
}

/** An order may take this long at the CA (validation and finalization) before it is given up. */
const ORDER_DEADLINE_MS = 3 * 60_000;

/**
 * The configured ACME issuers, each with its own account (registered once, with External Account
 * Binding where the CA needs it) and its own client. Orders use HTTP-01 (key authorizations in
 * `acme_challenges`, answered by every edge on port 80) or, for names delegated to our challenge
 * zone, DNS-01 (TXT values in `acme_dns_challenges`, answered by every edge's DNS listener).
 */
@Injectable()
export class AcmeIssuers implements OnModuleDestroy {
  private readonly clients = new Map<string, Promise<AcmeClient>>();
  private readonly transports = new Map<string, AcmeHttp>();

  constructor(
    private readonly challenges: AcmeChallengeRepository,
    private readonly accounts: AcmeAccountRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  list(): readonly AcmeIssuerConfig[] {
    return this.config.acmeIssuers;
  }

  /** Our account URL at the issuer (RFC 8657 `accounturi`), registering the account if needed. */
  async accountUri(issuer: AcmeIssuerConfig): Promise<string> {
    return (await this.client(issuer)).account as string;
  }

  /** Our account URL if it is already registered; no request to the CA. */
  async knownAccountUri(issuer: AcmeIssuerConfig): Promise<string | undefined> {
    return (await this.accounts.find(issuer.directoryUrl))?.url;
  }

  /**
   * Orders a certificate for `names`. With `dns`, the authorization of `dns.name` (a wildcard's base
   * name, or a hostname whose `_acme-challenge` is delegated to us) is validated by DNS-01 at
   * `dns.target` in our challenge zone; every other name by HTTP-01 at the edge.
   */
  async issue(
    issuer: AcmeIssuerConfig,
    names: string[],
    options: { replaces?: string; dns?: { name: string; target: string } } = {},
  ): Promise<IssuedCertificate> {
    const client = await this.client(issuer);
    const deadline = new Date(Date.now() + ORDER_DEADLINE_MS);
    const order = await client.newOrder(names, { profile: issuer.profile, replaces: options.replaces });
    for (const url of order.authorizations) {
      const authz = await client.authorization(url);
      if (authz.status === 'valid') continue;
      const name = authz.identifier.value;
      if (options.dns && name === options.dns.name) await this.validateDns(client, authz, options.dns.target, deadline);
      else await this.validateHttp(client, authz, deadline);
    }
    const request = await certificateRequest(names);
    const finalized = await client.finalize(order, request.csrDer, deadline);
    const certPem = await client.certificate(finalized.certificate as string);
    const facts = certificateFacts(certPem);
    return { certPem, keyPem: request.keyPem, ...facts, issuerName: issuer.name };
  }

  private async validateHttp(client: AcmeClient, authz: AcmeAuthorization, deadline: Date): Promise<void> {
    const name = authz.identifier.value;
    const challenge = offered(authz, 'http-01');
    await this.challenges.publish(challenge.token, client.key.keyAuthorization(challenge.token), name);
    try {
      await client.validate(challenge, name, deadline);
    } finally {
      await this.challenges.withdraw(challenge.token);
    }
  }

  private async validateDns(client: AcmeClient, authz: AcmeAuthorization, target: string, deadline: Date) {
    const name = authz.identifier.value;
    const challenge = offered(authz, 'dns-01');
    await this.challenges.publishDns(challenge.token, target, client.key.dnsTxtValue(challenge.token));
    try {
      await client.validate(challenge, `${authz.wildcard ? '*.' : ''}${name}`, deadline);
    } finally {
      await this.challenges.withdrawDns(challenge.token, target);
    }
  }

  /** The CA's renewal window for a certificate it issued, or undefined when it offers no ARI. */
  async renewalInfo(issuer: AcmeIssuerConfig, certId: string): Promise<RenewalInfo | undefined> {
    return (await this.client(issuer)).renewalInfo(certId);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.transports.values()].map((http) => http.close().catch(() => undefined)));
  }

  /** One client per issuer; a failed registration is forgotten so the next order tries again. */
  private client(issuer: AcmeIssuerConfig): Promise<AcmeClient> {
    let client = this.clients.get(issuer.name);
    if (!client) {
      client = this.connect(issuer);
      client.catch(() => this.clients.delete(issuer.name));
      this.clients.set(issuer.name, client);
    }
    return client;
  }

  private async connect(issuer: AcmeIssuerConfig): Promise<AcmeClient> {
    let http = this.transports.get(issuer.name);
    if (!http) this.transports.set(issuer.name, (http = new AcmeHttp(issuer.caFile)));
    const stored = await this.accounts.account(issuer.directoryUrl);
    const client = new AcmeClient(http, issuer.directoryUrl, await AccountKey.fromPem(stored.key), stored.url);
    if (!stored.url) {
      const url = await client.register({
        contact: issuer.email ? [`mailto:${issuer.email}`] : undefined,
        eab: issuer.eab,
      });
      await this.accounts.registered(issuer.directoryUrl, url);
    }
    return client;
  }
}
