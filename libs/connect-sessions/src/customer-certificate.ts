import type { DomainView } from '@app/domains';

/**
 * Certificate failures that are ours to fix or wait out (the CA unreachable or slowing us down, our
 * account, our side, the issuance budget): the end customer reads that nothing is theirs to do, not
 * the CA's internals ("letsencrypt could not be reached (127.0.0.1:9 ...)"). Support still sees the
 * full text in the console and the API.
 */
const OURS = new Set(['ca_unavailable', 'ca_rate_limited', 'ca_account', 'internal_error', 'ca_error', 'budget']);

const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

function customerCertificateMessage(retryAt: string | null): string {
  const next = retryAt ? ` We try again at ${utc(retryAt)}.` : '';
  return `Your certificate is on its way: the certificate authority could not complete it just now. Nothing to do on your side.${next}`;
}

/** The monitor message and certificate an end customer sees: our internal failures in plain words. */
export function customerCertificate(domain: DomainView): Pick<DomainView, 'monitorMessage' | 'certificate'> {
  const c = domain.certificate;
  const attempts = c.attempts.map((a) => (a.code && OURS.has(a.code) ? { ...a, message: undefined } : a));
  if (!c.errorCode || !OURS.has(c.errorCode)) return { monitorMessage: domain.monitorMessage, certificate: c };
  const message = customerCertificateMessage(c.retryAt);
  const waiting = domain.monitorStatus === 'pending_ssl' || domain.monitorStatus === 'ssl_failed';
  return {
    monitorMessage: waiting ? message : domain.monitorMessage,
    certificate: { ...c, error: message, attempts },
  };
}
