import { canonicalHostname } from '@app/kernel';
import { createSocket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { isIP } from 'node:net';
import * as dnsPacket from 'dns-packet';

/** A DNS server to ask directly: a recursive resolver of DNS_RESOLVERS or an authoritative nameserver. */
export interface DnsServerAddress {
  host: string;
  port: number;
}

interface WireRecord {
  name: string;
  type: string;
  ttl: number;
  /** Presentation form: an address, a name without trailing dot, joined TXT strings. */
  value: string;
  /** SOA only: the negative-caching TTL (RFC 2308). */
  minimum?: number;
}

export interface WireAnswer {
  rcode: string;
  authoritative: boolean;
  answers: WireRecord[];
  authorities: WireRecord[];
}

/** `ip`, `ip:port` or `[v6]:port` (the DNS_RESOLVERS forms, and what Resolver.getServers returns). */
export function parseServerAddress(server: string, defaultPort = 53): DnsServerAddress {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] ? Number(bracketed[2]) : defaultPort };
  if (isIP(server)) return { host: server, port: defaultPort };
  const [host, port] = server.split(':');
  return { host, port: Number(port) || defaultPort };
}

function record(answer: dnsPacket.Answer): WireRecord {
  const base = {
    name: canonicalHostname(answer.name),
    type: answer.type,
    ttl: 'ttl' in answer ? (answer.ttl ?? 0) : 0,
  };
  const data = 'data' in answer ? answer.data : undefined;
  if (answer.type === 'SOA' && data && typeof data === 'object' && 'minimum' in data)
    return { ...base, value: canonicalHostname(String(data.mname)), minimum: Number(data.minimum) };
  if (Array.isArray(data)) return { ...base, value: data.map((chunk) => chunk.toString()).join('') };
  if (typeof data === 'string')
    return { ...base, value: answer.type === 'A' || answer.type === 'AAAA' ? data : canonicalHostname(data) };
  return { ...base, value: JSON.stringify(data) };
}

/**
 * One question over UDP to one server, with the answer's TTLs and authority section, which the
 * system resolver API does not give: the remaining TTL of a cached record, the SOA of a negative
 * answer, a referral. `recursive: false` asks an authoritative server for its own data only.
 */
export function wireQuery(
  server: DnsServerAddress,
  name: string,
  type: dnsPacket.RecordType,
  options: { recursive: boolean; timeoutMs?: number },
): Promise<WireAnswer> {
  const id = randomInt(0, 65_536);
  const query = dnsPacket.encode({
    type: 'query',
    id,
    flags: options.recursive ? dnsPacket.RECURSION_DESIRED : 0,
    questions: [{ type, name, class: 'IN' }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: 1232 } as dnsPacket.Answer],
  });
  const socket = createSocket(isIP(server.host) === 6 ? 'udp6' : 'udp4');
  // A probe cut short by shutdown must not hold the process open for its timeout: neither its
  // socket (open until the answer or the timeout) nor its timer keeps the process alive.
  socket.unref();
  return new Promise<WireAnswer>((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Error(`no answer from ${server.host}:${server.port} within the timeout`)),
      options.timeoutMs ?? 2_000,
    );
    timer.unref();
    function done(error: Error | undefined, answer?: WireAnswer) {
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve(answer!);
    }
    socket.on('error', (error) => done(error));
    socket.on('message', (message) => {
      try {
        const packet = dnsPacket.decode(message);
        if (packet.id !== id) return;
        done(undefined, {
          rcode: (packet as { rcode?: string }).rcode ?? 'NOERROR',
          authoritative: Boolean(packet.flag_aa),
          answers: (packet.answers ?? []).map(record),
          authorities: (packet.authorities ?? []).map(record),
        });
      } catch (error) {
        done(error as Error);
      }
    });
    socket.send(query, server.port, server.host, (error) => error && done(error));
  });
}
