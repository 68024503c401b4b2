import { X509Certificate, createHash, randomBytes } from 'node:crypto';
import { IncomingHttpHeaders, OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { TLSSocket, connect } from 'node:tls';
import { eventually } from './eventually';
import { decodeFrame, encodeFrame } from './websocket-frames';

export interface EdgeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** HTTPS only: the certificate the edge presented. */
  fingerprint256?: string;
  authorized?: boolean;
}

export interface EdgeRequest {
  port: number;
  hostname: string;
  path?: string;
  method?: string;
  headers?: OutgoingHttpHeaders;
  /** HTTPS: trust this CA and verify the certificate against `hostname`. */
  ca?: string;
  /** Called with the request to stream a body; otherwise the request ends empty. */
  write?: (req: import('node:http').ClientRequest) => Promise<void> | void;
}

/** One request on a new connection (no pooling, no TLS session reuse): every HTTPS call is a new handshake. */
export function edgeRequest(scheme: 'http' | 'https', r: EdgeRequest): Promise<EdgeResponse> {
  return new Promise((resolve, reject) => {
    const options = {
      host: '127.0.0.1',
      port: r.port,
      path: r.path ?? '/',
      method: r.method ?? 'GET',
      headers: { host: r.hostname, ...r.headers },
      agent: false as const,
    };
    const req =
      scheme === 'https'
        ? httpsRequest({ ...options, servername: r.hostname, ca: r.ca, rejectUnauthorized: r.ca !== undefined })
        : httpRequest(options);
    req.on('error', reject);
    req.on('response', (res) => {
      const socket = res.socket as TLSSocket;
      const tls =
        scheme === 'https'
          ? { fingerprint256: socket.getPeerCertificate().fingerprint256, authorized: socket.authorized }
          : {};
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString(), ...tls }),
      );
      res.on('error', reject);
    });
    Promise.resolve(r.write ? r.write(req) : undefined).then(
      () => req.end(),
      (error: unknown) => (req.destroy(), reject(error as Error)),
    );
  });
}

/** A TLS handshake alone; resolves with the presented certificate's fingerprint, rejects if refused. */
export function tlsHandshake(port: number, servername: string, ca?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername, ca, rejectUnauthorized: ca !== undefined }, () => {
      resolve(socket.getPeerCertificate().fingerprint256);
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

/**
 * Waits until the edge presents the certificate with `fingerprint256` for `servername`: a
 * certificate stored straight into the database reaches the edge through its replica within a
 * poll of the change log (250 ms), not at once.
 */
export function untilServed(port: number, servername: string, fingerprint256: string): Promise<X509Certificate> {
  return eventually(
    () => servedCertificate(port, servername).catch(() => undefined),
    (served) => served?.fingerprint256 === fingerprint256,
    { timeoutMs: 5_000, everyMs: 25, what: `the edge to serve the stored certificate of ${servername}` },
  ) as Promise<X509Certificate>;
}

/** The certificate the edge presents for `servername`, read over TLS as a visitor's browser would (not verified). */
export function servedCertificate(port: number, servername: string): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      const raw = socket.getPeerX509Certificate();
      socket.destroy();
      if (raw) resolve(raw);
      else reject(new Error('no certificate'));
    });
    socket.once('error', reject);
  });
}

/** A WebSocket handshake over TLS, one text frame sent, the first frame back. */
export function websocketEcho(
  port: number,
  hostname: string,
  ca: string,
  text: string,
  path = '/ws',
): Promise<{ status: number; acceptValid: boolean; reply: string }> {
  return new Promise((resolve, reject) => {
    const key = randomBytes(16).toString('base64');
    const expected = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC11B85`).digest('base64');
    const socket = connect({ host: '127.0.0.1', port, servername: hostname, ca }, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    let buffered = Buffer.alloc(0);
    let head: { status: number; acceptValid: boolean } | undefined;
    const timer = setTimeout(() => (socket.destroy(), reject(new Error('WebSocket echo timed out'))), 10_000);
    socket.on('error', (error: Error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!head) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end === -1) return;
        const lines = buffered.subarray(0, end).toString().split('\r\n');
        const accept = lines
          .find((l) => /^sec-websocket-accept:/i.test(l))
          ?.split(':')[1]
          ?.trim();
        head = { status: Number(lines[0].split(' ')[1]), acceptValid: accept === expected };
        buffered = buffered.subarray(end + 4);
        if (head.status !== 101) return (clearTimeout(timer), socket.destroy(), resolve({ ...head, reply: '' }));
        socket.write(encodeFrame(text, true));
      }
      const frame = decodeFrame(buffered);
      if (frame) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ ...head, reply: frame.text });
      }
    });
  });
}
