import { createHash } from 'node:crypto';
import { IncomingHttpHeaders, createServer } from 'node:http';
import type { Socket } from 'node:net';
import { decodeFrame, encodeFrame } from './websocket-frames';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface LoopbackOrigin {
  port: number;
  /** `http://HOST:PORT`. */
  url: string;
  /** Every request (and WebSocket handshake) that reached the origin, complete. */
  requests: SeenRequest[];
  /** Body bytes received so far per `x-test-id` header, while requests are still streaming. */
  progress: Map<string, number>;
  close(): Promise<void>;
}

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC11B85';

/**
 * An origin on 127.0.0.1 (or another loopback address) that records what reaches it and answers
 * JSON describing the request (`/status/<code>` answers that code, `/hang` never answers); `/ws`
 * speaks enough WebSocket to echo text frames.
 */
export async function startLoopbackOrigin(host = '127.0.0.1'): Promise<LoopbackOrigin> {
  const requests: SeenRequest[] = [];
  const progress = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const id = req.headers['x-test-id'] as string | undefined;
    req.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (id) progress.set(id, (progress.get(id) ?? 0) + chunk.length);
    });
    req.on('end', () => {
      if (req.url === '/hang') return;
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const status = Number(/^\/status\/(\d{3})$/.exec(req.url ?? '')?.[1] ?? 200);
      const answer = JSON.stringify({
        method: req.method,
        url: req.url,
        headers: req.headers,
        bodyLength: body.length,
        bodySha256: createHash('sha256').update(body).digest('hex'),
      });
      res.writeHead(status, { 'content-type': 'application/json', 'set-cookie': ['a=1; Path=/', 'b=2; Path=/'] });
      res.end(answer);
    });
  });
  server.on('connection', (socket) => (sockets.add(socket), socket.on('close', () => sockets.delete(socket))));
  server.on('upgrade', (req, socket: Socket) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.alloc(0) });
    const accept = createHash('sha1')
      .update(`${String(req.headers['sec-websocket-key'])}${WS_GUID}`)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (let frame = decodeFrame(buffered); frame; frame = decodeFrame(buffered)) {
        buffered = buffered.subarray(frame.length);
        socket.write(encodeFrame(`echo:${frame.text}`, false));
      }
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: `http://${host}:${port}`,
    requests,
    progress,
    close: async () => {
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
