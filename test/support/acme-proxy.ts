import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Agent, Server, createServer, request as httpsRequest } from 'node:https';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBytes } from '../fakes/http-fake';
import { freePort, retryOnPortCollision } from './free-ports';
import { Pebble, loopbackCertificate } from './pebble';

/**
 * A pass-through HTTPS proxy in front of a real Pebble that adds what Pebble 2.4.0 lacks: ACME
 * Renewal Information (RFC 9773), profiles in the directory, and problems on demand (rate limits,
 * CAA, a CA refusing everything, an outage).
 *
 * Requests go to Pebble with their Host header unchanged: Pebble builds every URL it hands out,
 * and checks each JWS `url`, from the request's Host, so its answers already name the proxy and
 * nothing is rewritten. Bodies are small (JSON, PEM), so both directions are buffered.
 */

/** An ACME problem document (RFC 8555 section 6.7) the proxy answers by itself. */
export interface AcmeProblem {
  /** e.g. `urn:ietf:params:acme:error:rateLimited` (429) or `urn:ietf:params:acme:error:caa` (403). */
  type: string;
  detail: string;
  status: number;
  /** Sent as Retry-After when given. */
  retryAfterSeconds?: number;
}

/** A newOrder request's JWS payload as the client sent it (not verified: Pebble does that). */
export interface RecordedOrder {
  identifiers: Array<{ type: string; value: string }>;
  profile?: string;
  /** RFC 9773 section 5: the certID of the certificate this order renews. */
  replaces?: string;
  /** The problem type the proxy answered instead of forwarding the order, if it did. */
  injected?: string;
  /** When the newOrder POST arrived (ms since the epoch). */
  at: number;
}

/** A certificate that came back through the proxy (the leaf of a certificate URL's chain). */
export interface RecordedCertificate {
  /** The RFC 9773 identifier: base64url(AKI keyIdentifier) "." base64url(serial content octets). */
  certId: string;
  /** Lowercase hex of the serial, without leading zeros. */
  serialHex: string;
  notBefore: Date;
  notAfter: Date;
  /** The whole chain as served. */
  pem: string;
}

export interface RenewalWindow {
  start: Date;
  end: Date;
}

export interface AcmeProxy {
  /** The directory through the proxy (use as ACME_DIRECTORY_URL). */
  directoryUrl: string;
  /** `https://127.0.0.1:PORT`. */
  origin: string;
  /** The directory's `renewalInfo` URL; GET `${renewalInfoUrl}/${certId}`. */
  renewalInfoUrl: string;
  /** One PEM holding the proxy's certificate and Pebble's (use as ACME_CA_FILE). */
  caFile: string;
  upstream: Pebble;
  /** newOrder payloads in arrival order, refused ones included. */
  orders(): RecordedOrder[];
  certificates(): RecordedCertificate[];
  /** GETs of renewal information so far, of one certID when given (unknown ones included). */
  renewalInfoRequests(certId?: string): number;
  /**
   * The window (and Retry-After) ARI answers for a certificate from now on: by its PEM (which
   * also makes it known if it did not pass through) or by the hex serial of one that did.
   */
  setRenewalWindow(certPemOrSerialHex: string, window: RenewalWindow, retryAfterSeconds?: number): void;
  /** The next `count` newOrder POSTs get `problem` instead of reaching Pebble (queued after earlier calls). */
  failNextOrders(count: number, problem: AcmeProblem): void;
  /** Every POST gets `problem` (undefined: stop); the directory, nonces and ARI still answer. */
  failAll(problem: AcmeProblem | undefined): void;
  /** true: connections are reset (open ones at once), as in a CA outage; the port stays bound. */
  down(isDown: boolean): void;
  stop(): Promise<void>;
}

/** Retry-After of ARI answers unless told: six hours, RFC 9773's suggestion for the usual case. */
const DEFAULT_RENEWAL_RETRY_AFTER = 21_600;
const RENEWAL_INFO_PATH = '/renewal-info';
/** Hop-by-hop headers, and content-length, which is set anew for the buffered body. */
const NOT_COPIED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
]);

