import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, errors, request } from 'undici';
import { AcmeNetworkError } from './acme-problem';

export interface AcmeResponse {
  status: number;
  headers: Record<string, string | undefined>;
  /** Parsed JSON when the CA answered JSON (objects and problem documents), else the text. */
  body: unknown;
  text: string;
}

/** A CA answers in seconds; one that holds a connection longer is treated as down. */
const TIMEOUT_MS = 20_000;

/**
 * HTTPS to one CA through undici, with the CA's extra trust anchor when it has one (a private CA or
 * Pebble). Every transport failure becomes an AcmeNetworkError that names the host and the cause.
 */
export class AcmeHttp {
  private readonly agent: Agent;

  constructor(caFile?: string) {
    // One context made here: passing `ca` instead would parse the ~140 roots again for every new
    // connection (11 s of a node's 110 s in the `certificates.issuance-scale` profile).
    const secureContext = caFile
      ? createSecureContext({ ca: [...rootCertificates, readFileSync(caFile, 'utf8')] })
      : undefined;
    this.agent = new Agent({ connect: { secureContext, timeout: TIMEOUT_MS }, keepAliveTimeout: 30_000 });
  }

  async send(method: 'GET' | 'HEAD' | 'POST', url: string, body?: unknown): Promise<AcmeResponse> {
    try {
      const response = await request(url, {
        method,
        dispatcher: this.agent,
        headers: body === undefined ? {} : { 'content-type': 'application/jose+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        headersTimeout: TIMEOUT_MS,
        bodyTimeout: TIMEOUT_MS,
      });
      const text = await response.body.text();
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(response.headers))
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      const json = /json/.test(headers['content-type'] ?? '');
      return { status: response.statusCode, headers, body: json && text ? JSON.parse(text) : text, text };
    } catch (error) {
      throw networkError(url, error);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function networkError(url: string, error: unknown): Error {
  if (error instanceof SyntaxError) return new AcmeNetworkError(url, 'EBADJSON', 'the answer was not valid JSON');
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = (error as { code?: string }).code ?? cause?.code ?? 'ENETWORK';
  if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError)
    return new AcmeNetworkError(url, 'ETIMEDOUT', `no answer within ${TIMEOUT_MS / 1000} s`);
  if (error instanceof errors.ConnectTimeoutError)
    return new AcmeNetworkError(url, 'ETIMEDOUT', `connecting timed out after ${TIMEOUT_MS / 1000} s`);
  const detail = (error as Error).message || cause?.message || code;
  return new AcmeNetworkError(url, code, `${code === detail ? '' : `${code}: `}${detail}`);
}
