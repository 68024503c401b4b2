import type { DomainView } from '@app/domains';
import { DnsHistory, dnsFact, liveFact } from './domain-live.view';

const T1 = '2026-11-20T10:00:00.000Z';
const T2 = '2026-11-21T12:00:00.000Z';
const never: DnsHistory = { firstCorrectAt: null, wrongChecks: 0 };
const correct: DnsHistory = { firstCorrectAt: T1, wrongChecks: 0 };
const drifted: DnsHistory = { firstCorrectAt: T1, wrongChecks: 2 };
const domain = (
  status: DomainView['status'],
  monitorStatus: DomainView['monitorStatus'],
  verifiedAt: string | null = null,
  statusReason?: DomainView['statusReason'],
): Pick<DomainView, 'status' | 'monitorStatus' | 'verifiedAt' | 'statusReason' | 'lastCheckedAt'> => ({
  status,
  monitorStatus,
  verifiedAt,
  statusReason: statusReason ?? null,
  lastCheckedAt: T2,
});

describe('dnsFact', () => {
  it.each<[string, ReturnType<typeof domain>, DnsHistory, string, string | undefined]>([
    ['never checked', { ...domain('pending', 'unknown'), lastCheckedAt: null }, never, 'Not checked yet', undefined],
    ['never correct', domain('pending', 'dns_not_resolving'), never, 'Not pointing at this service yet', undefined],
    ['correct', domain('pending', 'pending_ssl'), correct, 'Correct; first seen correct', T1],
    [
      'wrong once',
      domain('verified', 'dns_incorrect'),
      { firstCorrectAt: T1, wrongChecks: 1 },
      'Wrong at the last check; was first seen correct',
      T1,
    ],
    [
      'wrong twice',
      domain('verified', 'dns_incorrect'),
      drifted,
      'Wrong at the last 2 checks; was first seen correct',
      T1,
    ],
  ])('%s', (_, d, h, text, at) => {
    expect(dnsFact(d, h)).toEqual({ text, at });
  });
});

describe('liveFact', () => {
  it.each<[string, ReturnType<typeof domain>, DnsHistory, string, string | undefined]>([
    // The reported contradiction: DNS right, no certificate yet, and the page said "Verified —".
    [
      'DNS right, certificate pending',
      domain('pending', 'pending_ssl'),
      correct,
      'Not live yet: DNS is correct, waiting for the certificate',
      undefined,
    ],
    [
      'DNS right, order failed',
      domain('pending', 'ssl_failed'),
      correct,
      'Not live yet: DNS is correct, the certificate order failed (see Last error)',
      undefined,
    ],
    ['DNS not yet right', domain('pending', 'dns_not_resolving'), never, 'Not live yet: waiting for DNS', undefined],
    [
      'DNS went wrong while pending',
      domain('pending', 'dns_incorrect'),
      drifted,
      'Not live yet: waiting for DNS',
      undefined,
    ],
    [
      'certificate first, DNS next',
      domain('pending', 'ready_to_switch'),
      never,
      'Not live yet: the certificate is ready; waiting for DNS to point at this service',
      undefined,
    ],
    ['verified', domain('verified', 'active_ssl', T2), correct, 'Live; first live', T2],
    [
      'failed after being live',
      domain('failed', 'dns_incorrect', T2, 'dns_drift'),
      drifted,
      'Not live: failed (dns drift); was first live',
      T2,
    ],
    [
      'failed, never live',
      domain('failed', 'dns_not_resolving', null, 'dns_never_correct'),
      never,
      'Not live: failed (dns never correct)',
      undefined,
    ],
    [
      'expired',
      domain('expired', 'ssl_expired', T2, 'certificate_expired'),
      correct,
      'Not live: expired (certificate expired); was first live',
      T2,
    ],
  ])('%s', (_, d, h, text, at) => {
    expect(liveFact(d, h)).toEqual({ text, at });
  });
});