export async function startAcmeProxy(options: {
  upstream: Pebble;
  /** Profile names to descriptions for the directory's `meta.profiles` (draft-ietf-acme-profiles). */
  profiles?: Record<string, string>;
  /** Retry-After of ARI answers without one of their own (default 21600). */
  renewalRetryAfterSeconds?: number;
}): Promise<AcmeProxy> {
  const { upstream } = options;
  const upstreamUrl = new URL(upstream.directoryUrl);
  const dir = mkdtempSync(join(tmpdir(), 'acme-proxy-'));
  const sockets = new Set<Socket>();
  const agent = new Agent({ ca: readFileSync(upstream.caFile), keepAlive: true });
  let server: Server | undefined;
  const stop = async () => {
    for (const socket of sockets) socket.destroy();
    if (server?.listening) await new Promise<void>((resolve) => server!.close(() => resolve()));
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const { certFile, keyFile } = loopbackCertificate(dir, 'acme-proxy');
    const caFile = join(dir, 'ca.pem');
    // One file for both: a client configured with one ACME_CA_FILE per issuer may be pointed at
    // the proxy or at Pebble itself.
    writeFileSync(
      caFile,
      `${readFileSync(certFile, 'utf8').trim()}\n${readFileSync(upstream.caFile, 'utf8').trim()}\n`,
    );

    // Pebble's own paths (its directory is the one place that names them).
    const upstreamDirectory = JSON.parse(
      (await forward(agent, upstreamUrl, { method: 'GET', path: upstreamUrl.pathname, headers: {} })).body.toString(),
    ) as Record<string, unknown>;
    const pathOf = (key: string) => new URL(String(upstreamDirectory[key])).pathname;
    const paths = { directory: upstreamUrl.pathname, newNonce: pathOf('newNonce'), newOrder: pathOf('newOrder') };

    const state = {
      orders: [] as RecordedOrder[],
      certificates: new Map<string, RecordedCertificate>(),
      windows: new Map<string, { window: RenewalWindow; retryAfterSeconds?: number }>(),
      renewalInfoRequests: [] as string[],
      failures: [] as AcmeProblem[],
      failAll: undefined as AcmeProblem | undefined,
      down: false,
    };

    const record = (pem: string): RecordedCertificate | undefined => {
      const info = readCertificate(pem);
      if (!info.keyIdentifier) return undefined; // no AKI: no certID, nothing ARI could name
      const certificate: RecordedCertificate = {
        certId: ariCertId(info.keyIdentifier, info.serial),
        serialHex: normalSerial(info.serial.toString('hex')),
        notBefore: info.notBefore,
        notAfter: info.notAfter,
        pem,
      };
      state.certificates.set(certificate.certId, certificate);
      return certificate;
    };

    /** A problem answered by the proxy, with a fresh nonce from Pebble so the client can go on. */
    const answerProblem = async (req: IncomingMessage, res: ServerResponse, problem: AcmeProblem) => {
      const nonce = await forward(agent, upstreamUrl, {
        method: 'HEAD',
        path: paths.newNonce,
        headers: { host: req.headers.host },
      }).then(
        (answer) => answer.headers['replay-nonce'] as string | undefined,
        () => undefined,
      );
      const body = JSON.stringify({ type: problem.type, detail: problem.detail, status: problem.status });
      res.writeHead(problem.status, {
        'content-type': 'application/problem+json',
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
        link: `<https://${req.headers.host}${paths.directory}>;rel="index"`,
        ...(nonce ? { 'replay-nonce': nonce } : {}),
        ...(problem.retryAfterSeconds !== undefined ? { 'retry-after': String(problem.retryAfterSeconds) } : {}),
      });
      res.end(body);
    };

    const renewalInfo = (certId: string, res: ServerResponse) => {
      state.renewalInfoRequests.push(certId);
      const certificate = state.certificates.get(certId);
      if (!certificate) {
        // Boulder answers an unknown certificate so: 404 with the `malformed` type (ACME has no "not found").
        const body = JSON.stringify({
          type: 'urn:ietf:params:acme:error:malformed',
          detail: `no certificate with certID ${certId} passed through this proxy`,
          status: 404,
        });
        res.writeHead(404, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return;
      }
      const set = state.windows.get(certId);
      const window = set?.window ?? defaultRenewalWindow(certificate.notBefore, certificate.notAfter);
      const body = JSON.stringify({
        suggestedWindow: { start: window.start.toISOString(), end: window.end.toISOString() },
      });
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'retry-after': String(
          set?.retryAfterSeconds ?? options.renewalRetryAfterSeconds ?? DEFAULT_RENEWAL_RETRY_AFTER,
        ),
      });
      res.end(body);
    };

    const handle = async (req: IncomingMessage, res: ServerResponse) => {
      const body = await readBytes(req);
      const path = new URL(req.url ?? '/', 'https://proxy.invalid').pathname;
      if (req.method === 'GET' && path.startsWith(`${RENEWAL_INFO_PATH}/`)) {
        return renewalInfo(decodeURIComponent(path.slice(RENEWAL_INFO_PATH.length + 1)), res);
      }
      if (req.method === 'POST' && path === paths.newOrder) {
        const payload = jwsPayload(body);
        const injected = state.failAll ?? state.failures.shift();
        if (payload) {
          state.orders.push({
            identifiers: Array.isArray(payload.identifiers)
              ? (payload.identifiers as RecordedOrder['identifiers'])
              : [],
            ...(typeof payload.profile === 'string' ? { profile: payload.profile } : {}),
            ...(typeof payload.replaces === 'string' ? { replaces: payload.replaces } : {}),
            ...(injected ? { injected: injected.type } : {}),
            at: Date.now(),
          });
        }
        if (injected) return answerProblem(req, res, injected);
      }
      if (req.method === 'POST' && state.failAll) return answerProblem(req, res, state.failAll);

      const answer = await forward(agent, upstreamUrl, {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
      });
      let answerBody = answer.body;
      const contentType = String(answer.headers['content-type'] ?? '');
      if (req.method === 'GET' && path === paths.directory && answer.status === 200) {
        const directory = JSON.parse(answerBody.toString()) as { meta?: Record<string, unknown> };
        answerBody = Buffer.from(
          JSON.stringify({
            ...directory,
            renewalInfo: `https://${req.headers.host}${RENEWAL_INFO_PATH}`,
            ...(options.profiles ? { meta: { ...directory.meta, profiles: options.profiles } } : {}),
          }),
        );
      } else if (answer.status === 200 && contentType.startsWith('application/pem-certificate-chain')) {
        record(answerBody.toString());
      }
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!NOT_COPIED.has(name) && value !== undefined) headers[name] = value;
      }
      if (req.method === 'HEAD') {
        if (answer.headers['content-length']) headers['content-length'] = answer.headers['content-length'];
      } else {
        headers['content-length'] = answerBody.length;
      }
      res.writeHead(answer.status, headers);
      res.end(req.method === 'HEAD' ? undefined : answerBody);
    };

    const origin = await retryOnPortCollision(async () => {
      const port = await freePort();
      const https = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
        handle(req, res).catch((error: Error) => {
          // Pebble unreachable (stopped, or mid-restart): a gateway's answer, as a real one would give.
          if (res.headersSent) return void res.destroy();
          const body = JSON.stringify({
            type: 'urn:ietf:params:acme:error:serverInternal',
            detail: `acme proxy: ${error.message}`,
            status: 502,
          });
          res.writeHead(502, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
          res.end(body);
        });
      });
      // The raw TCP socket, before TLS: a reset here is what a client sees of a CA that is down.
      https.on('connection', (socket: Socket) => {
        if (state.down) return void socket.resetAndDestroy();
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
      });
      // A reset socket fails its TLS handshake: expected, nothing to report.
      https.on('tlsClientError', () => undefined);
      await new Promise<void>((resolve, reject) => {
        https.once('error', reject);
        https.listen(port, '127.0.0.1', () => {
          https.off('error', reject);
          resolve();
        });
      });
      server = https;
      return `https://127.0.0.1:${port}`;
    });

    return {
      directoryUrl: `${origin}${paths.directory}`,
      origin,
      renewalInfoUrl: `${origin}${RENEWAL_INFO_PATH}`,
      caFile,
      upstream,
      orders: () => state.orders.map((order) => ({ ...order })),
      certificates: () => [...state.certificates.values()],
      renewalInfoRequests: (certId) =>
        certId === undefined
          ? state.renewalInfoRequests.length
          : state.renewalInfoRequests.filter((id) => id === certId).length,
      setRenewalWindow: (certPemOrSerialHex, window, retryAfterSeconds) => {
        let certificate: RecordedCertificate | undefined;
        if (certPemOrSerialHex.includes('-----BEGIN')) {
          certificate = record(certPemOrSerialHex);
          if (!certificate) throw new Error('setRenewalWindow: the certificate has no authority key identifier');
        } else {
          const serialHex = normalSerial(certPemOrSerialHex);
          certificate = [...state.certificates.values()].find((c) => c.serialHex === serialHex);
          if (!certificate) throw new Error(`setRenewalWindow: no certificate with serial ${serialHex} passed through`);
        }
        state.windows.set(certificate.certId, { window, retryAfterSeconds });
      },
      failNextOrders: (count, problem) => {
        for (let i = 0; i < count; i++) state.failures.push(problem);
      },
      failAll: (problem) => {
        state.failAll = problem;
      },
      down: (isDown) => {
        state.down = isDown;
        if (isDown) for (const socket of sockets) socket.resetAndDestroy();
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The default suggested window: it ends at two thirds of the lifetime (when Let's Encrypt's
 * clients renew without ARI) and starts a twelfth of the lifetime before (for 90 days: days 52.5
 * to 60), well inside the validity.
 */
export function defaultRenewalWindow(notBefore: Date, notAfter: Date): RenewalWindow {
  const lifetime = notAfter.getTime() - notBefore.getTime();
  const end = notBefore.getTime() + (lifetime * 2) / 3;
  return { start: new Date(end - lifetime / 12), end: new Date(end) };
}

/**
 * RFC 9773 section 4.1: base64url (no padding) of the AKI extension's keyIdentifier, ".", and
 * base64url of the serial's DER content octets, a leading 0x00 included when the DER has one
 * (serial 0x87654321 is the bytes 00 87 65 43 21).
 */
export function ariCertId(keyIdentifier: Uint8Array, serialContentOctets: Uint8Array): string {
  return `${Buffer.from(keyIdentifier).toString('base64url')}.${Buffer.from(serialContentOctets).toString('base64url')}`;
}

/** The certID of a certificate (the first of a PEM chain). */
export function ariCertIdOf(pem: string): string {
  const { keyIdentifier, serial } = readCertificate(pem);
  if (!keyIdentifier) throw new Error('the certificate has no authority key identifier: no ARI certID');
  return ariCertId(keyIdentifier, serial);
}

/** Lowercase hex without separators or leading zeros: one spelling for serials from anywhere. */
function normalSerial(hex: string): string {
  return hex
    .replace(/[:\s]/g, '')
    .toLowerCase()
    .replace(/^0+(?=.)/, '');
}

interface Tlv {
  tag: number;
  /** First content byte and the byte after the content. */
  start: number;
  end: number;
}

function readTlv(der: Buffer, offset: number): Tlv {
  const tag = der[offset];
  let length = der[offset + 1];
  let start = offset + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4) throw new Error('unsupported DER length');
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start++];
  }
  if (tag === undefined || start + length > der.length) throw new Error('truncated DER');
  return { tag, start, end: start + length };
}

