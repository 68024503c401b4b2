import * as dgram from 'node:dgram';
import { parseServerAddress, wireQuery } from './dns-wire';

describe('parseServerAddress', () => {
  it.each([
    ['192.0.2.53', { host: '192.0.2.53', port: 53 }],
    ['127.0.0.1:5353', { host: '127.0.0.1', port: 5353 }],
    ['2001:db8::53', { host: '2001:db8::53', port: 53 }],
    ['[2001:db8::53]:5353', { host: '2001:db8::53', port: 5353 }],
    ['[::1]', { host: '::1', port: 53 }],
  ])('%s', (input, expected) => expect(parseServerAddress(input)).toEqual(expected));
});

describe('wireQuery', () => {
  it('never holds the process open while it waits: a shutdown mid-probe exits at once', async () => {
    const silent = dgram.createSocket('udp4'); // a server that never answers
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    // The handles that keep the process alive (unref'd ones are not listed).
    const udpHolding = () => process.getActiveResourcesInfo().filter((type) => type === 'UDPWrap').length;
    try {
      const before = udpHolding();
      const query = wireQuery({ host: '127.0.0.1', port: silent.address().port }, 'example.com', 'A', {
        recursive: true,
        timeoutMs: 200,
      });
      await new Promise((resolve) => setTimeout(resolve, 50)); // sent, waiting for an answer
      expect(udpHolding()).toBe(before);
      await expect(query).rejects.toThrow(/no answer from 127.0.0.1/);
    } finally {
      silent.close();
    }
  });
});
