import { APP_CONFIG, AppConfig } from '@app/config';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import * as acme from 'acme-client';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { AcmeAccountRepository } from './acme-account.repository';
import { AcmeChallengeRepository } from './acme-challenge.repository';
import { IssuedCertificate } from './certificate.repository';

/**
 * Orders a certificate over ACME (RFC 8555) with the HTTP-01 challenge: the key authorization goes
 * to `acme_challenges`, where every edge replica answers it on port 80. The order is driven step by
 * step (not acme-client's `auto`) so a registered account is reused without an account request.
 */
/**
 * How the client polls a challenge or an order until it is valid: first after 1 s, doubling up to
 * 30 s, giving up after about 3.5 minutes as acme-client's defaults do. Its default first wait is
 * 5 s (then 10, 20): a validation that takes one second (Let's Encrypt's usual, Pebble's always)
 * cost 5-15 s before a certificate was served.
 */
const POLLING = { backoffMin: 1_000, backoffMax: 30_000, backoffAttempts: 12 };

@Injectable()
export class AcmeIssuer implements OnModuleInit {
  constructor(
    private readonly challenges: AcmeChallengeRepository,
    private readonly accounts: AcmeAccountRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    if (this.config.acmeCaFile) {
      // A private or test CA (Pebble): trust it for the directory's HTTPS, on top of the public roots.
      const extra = readFileSync(this.config.acmeCaFile, 'utf8');
      acme.axios.defaults.httpsAgent = new Agent({ ca: [...rootCertificates, extra], keepAlive: true });
    }
    acme.setLogger(() => undefined);
    // The certificate manager retries a failed order on its own schedule (and shows the error on the
    // domain): the library's five retries of an unreachable CA, 5 to 25 s apart, would only hold the
    // order for over a minute (and keep a stopping process's timers alive). One quick retry stays.
    const settings = (acme.axios.defaults as { acmeSettings?: { retryMaxAttempts: number; retryDefaultDelay: number } })
      .acmeSettings;
    if (settings) Object.assign(settings, { retryMaxAttempts: 1, retryDefaultDelay: 1 });
  }

  /** One certificate for `names`: the first is the common name, all are subject alternative names. */
  async issue(names: string[]): Promise<IssuedCertificate> {
    const [hostname] = names;
    const client = await this.client();
    const order = await client.createOrder({ identifiers: names.map((value) => ({ type: 'dns', value })) });
    for (const authz of await client.getAuthorizations(order)) {
      if (authz.status === 'valid') continue;
      const name = authz.identifier.value;
      const challenge = authz.challenges.find((c) => c.type === 'http-01');
      if (!challenge) throw new Error(`The CA offers no http-01 challenge for ${name}`);
      const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
      await this.challenges.publish(challenge.token, keyAuthorization, name);
      try {
        await client.completeChallenge(challenge);
        await client.waitForValidStatus(challenge);
      } finally {
        await this.challenges.withdraw(challenge.token);
      }
    }
    const key = await acme.crypto.createPrivateEcdsaKey('P-256');
    const [, csr] = await acme.crypto.createCsr({ commonName: hostname, altNames: names }, key);
    const finalized = await client.finalizeOrder(order, csr);
    const certPem = await client.getCertificate(finalized);
    const info = acme.crypto.readCertificateInfo(certPem);
    return {
      certPem,
      keyPem: key.toString(),
      notBefore: info.notBefore,
      notAfter: info.notAfter,
      issuer: info.issuer.commonName ?? null,
    };
  }

  private async client(): Promise<acme.Client> {
    const directoryUrl = this.config.acmeDirectoryUrl;
    const account = await this.accounts.account(directoryUrl);
    const client = new acme.Client({ directoryUrl, accountKey: account.key, accountUrl: account.url, ...POLLING });
    if (!account.url) {
      const contact = this.config.acmeEmail ? [`mailto:${this.config.acmeEmail}`] : undefined;
      await client.createAccount({ termsOfServiceAgreed: true, contact });
      await this.accounts.registered(directoryUrl, client.getAccountUrl());
    }
    return client;
  }
}
