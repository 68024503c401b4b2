import { APP_CONFIG, AppConfig, AcmeIssuerConfig } from '@app/config';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { AcmeAccountRepository } from '../acme-account.repository';
import { AcmeChallengeRepository } from '../acme-challenge.repository';
import { AcmeClient, RenewalInfo } from './acme-client';
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

/** An order may take this long at the CA (validation and finalization) before it is given up. */
const ORDER_DEADLINE_MS = 3 * 60_000;

/**
 * The configured ACME issuers, each with its own account (registered once, with External Account
 * Binding where the CA needs it) and its own client. Orders use HTTP-01: key authorizations go to
 * `acme_challenges`, where every edge replica answers them on port 80.
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

  async issue(
    issuer: AcmeIssuerConfig,
    names: string[],
    options: { replaces?: string } = {},
  ): Promise<IssuedCertificate> {
    const client = await this.client(issuer);
    const deadline = new Date(Date.now() + ORDER_DEADLINE_MS);
    const order = await client.newOrder(names, { profile: issuer.profile, replaces: options.replaces });
    for (const url of order.authorizations) {
      const authz = await client.authorization(url);
      if (authz.status === 'valid') continue;
      const name = authz.identifier.value;
      const challenge = authz.challenges.find((c) => c.type === 'http-01');
      if (!challenge)
        throw new AcmeProblem(
          {
            type: 'urn:ietf:params:acme:error:rejectedIdentifier',
            detail: `The CA offers no HTTP-01 challenge for ${name}`,
          },
          400,
          undefined,
          'authorization',
        );
      await this.challenges.publish(challenge.token, client.key.keyAuthorization(challenge.token), name);
      try {
        await client.validate(challenge, name, deadline);
      } finally {
        await this.challenges.withdraw(challenge.token);
      }
    }
    const request = await certificateRequest(names);
    const finalized = await client.finalize(order, request.csrDer, deadline);
    const certPem = await client.certificate(finalized.certificate as string);
    const facts = certificateFacts(certPem);
    return { certPem, keyPem: request.keyPem, ...facts, issuerName: issuer.name };
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
