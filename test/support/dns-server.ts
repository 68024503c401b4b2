import { createSocket, RemoteInfo, Socket as UdpSocket } from 'node:dgram';
import { createServer, Server, Socket } from 'node:net';
import * as dnsPacket from 'dns-packet';

/**
 * A real authoritative DNS server on 127.0.0.1 for tests: UDP and TCP on one free port, answers
 * from an in-memory zone map with the AA flag, follows CNAME chains inside its names, NXDOMAIN for
 * unknown names, NOERROR and no answers for known names (or empty non-terminals) without the type.
 * UDP answers larger than the client's EDNS size (512 without EDNS) come back truncated (TC), so
 * resolvers retry over TCP as they would against a real server. A `*.name` record answers for any
 * missing name one label under `name` (RFC 4592, simplified), and a delegated zone is followed.
 */
export type DnsRecord = { ttl?: number } & (
  | { type: 'A' | 'AAAA' | 'CNAME' | 'NS'; data: string }
  | { type: 'TXT'; data: string | string[] }
  | { type: 'MX'; data: { preference: number; exchange: string } }
  | { type: 'CAA'; data: { flags: number; tag: string; value: string } }
);
/** Fully-qualified names (case and trailing dot do not matter) to their records. */
export type DnsZones = Record<string, DnsRecord[]>;

export interface DnsServer {
  port: number;
  /** `127.0.0.1:PORT`, ready for `Resolver.setServers` or DNS_RESOLVERS. */
  address: string;
  /** Replaces a name's records; an empty list removes the name, which then answers NXDOMAIN. */
  setRecords(name: string, records: DnsRecord[]): void;
  /** Makes the server answer SERVFAIL for the name, whatever the type (a broken DNSSEC chain or lame zone), or not. */
  setServfail(name: string, failing?: boolean): void;
  /**
   * Names under `zone` (reached directly or through a CNAME chain) are asked of the DNS server at
   * `server` (`127.0.0.1:PORT`, UDP) and its answers appended, as a recursive resolver would follow
   * a delegation: how Pebble reaches the service's own challenge-zone listener.
   */
  delegate(zone: string, server: string): void;
  /**
   * Every question received so far, in order (a real query log, to count probes). `id` is the DNS
   * message id: a resolver's retransmission after its timeout repeats it, so a count of probes
   * counts distinct ids (a server starved of CPU for longer than the timeout logs both at once).
   */
  queries: { name: string; type: string; id: number; at: number }[];
  close(): Promise<void>;
}

const NOERROR = 0;
const FORMERR = 1;
const SERVFAIL = 2;
const NXDOMAIN = 3;
const MAX_CNAME_HOPS = 16;
const OUR_UDP_SIZE = 1232;
const canonical = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** A fresh dns-packet answer (dns-packet mutates TXT and CAA data while encoding). */
function toAnswer(name: string, record: DnsRecord): dnsPacket.Answer {
  const ttl = record.ttl ?? 60;
  if (record.type === 'TXT') {
    const strings = Array.isArray(record.data) ? record.data : [record.data];
    const chunks = strings.flatMap((text) => text.match(/[\s\S]{1,255}/g) ?? ['']);
    return { name, type: 'TXT', ttl, data: chunks };
  }
  if (record.type === 'CAA' || record.type === 'MX')
    return { name, type: record.type, ttl, data: { ...record.data } } as dnsPacket.Answer;
  return { name, type: record.type, ttl, data: record.data };
}

/** A name's records, or those of the wildcard one label up when the name itself does not exist. */
function recordsOf(zones: Zones, name: string): DnsRecord[] | undefined {
  const own = zones.get(name);
  if (own || zones.parents.has(name)) return own;
  const dot = name.indexOf('.');
  return dot === -1 ? undefined : zones.get(`*.${name.slice(dot + 1)}`);
}

