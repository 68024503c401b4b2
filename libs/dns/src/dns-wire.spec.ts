import { parseServerAddress } from './dns-wire';

describe('parseServerAddress', () => {
  it.each([
    ['192.0.2.53', { host: '192.0.2.53', port: 53 }],
    ['127.0.0.1:5353', { host: '127.0.0.1', port: 5353 }],
    ['2001:db8::53', { host: '2001:db8::53', port: 53 }],
    ['[2001:db8::53]:5353', { host: '2001:db8::53', port: 5353 }],
    ['[::1]', { host: '::1', port: 53 }],
  ])('%s', (input, expected) => expect(parseServerAddress(input)).toEqual(expected));
});
