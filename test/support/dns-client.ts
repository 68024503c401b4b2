import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import * as dnsPacket from 'dns-packet';

/** A query packet for one question (EDNS 1232, RD off unless asked), id chosen by the caller. */
export function dnsQuery(
  id: number,
  name: string,
  type: dnsPacket.RecordType,
  options: { recursive?: boolean; edns?: boolean } = {},
): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id,
    flags: options.recursive ? dnsPacket.RECURSION_DESIRED : 0,
    questions: [{ name, type, class: 'IN' }],
    additionals:
      options.edns === false ? [] : [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as unknown as dnsPacket.Answer],
  });
}

/**
 * Sends `queries` over UDP from one socket (bound to `from`, e.g. 127.0.0.2, to be another source
 * address), pausing `pause.ms` after every `pause.every` queries, and collects the responses until
 * all came back or none came for `waitMs`.
 */
export async function udpExchange(
  port: number,
  queries: Buffer[],
  options: { host?: string; from?: string; waitMs?: number; pause?: { every: number; ms: number } } = {},
): Promise<dnsPacket.DecodedPacket[]> {
  const socket = createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
  const responses: dnsPacket.DecodedPacket[] = [];
  let lastHeard = 0;
  socket.on('message', (message) => {
    responses.push(dnsPacket.decode(message));
    lastHeard = Date.now();
  });
  await new Promise<void>((resolve) => socket.bind(0, options.from ?? '127.0.0.1', () => resolve()));
  try {
    for (const [index, query] of queries.entries()) {
      await new Promise<void>((resolve, reject) =>
        socket.send(query, port, options.host ?? '127.0.0.1', (error) => (error ? reject(error) : resolve())),
      );
      // A pause now and then, so the kernel's receive buffers (not the rate limit) never drop a query.
      if (options.pause && (index + 1) % options.pause.every === 0)
        await new Promise((r) => setTimeout(r, options.pause!.ms));
    }
    const sent = Date.now();
    const waitMs = options.waitMs ?? 1_000;
    // Until all came back or nothing came for waitMs. After a stall of this process its timers run
    // before its sockets are read: setImmediate lets the datagrams waiting in the kernel in first.
    for (;;) {
      await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setImmediate(r));
      if (responses.length >= queries.length || Date.now() - Math.max(sent, lastHeard) > waitMs) break;
    }
    return responses;
  } finally {
    socket.close();
  }
}

/** One UDP query, its response (rejects after `timeoutMs` without one). */
export async function udpAsk(port: number, query: Buffer, timeoutMs = 2_000): Promise<dnsPacket.DecodedPacket> {
  const [response] = await udpExchange(port, [query], { waitMs: timeoutMs });
  if (!response) throw new Error(`no UDP answer from port ${port} within ${timeoutMs} ms`);
  return response;
}

/**
 * Several queries on one TCP connection (2-byte length framing, RFC 7766); resolves with the
 * responses received when all have come back, the server closed the connection, or `timeoutMs` passed.
 */
export function tcpExchange(
  port: number,
  queries: Buffer[],
  options: { host?: string; from?: string; timeoutMs?: number } = {},
): Promise<{ responses: dnsPacket.DecodedPacket[]; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const responses: dnsPacket.DecodedPacket[] = [];
    let buffered = Buffer.alloc(0);
    let closedByServer = false;
    const socket = connect({ port, host: options.host ?? '127.0.0.1', localAddress: options.from });
    const timer = setTimeout(() => socket.destroy(), options.timeoutMs ?? 2_000);
    socket.on('connect', () => {
      for (const query of queries)
        socket.write(Buffer.concat([Buffer.from([query.length >> 8, query.length & 255]), query]));
    });
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        responses.push(dnsPacket.decode(buffered.subarray(2, 2 + buffered.readUInt16BE(0))));
        buffered = buffered.subarray(2 + buffered.readUInt16BE(0));
      }
      if (responses.length === queries.length) socket.end();
    });
    socket.on('end', () => (closedByServer ||= responses.length < queries.length));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET') closedByServer = true;
      else reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ responses, closedByServer });
    });
  });
}
