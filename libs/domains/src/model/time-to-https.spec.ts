import type { DomainState } from './domain.types';
import { firstCertificateSeconds } from './time-to-https';

const now = new Date('2026-11-27T12:00:00Z');
const pending = {
  status: 'pending',
  monitorStatus: 'pending_ssl',
  firstSeenCorrectDnsAt: '2026-11-27T11:59:18Z',
} as unknown as DomainState;

describe('firstCertificateSeconds', () => {
  it.each([
    ['the first certificate after DNS became correct', pending, 'issued', 42],
    ['a renewal', { ...pending, certificateExpiresAt: '2027-01-01T00:00:00Z' }, 'issued', undefined],
    ['a failed order', pending, 'failed', undefined],
    ['DNS never seen correct', { ...pending, firstSeenCorrectDnsAt: undefined }, 'issued', undefined],
    ['no domain', undefined, 'issued', undefined],
  ])('%s', (_, before, result, expected) => {
    expect(firstCertificateSeconds(before, { result }, now)).toBe(expected);
  });
});
