import { delegationMessage } from './issuance-messages';

const now = new Date('2026-11-27T10:00:00Z');
const retryAt = new Date('2026-11-27T10:05:00Z');
const delegation = { name: '_acme-challenge.example.com', target: 'abc.acme.example.net' };

describe('delegationMessage', () => {
  it('gives the record to add when the delegation is missing', () => {
    expect(delegationMessage('*.example.com', delegation, [], retryAt, now)).toBe(
      'Add the record _acme-challenge.example.com CNAME abc.acme.example.net: a wildcard certificate is validated ' +
        'through it. We try again at 10:05 UTC, or as soon as you run a check.',
    );
  });

  it('names what the record points at when it is wrong', () => {
    expect(delegationMessage('*.example.com', delegation, ['old.ca.example'], retryAt, now)).toMatch(
      /^_acme-challenge\.example\.com points at old\.ca\.example \(perhaps through a wildcard record\), not at abc\.acme\.example\.net\. Add the record _acme-challenge\.example\.com CNAME abc\.acme\.example\.net\./,
    );
  });

  it('tells a failed lookup and a missing zone apart from a missing record', () => {
    expect(delegationMessage('*.example.com', delegation, 'lookup_failed', retryAt, now)).toMatch(
      /could not look up _acme-challenge\.example\.com/,
    );
    expect(delegationMessage('*.example.com', undefined, 'lookup_failed', retryAt, now)).toMatch(
      /not set up for \(no challenge zone\)/,
    );
  });
});
