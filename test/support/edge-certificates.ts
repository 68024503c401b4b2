import { SecretBox } from '@app/crypto';
import { TestCertificate } from '../fixtures/test-certificates';
import { TEST_ENCRYPTION_KEY } from './test-app';

export * from '../fixtures/test-certificates';

/** What `startTestApp().db` offers. */
type Db = { query<T = any>(sql: string, params?: unknown[]): Promise<T[]> };

/** Stores a domain's certificate as the certificate manager does: full chain, key sealed with ENCRYPTION_KEY. */
export async function storeCertificate(db: Db, domain: { id: string; hostname: string }, cert: TestCertificate) {
  await db.query(
    `insert into certificates (domain_id, hostname, cert_pem, key_sealed, not_before, not_after, issuer)
     values ($1, $2, $3, $4, $5, $6, 'Edge Test CA')
     on conflict (domain_id) do update set cert_pem = excluded.cert_pem, key_sealed = excluded.key_sealed,
       not_before = excluded.not_before, not_after = excluded.not_after, updated_at = now()`,
    [
      domain.id,
      domain.hostname,
      cert.chainPem,
      new SecretBox(TEST_ENCRYPTION_KEY).seal(cert.keyPem),
      cert.notBefore,
      cert.notAfter,
    ],
  );
}
