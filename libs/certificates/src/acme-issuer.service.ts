import { APP_CONFIG, AppConfig } from '@app/config';
import { MikroSqlExecutor } from '@app/persistence';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import * as acme from 'acme-client';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { AcmeAccountRepository } from './acme-account.repository';
import { IssuedCertificate } from './certificate.repository';

const CHALLENGE_TTL_MINUTES = 30;

/**
 * Orders a certificate over ACME with the HTTP-01 challenge. The key authorization goes to
 * `acme_challenges`, where every edge replica answers it on port 80.
 */
@Injectable()
export class AcmeIssuer implements OnModuleInit {
  constructor(
    private readonly db: MikroSqlExecutor,
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
  }

  async issue(hostname: string): Promise<IssuedCertificate> {
    const client = new acme.Client({
      directoryUrl: this.config.acmeDirectoryUrl,
      accountKey: await this.accounts.accountKey(this.config.acmeDirectoryUrl),
    });
    const [key, csr] = await acme.crypto.createCsr(
      { commonName: hostname, altNames: [hostname] },
      await acme.crypto.createPrivateEcdsaKey('P-256'),
    );
    const certPem = await client.auto({
      csr,
      email: this.config.acmeEmail,
      termsOfServiceAgreed: true,
      challengePriority: ['http-01'],
      // The CA checks; our own pre-check would resolve through the public DNS, which tests do not have.
      skipChallengeVerification: true,
      challengeCreateFn: (_authz, challenge, keyAuthorization) =>
        this.db.query(
          `insert into acme_challenges (token, key_authorization, hostname, expires_at)
           values (?, ?, ?, now() + ? * interval '1 minute') on conflict (token) do nothing`,
          [challenge.token, keyAuthorization, hostname, CHALLENGE_TTL_MINUTES],
        ),
      challengeRemoveFn: (_authz, challenge) =>
        this.db.query('delete from acme_challenges where token = ?', [challenge.token]),
    });
    const info = acme.crypto.readCertificateInfo(certPem);
    return {
      certPem,
      keyPem: key.toString(),
      notBefore: info.notBefore,
      notAfter: info.notAfter,
      issuer: info.issuer.commonName ?? null,
    };
  }
}
