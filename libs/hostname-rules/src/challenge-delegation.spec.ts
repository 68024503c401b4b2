import { challengeDelegation, delegationState, probeNameOf, wildcardBase } from './challenge-delegation';

const ZONE = 'acme.example.net';

describe('challengeDelegation', () => {
  it('names the challenge of the base name and a 32-hex label in the zone', () => {
    const delegation = challengeDelegation('shop.example.com', 'ws_1', ZONE);
    expect(delegation.name).toBe('_acme-challenge.shop.example.com');
    expect(delegation.target).toMatch(/^[0-9a-f]{32}\.acme\.example\.net$/);
  });

  it('is shared by a wildcard and its base name in one workspace', () => {
    expect(challengeDelegation('*.example.com', 'ws_1', ZONE)).toEqual(
      challengeDelegation('example.com', 'ws_1', ZONE),
    );
  });

  it('differs between workspaces and between names', () => {
    const a = challengeDelegation('example.com', 'ws_1', ZONE).target;
    expect(challengeDelegation('example.com', 'ws_2', ZONE).target).not.toBe(a);
    expect(challengeDelegation('shop.example.com', 'ws_1', ZONE).target).not.toBe(a);
  });

  it('strips only a leading wildcard label', () => {
    expect(wildcardBase('*.shop.example.com')).toBe('shop.example.com');
    expect(wildcardBase('shop.example.com')).toBe('shop.example.com');
  });
});

describe('delegationState', () => {
  const delegation = challengeDelegation('shop.example.com', 'ws_1', ZONE);

  it('is correct when a CNAME names the target, whatever its case and trailing dot', () => {
    expect(delegationState([`${delegation.target.toUpperCase()}.`], delegation)).toBe('correct');
  });

  it('is missing without a CNAME and wrong with another target', () => {
    expect(delegationState([], delegation)).toBe('missing');
    expect(delegationState(['other.acme.example.net'], delegation)).toBe('wrong');
  });
});

describe('probeNameOf', () => {
  it('resolves a name under a wildcard, and any other hostname as it is', () => {
    expect(probeNameOf('*.example.com')).toBe('wildcard-probe.example.com');
    expect(probeNameOf('shop.example.com')).toBe('shop.example.com');
  });
});