function lookup(zones: Zones, question: dnsPacket.Question) {
  const qname = canonical(question.name);
  if (zones.servfail.has(qname)) return { rcode: SERVFAIL, answers: [] };
  const exists = recordsOf(zones, qname) !== undefined || zones.parents.has(qname);
  const delegated = delegationOf(zones, qname);
  if (!exists && !delegated) return { rcode: NXDOMAIN, answers: [] };
  const answers: dnsPacket.Answer[] = [];
  let name = qname;
  for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
    if (delegationOf(zones, name)) return { rcode: NOERROR, answers, forward: name };
    const records = recordsOf(zones, name) ?? [];
    const matching = records.filter((record) => (question.type as string) === 'ANY' || record.type === question.type);
    answers.push(...matching.map((record) => toAnswer(name, record)));
    const cname = records.find((record) => record.type === 'CNAME');
    if (matching.length > 0 || !cname || question.type === 'CNAME') break;
    answers.push(toAnswer(name, cname));
    name = canonical(cname.data as string);
  }
  // A target outside these names is outside this server's authority: NOERROR with the chain so far.
  return { rcode: NOERROR, answers };
}

/** The server a name is delegated to, if it lies in a delegated zone. */
function delegationOf(zones: Zones, name: string): string | undefined {
  for (const [zone, server] of zones.delegations) if (name === zone || name.endsWith(`.${zone}`)) return server;
  return undefined;
}

/** Asks the delegated server (UDP, no recursion) and returns its rcode and answers. */
function forward(server: string, name: string, type: string): Promise<{ rcode: number; answers: dnsPacket.Answer[] }> {
  const [host, port] = [server.slice(0, server.lastIndexOf(':')), Number(server.slice(server.lastIndexOf(':') + 1))];
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const timer = setTimeout(() => finish({ rcode: SERVFAIL, answers: [] }), 2_000);
    const finish = (result: { rcode: number; answers: dnsPacket.Answer[] }) => {
      clearTimeout(timer);
      socket.close();
      resolve(result);
    };
    socket.on('error', () => finish({ rcode: SERVFAIL, answers: [] }));
    socket.on('message', (message: Buffer) => {
      try {
        const answer = dnsPacket.decode(message);
        finish({ rcode: (answer.flags ?? 0) & 0x0f, answers: answer.answers ?? [] });
      } catch {
        finish({ rcode: SERVFAIL, answers: [] });
      }
    });
    const query = dnsPacket.encode({
      type: 'query',
      id: Math.floor(Math.random() * 65_535),
      questions: [{ name, type: type as dnsPacket.RecordType }],
    });
    socket.send(query, port, host);
  });
}

/**
 * The names with their records, the query log, and how many names lie below each parent name, so
 * that telling an empty non-terminal from NXDOMAIN is one map lookup however many names there are.
 */
type Zones = Map<string, DnsRecord[]> & {
  log: DnsServer['queries'];
  parents: Map<string, number>;
  servfail: Set<string>;
  /** Delegated zones and the `ip:port` of the server that answers each. */
  delegations: Map<string, string>;
};

/** Every proper suffix of `name` after a dot: `a.b.c` gives `b.c` and `c`. */
function* parentsOf(name: string): Generator<string> {
  for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) yield name.slice(dot + 1);
}

function putName(zones: Zones, name: string, records: DnsRecord[]): void {
  if (!zones.has(name))
    for (const parent of parentsOf(name)) zones.parents.set(parent, (zones.parents.get(parent) ?? 0) + 1);
  zones.set(name, [...records]);
}

function removeName(zones: Zones, name: string): void {
  if (!zones.delete(name)) return;
  for (const parent of parentsOf(name)) {
    const below = (zones.parents.get(parent) ?? 1) - 1;
    if (below > 0) zones.parents.set(parent, below);
    else zones.parents.delete(parent);
  }
}

const EDNS = { type: 'OPT', name: '.', udpPayloadSize: OUR_UDP_SIZE } as dnsPacket.Answer;