function childrenOf(der: Buffer, parent: Tlv): Tlv[] {
  const children: Tlv[] = [];
  for (let offset = parent.start; offset < parent.end;) {
    const child = readTlv(der, offset);
    children.push(child);
    offset = child.end;
  }
  return children;
}

// id-ce-authorityKeyIdentifier, 2.5.29.35, as DER content octets.
const AKI_OID = Buffer.from([0x55, 0x1d, 0x23]);

/**
 * The fields ARI needs, read from the DER itself: Node's X509Certificate gives the serial without
 * its DER sign byte and has no AKI accessor.
 */
function readCertificate(pem: string): {
  serial: Buffer;
  keyIdentifier?: Buffer;
  notBefore: Date;
  notAfter: Date;
} {
  const der = new X509Certificate(pem).raw;
  const tbs = childrenOf(der, readTlv(der, 0))[0];
  const fields = childrenOf(der, tbs);
  // [0] version is optional (absent: v1); the serial follows it.
  let index = fields[0].tag === 0xa0 ? 1 : 0;
  const serialTlv = fields[index++];
  index++; // signature algorithm
  index++; // issuer
  const [notBefore, notAfter] = childrenOf(der, fields[index]).map((time) => derTime(der, time));
  let keyIdentifier: Buffer | undefined;
  const extensions = fields.find((field) => field.tag === 0xa3);
  if (extensions) {
    for (const extension of childrenOf(der, childrenOf(der, extensions)[0])) {
      const [oid, ...rest] = childrenOf(der, extension);
      if (!der.subarray(oid.start, oid.end).equals(AKI_OID)) continue;
      const value = rest[rest.length - 1]; // extnValue, after the optional `critical`
      const aki = readTlv(der, value.start); // AuthorityKeyIdentifier ::= SEQUENCE
      const keyId = childrenOf(der, aki).find((part) => part.tag === 0x80); // keyIdentifier [0] IMPLICIT
      if (keyId) keyIdentifier = Buffer.from(der.subarray(keyId.start, keyId.end));
    }
  }
  return { serial: Buffer.from(der.subarray(serialTlv.start, serialTlv.end)), keyIdentifier, notBefore, notAfter };
}

