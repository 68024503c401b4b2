import { APP_CONFIG, AppConfig } from '@app/config';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { createSocket, RemoteInfo, Socket as UdpSocket } from 'node:dgram';
import { createServer, isIP, Server, Socket } from 'node:net';
import { CHALLENGE_DNS_OPTIONS, ChallengeDnsOptions } from './challenge-dns.options';
import { SourceRateLimiter } from './model/source-rate-limiter';
import { QueryResponder } from './query-responder';
import { frame, TcpFraming } from './tcp-framing';

/**
 * The challenge zone's authoritative DNS listener, UDP and TCP on ACME_CHALLENGE_DNS_PORT, in every
 * edge process when ACME_CHALLENGE_ZONE is set. One source address gets ACME_CHALLENGE_DNS_QPS
 * queries a second (bursts of twice that): beyond it UDP queries are dropped and TCP closed. It
 * may hold a few TCP connections open at once (idle ones are closed after a few seconds).
 */
@Injectable()
export class ChallengeDnsServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ChallengeDnsServer.name);
  private udp?: UdpSocket;
  private tcp?: Server;
  private readonly connections = new Set<Socket>();
  private readonly connectionsFrom = new Map<string, number>();
  private limiter?: SourceRateLimiter;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CHALLENGE_DNS_OPTIONS) private readonly options: ChallengeDnsOptions,
    private readonly responder: QueryResponder,
  ) {}

  /** The bound port (0 when the zone is not configured). */
  port(): number {
    return this.udp?.address().port ?? 0;
  }

  async onApplicationBootstrap(): Promise<void> {
    const zone = this.config.challengeZone;
    if (!zone) return;
    this.limiter = new SourceRateLimiter(zone.queriesPerSecond, this.options.maxTrackedSources);
    const host = this.options.listenHost;
    // A large receive buffer, as real DNS servers set (unbound's so-rcvbuf): the kernel's default
    // holds a few hundred datagrams, and a burst beyond it is lost before we read it.
    this.udp = createSocket({ type: isIP(host) === 6 ? 'udp6' : 'udp4', recvBufferSize: 4 * 1024 * 1024 });
    this.udp.on('message', (message, peer) => this.onDatagram(message, peer));
    this.udp.on('error', (error) => this.logger.warn({ error }, 'DNS UDP socket error'));
    this.tcp = createServer((socket) => this.onConnection(socket));
    this.tcp.maxConnections = this.options.maxTcpConnections;
    try {
      await new Promise<void>((resolve, reject) => {
        this.udp!.once('error', reject);
        this.udp!.bind(zone.port, host, () => resolve());
      });
      await new Promise<void>((resolve, reject) => {
        this.tcp!.once('error', reject);
        this.tcp!.listen(zone.port, host, () => resolve());
      });
    } catch (error) {
      // Port 53 needs root, CAP_NET_BIND_SERVICE or net.ipv4.ip_unprivileged_port_start (k8s/base/edge.yaml).
      throw new Error(
        `Cannot listen for DNS on ${host}:${zone.port} (ACME_CHALLENGE_DNS_PORT): ${(error as Error).message}`,
      );
    }
    this.logger.log(`DNS for ${zone.zone} on UDP and TCP ${host}:${this.port()}`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const socket of this.connections) socket.destroy();
    await Promise.all([
      this.udp && new Promise<void>((resolve) => this.udp!.close(() => resolve())),
      this.tcp?.listening && new Promise<void>((resolve) => this.tcp!.close(() => resolve())),
    ]);
  }

  private onDatagram(message: Buffer, peer: RemoteInfo): void {
    if (!this.limiter!.allow(peer.address, Date.now())) return this.responder.rateLimited('udp');
    void this.responder.respond(message, 'udp').then((response) => {
      if (response) this.udp?.send(response, peer.port, peer.address);
    });
  }

  private onConnection(socket: Socket): void {
    const source = socket.remoteAddress ?? '';
    const open = this.connectionsFrom.get(source) ?? 0;
    if (open >= this.options.maxTcpConnectionsPerSource) {
      this.responder.rateLimited('tcp');
      return void socket.destroy();
    }
    this.connectionsFrom.set(source, open + 1);
    this.connections.add(socket);
    socket.on('close', () => {
      this.connections.delete(socket);
      const left = (this.connectionsFrom.get(source) ?? 1) - 1;
      if (left > 0) this.connectionsFrom.set(source, left);
      else this.connectionsFrom.delete(source);
    });
    socket.on('error', () => socket.destroy());
    socket.setTimeout(this.options.tcpIdleMs, () => socket.destroy());
    const framing = new TcpFraming();
    // Answers go back in the order asked; a query waiting on a reload holds the ones behind it.
    let answered = Promise.resolve();
    socket.on('data', (chunk: Buffer) => {
      for (const message of framing.push(chunk)) {
        answered = answered.then(async () => {
          if (socket.destroyed || socket.writableEnded) return;
          if (!this.limiter!.allow(source, Date.now())) {
            this.responder.rateLimited('tcp');
            // end, not destroy: the answers already written still reach the client, then the connection closes.
            socket.end();
            return void socket.setTimeout(1_000, () => socket.destroy());
          }
          const response = await this.responder.respond(message, 'tcp');
          if (response) socket.write(frame(response));
        });
      }
    });
  }
}
