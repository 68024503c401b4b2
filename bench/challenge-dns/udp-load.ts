import { createSocket, Socket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import * as dnsPacket from 'dns-packet';

export interface UdpLoadRun {
  sent: number;
  /** Responses with the TXT value asked for. */
  answered: number;
  /** Responses without it (NODATA, REFUSED...). */
  wrong: number;
  /** From send to response, in ms, per answered query. */
  latencies: number[];
}

const TICK_MS = 5;

/**
 * Open loop: `perSecond` TXT queries a second for `durationMs`, spread over one socket per source
 * address (127.0.0.x, so each address stays under the listener's per-address rate), sent every 5 ms
 * in small batches whatever the answers do; a query unanswered 1 s after the end counts as lost.
 */
export async function udpLoad(options: {
  port: number;
  perSecond: number;
  durationMs: number;
  sources: string[];
  names: string[];
  /** The value expected at a name. */
  expected: (name: string) => string;
}): Promise<UdpLoadRun> {
  const run: UdpLoadRun = { sent: 0, answered: 0, wrong: 0, latencies: [] };
  const sockets = await Promise.all(options.sources.map((address) => bound(address)));
  const pending = sockets.map(() => new Map<number, { at: number; name: string }>());
  sockets.forEach((socket, s) =>
    socket.on('message', (message: Buffer) => {
      const at = performance.now();
      const response = dnsPacket.decode(message);
      const query = pending[s].get(response.id ?? -1);
      if (!query) return;
      pending[s].delete(response.id!);
      const answer = response.answers?.[0] as dnsPacket.TxtAnswer | undefined;
      const value = answer ? (answer.data as Buffer[]).map(String).join('') : undefined;
      if (value !== options.expected(query.name)) return void run.wrong++;
      run.answered++;
      run.latencies.push(at - query.at);
    }),
  );
  const ids = sockets.map(() => 0);
  const started = performance.now();
  for (let tick = 0; ; tick++) {
    const due = Math.round(((tick + 1) * TICK_MS * options.perSecond) / 1_000) - run.sent;
    for (let i = 0; i < due; i++) {
      const s = run.sent % sockets.length;
      const name = options.names[Math.floor(Math.random() * options.names.length)];
      const id = (ids[s] = (ids[s] + 1) & 0xffff);
      const query = dnsPacket.encode({
        type: 'query',
        id,
        questions: [{ name, type: 'TXT', class: 'IN' }],
        additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as unknown as dnsPacket.Answer],
      });
      pending[s].set(id, { at: performance.now(), name });
      sockets[s].send(query, options.port, '127.0.0.1');
      run.sent++;
    }
    if ((tick + 1) * TICK_MS >= options.durationMs) break;
    const next = started + (tick + 1) * TICK_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await Promise.all(sockets.map((socket) => new Promise<void>((resolve) => socket.close(() => resolve()))));
  return run;
}

function bound(address: string): Promise<Socket> {
  const socket = createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
  return new Promise((resolve) => socket.bind(0, address, () => resolve(socket)));
}
