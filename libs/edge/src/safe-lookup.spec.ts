import { LookupAddress } from 'node:dns';
import { createServer } from 'node:net';
import { request } from 'node:http';
import { OriginBlockedError, createSafeLookup, resolveAllowed } from './safe-lookup';

const zones: Record<string, string[]> = {
  'public.example': ['93.184.216.34', '2606:2800:220:1::1'],
  'private.example': ['10.1.2.3'],
  'mixed.example': ['93.184.216.34', '192.168.1.1'],
  'loop.example': ['127.0.0.1'],
  'metadata.example': ['169.254.169.254'],
};
const resolver = { addresses: async (name: string) => zones[name] ?? [] };

function lookup(hostname: string, options: object, allow: string[] = []) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>(
    (resolve) =>
      createSafeLookup(resolver, allow)(hostname, options, (error, address, family) =>
        resolve({ error, address, family }),
      ),
  );
}

describe('safe lookup', () => {
  it('answers allowed names in both callback shapes, filtered by family', async () => {
    expect(await lookup('public.example', {})).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    expect((await lookup('public.example', { all: true })).address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
    expect(await lookup('public.example', { family: 6 })).toEqual({
      error: null,
      address: '2606:2800:220:1::1',
      family: 6,
    });
  });

  it.each(['private.example', 'mixed.example', 'loop.example', 'metadata.example', '10.0.0.1', '::1'])(
    'refuses %s',
    async (name) => {
      const { error } = await lookup(name, {});
      expect(error).toBeInstanceOf(OriginBlockedError);
      expect(error?.code).toBe('EORIGINBLOCKED');
    },
  );

  it('lets OUTBOUND_ALLOW_CIDRS exempt ranges', async () => {
    expect((await lookup('loop.example', {}, ['127.0.0.0/8'])).address).toBe('127.0.0.1');
    expect(await resolveAllowed(resolver, '127.0.0.1', ['127.0.0.0/8'])).toEqual(['127.0.0.1']);
  });

  it('reports a name without addresses as not found', async () => {
    expect((await lookup('missing.example', {})).error?.code).toBe('ENOTFOUND');
  });

  it('stops node:http before it connects to a blocked address', async () => {
    let connections = 0;
    const server = createServer((socket) => (connections++, socket.destroy()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const error = await new Promise<Error>((resolve) => {
        const req = request({ hostname: 'loop.example', port, lookup: createSafeLookup(resolver, []) });
        req.on('error', resolve);
        req.end();
      });
      expect(error).toBeInstanceOf(OriginBlockedError);
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });
});
