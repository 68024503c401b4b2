import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { PostTimeoutError, post } from './http-post';

describe('post (loopback server)', () => {
  let server: Server;
  let port: number;
  const hosts: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      hosts.push(req.headers.host ?? '');
      req.resume();
      req.on('end', () => {
        if (req.url === '/ok') return res.writeHead(204).end();
        if (req.url === '/error') return res.writeHead(500).end('x'.repeat(2_000));
        if (req.url === '/stall-body') return void res.writeHead(200).write('partial');
        // '/stall-headers': never answers
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const target = (path: string, host = '127.0.0.1') => ({
    url: new URL(`http://${host}:${port}${path}`),
    host,
    addresses: ['127.0.0.1'],
  });

  it('answers the status and the first bytes of the body', async () => {
    expect(await post(target('/ok'), Buffer.from('{}'), {}, 2_000)).toEqual({ statusCode: 204, snippet: '' });
    const error = await post(target('/error'), Buffer.from('{}'), {}, 2_000);
    expect(error.statusCode).toBe(500);
    expect(error.snippet).toHaveLength(512);
  });

  it('connects to the checked addresses only, whatever the name would resolve to', async () => {
    const answer = await post(target('/ok', 'pinned.invalid'), Buffer.from('{}'), {}, 2_000);
    expect(answer.statusCode).toBe(204);
    expect(hosts[hosts.length - 1]).toBe(`pinned.invalid:${port}`);
  });

  it.each(['/stall-headers', '/stall-body'])('gives up at the deadline (%s)', async (path) => {
    const started = Date.now();
    await expect(post(target(path), Buffer.from('{}'), {}, 300)).rejects.toBeInstanceOf(PostTimeoutError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
