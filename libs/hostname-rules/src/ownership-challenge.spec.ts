import fc from 'fast-check';
import { ownershipChallenge, ownershipKey, ownershipProven } from './ownership-challenge';

const key = ownershipKey('server-secret-0123456789abcdef0123456789');

describe('ownershipChallenge', () => {
  it('is a TXT record under the hostname, stable across calls', () => {
    const a = ownershipChallenge(key, 'ws_a', 'shop.example.com');
    expect(a.type).toBe('TXT');
    expect(a.name).toBe('_custom-domain-challenge.shop.example.com');
    expect(a.value).toMatch(/^custom-domain-owner=[A-Za-z0-9_-]{43}$/);
    expect(
      ownershipChallenge(ownershipKey('server-secret-0123456789abcdef0123456789'), 'ws_a', 'shop.example.com'),
    ).toEqual(a);
  });

  it('sits under the base name of a wildcard, with a value of its own', () => {
    const wildcard = ownershipChallenge(key, 'ws_a', '*.example.com');
    expect(wildcard.name).toBe('_custom-domain-challenge.example.com');
    expect(wildcard.value).not.toBe(ownershipChallenge(key, 'ws_a', 'example.com').value);
  });

  it('differs per workspace, per hostname and per server secret', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.domain(), (w1, w2, hostname) => {
        fc.pre(w1 !== w2);
        expect(ownershipChallenge(key, w1, hostname).value).not.toBe(ownershipChallenge(key, w2, hostname).value);
      }),
    );
    const other = ownershipKey('another-secret-0123456789abcdef012345678');
    expect(ownershipChallenge(other, 'ws_a', 'a.com').value).not.toBe(ownershipChallenge(key, 'ws_a', 'a.com').value);
    expect(ownershipChallenge(key, 'ws_a', 'b.com').value).not.toBe(ownershipChallenge(key, 'ws_a', 'a.com').value);
  });

  it('is proven only by the exact value', () => {
    const challenge = ownershipChallenge(key, 'ws_a', 'shop.example.com');
    expect(ownershipProven(challenge, ['v=spf1 -all', ` ${challenge.value} `])).toBe(true);
    expect(ownershipProven(challenge, [])).toBe(false);
    expect(ownershipProven(challenge, [challenge.value.slice(0, -1)])).toBe(false);
    expect(ownershipProven(challenge, [ownershipChallenge(key, 'ws_b', 'shop.example.com').value])).toBe(false);
  });
});