/** UTCTime (YYMMDDHHMMSSZ, 1950-2049) or GeneralizedTime (YYYYMMDDHHMMSSZ). */
function derTime(der: Buffer, tlv: Tlv): Date {
  const text = der.subarray(tlv.start, tlv.end).toString('latin1');
  const digits = tlv.tag === 0x17 ? `${Number(text.slice(0, 2)) < 50 ? '20' : '19'}${text}` : text;
  const [year, month, day, hour, minute, second] = [0, 4, 6, 8, 10, 12].map((at, i) =>
    Number(digits.slice(at, i === 0 ? 4 : at + 2)),
  );
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second));
  date.setUTCFullYear(year); // Date.UTC maps years 0-99 to 1900-1999
  return date;
}

/** The decoded payload of a flattened JWS (RFC 7515 section 7.2.2), or undefined if it is none. */
function jwsPayload(body: Buffer): Record<string, unknown> | undefined {
  try {
    const jws = JSON.parse(body.toString()) as { payload?: string };
    if (!jws.payload) return undefined;
    const payload = JSON.parse(Buffer.from(jws.payload, 'base64url').toString()) as unknown;
    return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** One request to Pebble: its Host header stays the client's (see the module comment). */
function forward(
  agent: Agent,
  upstream: URL,
  request: { method: string; path: string; headers: IncomingHttpHeaders; body?: Buffer },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!NOT_COPIED.has(name) && value !== undefined) headers[name] = value;
  }
  if (request.body?.length) headers['content-length'] = request.body.length;
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest(
      {
        agent,
        hostname: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.path,
        headers,
        timeout: 30_000,
      },
      (incoming) => {
        readBytes(incoming).then(
          (body) => resolve({ status: incoming.statusCode ?? 502, headers: incoming.headers, body }),
          reject,
        );
      },
    );
    outgoing.once('timeout', () => outgoing.destroy(new Error('Pebble did not answer within 30 s')));
    outgoing.once('error', reject);
    outgoing.end(request.body);
  });
}
