import { Server, createServer } from 'node:http';
import { AddressInfo, Socket, createServer as createTcpServer } from 'node:net';
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

  describe('a keep-alive socket closed by the server', () => {
    // Answers the first request of each connection (keep-alive, no hint of a timeout) and closes
    // the socket, unanswered, at the next; `closeFirst` closes at the first request instead.
    const rawServer = async (closeFirst: boolean) => {
      const seen = { connections: 0, requests: 0 };
      const sockets = new Set<Socket>();
      const server = createTcpServer((socket) => {
        seen.connections++;
        sockets.add(socket);
        let served = 0;
        let received = '';
        socket.on('data', (data) => {
          // A request is whole with its body (every body here is `{}`): answering before it would
          // stop the client reusing the socket.
          received += data.toString('latin1');
          const parts = received.split('\r\n\r\n{}');
          const requests = parts.length - 1;
          received = parts[requests];
          for (let i = 0; i < requests; i++) {
            seen.requests++;
            if (closeFirst || served++ > 0) return void socket.destroy();
            socket.write('HTTP/1.1 200 OK\r\nconnection: keep-alive\r\ncontent-length: 2\r\n\r\nok');
          }
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const close = async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => server.close(resolve));
      };
      const rawTarget = {
        url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`),
        host: '127.0.0.1',
        addresses: ['127.0.0.1'],
      };
      return { seen, close, rawTarget };
    };

    it('retries once on a fresh connection when the reused socket closes unanswered', async () => {
      const { seen, close, rawTarget } = await rawServer(false);
      try {
        expect((await post(rawTarget, Buffer.from('{}'), {}, 2_000)).statusCode).toBe(200);
        // The first answer's socket back in the agent's free list, so the second request reuses it.
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect((await post(rawTarget, Buffer.from('{}'), {}, 2_000)).statusCode).toBe(200);
        expect(seen).toEqual({ connections: 2, requests: 3 });
      } finally {
        await close();
      }
    });

    it('does not retry when a fresh connection closes unanswered (the server may have acted on it)', async () => {
      const { seen, close, rawTarget } = await rawServer(true);
      try {
        await expect(post(rawTarget, Buffer.from('{}'), {}, 2_000)).rejects.toMatchObject({ code: 'ECONNRESET' });
        expect(seen).toEqual({ connections: 1, requests: 1 });
      } finally {
        await close();
      }
    });
  });
});
