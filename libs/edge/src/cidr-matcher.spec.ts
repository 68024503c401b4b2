import { cidrMatcher } from './cidr-matcher';

describe('cidrMatcher', () => {
  const loopback = cidrMatcher(['127.0.0.0/8', '::1/128']);
  it.each<[string | undefined, boolean]>([
    ['127.0.0.1', true],
    ['127.9.9.9', true],
    ['::ffff:127.0.0.1', true],
    ['::1', true],
    ['10.0.0.1', false],
    ['2001:db8::1', false],
    ['not an ip', false],
    [undefined, false],
  ])('%s -> %s', (address, expected) => expect(loopback(address)).toBe(expected));

  it('matches nothing without ranges', () => expect(cidrMatcher([])('127.0.0.1')).toBe(false));
});
