import { SecretBox } from '@app/crypto';
import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';

export interface StoredCertificate {
  notBefore: Date;
  notAfter: Date;
}

export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
  notBefore: Date;
  notAfter: Date;
  issuer: string | null;
}

/** The current certificate of each domain; private keys are sealed before they reach the database. */
@Injectable()
export class CertificateRepository {
  constructor(
    private readonly db: MikroSqlExecutor,
    private readonly box: SecretBox,
  ) {}

  async find(domainId: string): Promise<StoredCertificate | undefined> {
    const rows = await this.db.query<{ not_before: string; not_after: string }>(
      'select not_before, not_after from certificates where domain_id = ?',
      [domainId],
    );
    return rows[0] && { notBefore: new Date(rows[0].not_before), notAfter: new Date(rows[0].not_after) };
  }

  async save(domainId: string, hostname: string, cert: IssuedCertificate): Promise<void> {
    await this.db.query(
      `insert into certificates (domain_id, hostname, cert_pem, key_sealed, not_before, not_after, issuer)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (domain_id) do update set hostname = excluded.hostname, cert_pem = excluded.cert_pem,
         key_sealed = excluded.key_sealed, not_before = excluded.not_before, not_after = excluded.not_after,
         issuer = excluded.issuer, updated_at = now()`,
      [domainId, hostname, cert.certPem, this.box.seal(cert.keyPem), cert.notBefore, cert.notAfter, cert.issuer],
    );
  }

  async remove(domainId: string): Promise<void> {
    await this.db.query('delete from certificates where domain_id = ?', [domainId]);
  }
}
