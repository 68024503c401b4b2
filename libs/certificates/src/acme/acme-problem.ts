/**
 * What went wrong talking to a CA, kept as the CA said it: the RFC 8555 problem document's `type`
 * (`urn:ietf:params:acme:error:rateLimited`, `caa`, ...), its detail, the HTTP status and the
 * Retry-After the CA asked for. A transport failure is an AcmeNetworkError with the system's code
 * (ECONNREFUSED, ETIMEDOUT, ...), never a crash inside a client library.
 */
const ACME_ERROR = 'urn:ietf:params:acme:error:';

export interface ProblemDocument {
  type?: string;
  detail?: string;
  status?: number;
  identifier?: { type: string; value: string };
  subproblems?: ProblemDocument[];
}

export class AcmeProblem extends Error {
  constructor(
    readonly problem: ProblemDocument,
    readonly status: number,
    readonly retryAfter?: Date,
    /** What we were doing (`new order`, `validation of shop.example.com`), for the message. */
    readonly step?: string,
  ) {
    super(`${step ? `${step}: ` : ''}${problem.detail ?? problem.type ?? `HTTP ${status}`}`);
    this.name = 'AcmeProblem';
  }

  /** The short type (`rateLimited`), or the whole URI for a type outside the ACME namespace. */
  get kind(): string {
    const type = this.problem.type ?? '';
    return type.startsWith(ACME_ERROR) ? type.slice(ACME_ERROR.length) : type;
  }

  /** This problem's kind, and those of its subproblems (a CAA refusal can sit in a subproblem). */
  kinds(): string[] {
    const sub = (this.problem.subproblems ?? []).map((p) => new AcmeProblem(p, this.status).kind);
    return [this.kind, ...sub];
  }
}

export class AcmeNetworkError extends Error {
  constructor(
    readonly url: string,
    /** The system's or the HTTP client's code (ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT, ...). */
    readonly code: string,
    detail: string,
  ) {
    super(`${new URL(url).host} could not be reached: ${detail}`);
    this.name = 'AcmeNetworkError';
  }
}

/** Retry-After as seconds or an HTTP date (RFC 9110 section 10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): Date | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return new Date(now.getTime() + Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : new Date(at);
}