/** The encoded response to a query; over UDP, truncated (TC) when larger than the client accepts. */
async function respond(zones: Zones, query: dnsPacket.DecodedPacket, udp: boolean): Promise<Buffer> {
  const question = query.questions?.[0];
  if (question)
    zones.log.push({ name: canonical(question.name), type: question.type, id: query.id ?? 0, at: Date.now() });
  const found = question ? lookup(zones, question) : { rcode: FORMERR, answers: [] };
  let { rcode, answers } = found;
  if (question && 'forward' in found && found.forward) {
    const delegated = await forward(delegationOf(zones, found.forward)!, found.forward, question.type);
    [rcode, answers] = [delegated.rcode, [...answers, ...delegated.answers]];
  }
  const opt = query.additionals?.find((record) => record.type === 'OPT');
  const response: dnsPacket.Packet = {
    type: 'response',
    id: query.id,
    flags: dnsPacket.AUTHORITATIVE_ANSWER | (query.flag_rd ? dnsPacket.RECURSION_DESIRED : 0) | rcode,
    questions: query.questions,
    answers,
    additionals: opt ? [EDNS] : [],
  };
  const encoded = dnsPacket.encode(response);
  const limit = opt && 'udpPayloadSize' in opt ? Math.max(512, Math.min(opt.udpPayloadSize, OUR_UDP_SIZE)) : 512;
  if (!udp || encoded.length <= limit) return encoded;
  return dnsPacket.encode({ ...response, answers: [], flags: (response.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE });
}

/** DNS over TCP: each message behind a 2-byte length, several per connection. */
function serveTcp(socket: Socket, zones: Zones): void {
  let buffered = Buffer.alloc(0);
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
      const message = buffered.subarray(2, 2 + buffered.readUInt16BE(0));
      buffered = buffered.subarray(2 + message.length);
      let decoded: dnsPacket.DecodedPacket;
      try {
        decoded = dnsPacket.decode(message);
      } catch {
        return void socket.destroy();
      }
      void respond(zones, decoded, false).then(
        (answer) => socket.write(Buffer.concat([Buffer.from([answer.length >> 8, answer.length & 255]), answer])),
        () => socket.destroy(),
      );
    }
  });
}

function listen(zones: Zones): Promise<{ udp: UdpSocket; tcp: Server; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  // A real DNS server is given a large receive buffer (unbound's so-rcvbuf): with the kernel's default
  // (~208 KiB, a few hundred datagrams) the bursts of a monitor's 256 queries in flight overflowed it,
  // and each lost query cost the resolver a 2 s timeout (the kernel caps this at net.core.rmem_max).
  const udp = createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
  udp.on('message', (message: Buffer, peer: RemoteInfo) => {
    let decoded: dnsPacket.DecodedPacket;
    try {
      decoded = dnsPacket.decode(message);
    } catch {
      return; // Not a DNS message: a real server drops it too.
    }
    void respond(zones, decoded, true).then(
      (answer) => udp.send(answer, peer.port, peer.address),
      () => undefined,
    );
  });
  const tcp = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveTcp(socket, zones);
  });
  return new Promise((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(0, '127.0.0.1', () => {
      tcp.once('error', (error) => udp.close(() => reject(error)));
      tcp.listen(udp.address().port, '127.0.0.1', () => resolve({ udp, tcp, sockets }));
    });
  });
}

/** Starts the server; retries when the free UDP port happens to be taken on TCP. */
export async function startDnsServer(initial: DnsZones = {}): Promise<DnsServer> {
  const zones: Zones = Object.assign(new Map<string, DnsRecord[]>(), {
    log: [] as DnsServer['queries'],
    parents: new Map<string, number>(),
    servfail: new Set<string>(),
    delegations: new Map<string, string>(),
  });
  for (const [name, records] of Object.entries(initial)) putName(zones, canonical(name), records);
  let bound: Awaited<ReturnType<typeof listen>> | undefined;
  for (let attempt = 0; !bound; attempt++) {
    try {
      bound = await listen(zones);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 10) throw error;
    }
  }
  const { udp, tcp, sockets } = bound;
  const port = udp.address().port;
  return {
    port,
    address: `127.0.0.1:${port}`,
    queries: zones.log,
    setRecords(name, records) {
      if (records.length === 0) removeName(zones, canonical(name));
      else putName(zones, canonical(name), records);
    },
    setServfail(name, failing = true) {
      if (failing) zones.servfail.add(canonical(name));
      else zones.servfail.delete(canonical(name));
    },
    delegate(zone, server) {
      zones.delegations.set(canonical(zone), server);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}

/**
 * When the monitor probed `hostname` since `from` (epoch ms), from the server's query log: a probe asks
 * the CNAME first; a resolver's retransmission, or a second look of the diagnostics, within a second
 * of it is the same probe.
 */
export function probeTimes(dns: Pick<DnsServer, 'queries'>, hostname: string, from: number): number[] {
  return dns.queries
    .filter((q) => q.name === hostname && q.type === 'CNAME' && q.at >= from)
    .map((q) => q.at)
    .filter((at, i, all) => i === 0 || at - all[i - 1] > 1_000);
}
