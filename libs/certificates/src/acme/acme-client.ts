import { AcmeHttp, AcmeResponse } from './acme-http';
import { AccountKey } from './acme-jws';
import { AcmeProblem, ProblemDocument, parseRetryAfter } from './acme-problem';

export interface AcmeDirectory {
  newNonce: string;
  newAccount: string;
  newOrder: string;
  renewalInfo?: string;
  meta?: { profiles?: Record<string, string>; externalAccountRequired?: boolean };
}

export interface AcmeChallenge {
  type: string;
  url: string;
  token: string;
  status: string;
  error?: ProblemDocument;
}

export interface AcmeAuthorization {
  status: string;
  /** For `*.example.com` the identifier is `example.com` with `wildcard: true` (RFC 8555 section 7.1.4). */
  identifier: { type: string; value: string };
  wildcard?: boolean;
  challenges: AcmeChallenge[];
}

export interface AcmeOrder {
  url: string;
  status: string;
  authorizations: string[];
  finalize: string;
  certificate?: string;
  error?: ProblemDocument;
}

export interface RenewalInfo {
  window: { start: Date; end: Date };
  /** When to ask again (Retry-After of the answer, RFC 9773 section 4.3). */
  retryAfter?: Date;
  explanationUrl?: string;
}

/**
 * Polling of a challenge or order: 250 ms, doubling to 10 s, or what the CA's Retry-After asks. A CA
 * often validates or signs within a second; a first wait of 1 s was most of an order's time against
 * Pebble (bench `certificates.time-to-https`), and the doubling keeps a slow CA to a handful of polls.
 */
const POLL_MIN_MS = 250;
const POLL_MAX_MS = 10_000;
const NONCE_RETRIES = 3;

/**
 * A small RFC 8555 client for one CA and one account: what this service uses and nothing else
 * (account with External Account Binding, orders with `profile` and `replaces`, HTTP-01 and DNS-01, ACME
 * Renewal Information). Every failure is an AcmeProblem with the CA's own type and Retry-After, or
 * an AcmeNetworkError; `sleep` and `now` are injected so polling can be tested.
 */
export class AcmeClient {
  private directoryCache?: AcmeDirectory;
  private nonces: string[] = [];

  constructor(
    private readonly http: AcmeHttp,
    readonly directoryUrl: string,
    readonly key: AccountKey,
    private accountUrl?: string,
    private readonly clock: { now(): Date; sleep(ms: number): Promise<void> } = {
      now: () => new Date(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
  ) {}

  async directory(): Promise<AcmeDirectory> {
    if (!this.directoryCache) {
      const answer = await this.http.send('GET', this.directoryUrl);
      if (answer.status !== 200 || typeof answer.body !== 'object') throw this.problem(answer, 'directory');
      this.directoryCache = answer.body as AcmeDirectory;
    }
    return this.directoryCache;
  }

  get account(): string | undefined {
    return this.accountUrl;
  }

  /** Registers the account (or finds it again: the CA answers 200 with its URL for a known key). */
  async register(options: { contact?: string[]; eab?: { kid: string; hmacKey: string } }): Promise<string> {
    const { newAccount } = await this.directory();
    const payload: Record<string, unknown> = { termsOfServiceAgreed: true };
    if (options.contact?.length) payload.contact = options.contact;
    if (options.eab)
      payload.externalAccountBinding = await this.key.externalAccountBinding(
        newAccount,
        options.eab.kid,
        options.eab.hmacKey,
      );
    const answer = await this.post(newAccount, payload, 'account registration', true);
    const location = answer.headers.location;
    if (!location) throw new AcmeProblem({ detail: 'The CA gave the new account no URL' }, answer.status);
    this.accountUrl = location;
    return location;
  }

  async newOrder(names: string[], options: { profile?: string; replaces?: string } = {}): Promise<AcmeOrder> {
    const directory = await this.directory();
    const payload: Record<string, unknown> = { identifiers: names.map((value) => ({ type: 'dns', value })) };
    // Only what the directory offers: a CA without profiles or ARI may refuse unknown fields.
    if (options.profile && directory.meta?.profiles?.[options.profile]) payload.profile = options.profile;
    if (options.replaces && directory.renewalInfo) payload.replaces = options.replaces;
    const answer = await this.post(directory.newOrder, payload, 'new order');
    if (!answer.headers.location) throw new AcmeProblem({ detail: 'The CA gave the new order no URL' }, answer.status);
    return { ...(answer.body as Omit<AcmeOrder, 'url'>), url: answer.headers.location };
  }

  async authorization(url: string): Promise<AcmeAuthorization> {
    return (await this.post(url, undefined, 'authorization')).body as AcmeAuthorization;
  }

  /** Tells the CA the challenge is ready, then waits until it is valid (or throws what the CA saw). */
  async validate(challenge: AcmeChallenge, name: string, deadline: Date): Promise<void> {
    const step = `validation of ${name}`;
    let answer = await this.post(challenge.url, {}, step);
    for (let poll = 0; ; poll++) {
      const current = answer.body as AcmeChallenge;
      if (current.status === 'valid') return;
      if (current.status === 'invalid')
        throw new AcmeProblem(current.error ?? { detail: 'The CA found the challenge invalid' }, 403, undefined, step);
      await this.wait(answer, deadline, step, poll);
      answer = await this.post(challenge.url, undefined, step);
    }
  }

  /** Sends the CSR and waits for the certificate URL. */
  async finalize(order: AcmeOrder, csrDer: Buffer, deadline: Date): Promise<AcmeOrder> {
    let answer = await this.post(order.finalize, { csr: csrDer.toString('base64url') }, 'finalization');
    for (let poll = 0; ; poll++) {
      const current = { ...(answer.body as AcmeOrder), url: order.url };
      if (current.status === 'valid' && current.certificate) return current;
      if (current.status === 'invalid')
        throw new AcmeProblem(current.error ?? { detail: 'The CA marked the order invalid' }, 403, undefined, 'order');
      await this.wait(answer, deadline, 'finalization', poll);
      answer = await this.post(order.url, undefined, 'order');
    }
  }

  async certificate(url: string): Promise<string> {
    return (await this.post(url, undefined, 'certificate download')).text;
  }

  /** RFC 9773: the CA's suggested renewal window for a certificate, or undefined without ARI. */
  async renewalInfo(certId: string): Promise<RenewalInfo | undefined> {
    const { renewalInfo } = await this.directory();
    if (!renewalInfo) return undefined;
    const answer = await this.http.send('GET', `${renewalInfo.replace(/\/$/, '')}/${certId}`);
    if (answer.status !== 200) throw this.problem(answer, 'renewal information');
    const body = answer.body as {
      suggestedWindow?: { start?: string; end?: string };
      explanationURL?: string;
    };
    const start = Date.parse(body.suggestedWindow?.start ?? '');
    const end = Date.parse(body.suggestedWindow?.end ?? '');
    if (Number.isNaN(start) || Number.isNaN(end) || end < start)
      throw new AcmeProblem({ detail: 'The CA answered an unreadable renewal window' }, answer.status);
    return {
      window: { start: new Date(start), end: new Date(end) },
      retryAfter: parseRetryAfter(answer.headers['retry-after'], this.clock.now()),
      explanationUrl: body.explanationURL,
    };
  }

  /** A signed POST (a POST-as-GET when `payload` is undefined), retried on a stale nonce. */
  private async post(url: string, payload: unknown, step: string, withJwk = false): Promise<AcmeResponse> {
    for (let attempt = 1; ; attempt++) {
      const nonce = await this.nonce();
      const kid = withJwk ? undefined : this.accountUrl;
      if (!withJwk && !kid) throw new Error('The ACME account is not registered yet');
      const answer = await this.http.send('POST', url, await this.key.sign(url, nonce, payload, kid));
      if (answer.headers['replay-nonce']) this.nonces.push(answer.headers['replay-nonce']);
      if (answer.status < 400) return answer;
      const problem = this.problem(answer, step);
      if (problem.kind !== 'badNonce' || attempt >= NONCE_RETRIES) throw problem;
    }
  }

  private async nonce(): Promise<string> {
    const cached = this.nonces.pop();
    if (cached) return cached;
    const answer = await this.http.send('HEAD', (await this.directory()).newNonce);
    const nonce = answer.headers['replay-nonce'];
    if (!nonce) throw this.problem(answer, 'new nonce');
    return nonce;
  }

  /** Waits as the CA's Retry-After asks (within bounds), or on a doubling back-off. */
  private async wait(answer: AcmeResponse, deadline: Date, step: string, poll: number): Promise<void> {
    const now = this.clock.now();
    const asked = parseRetryAfter(answer.headers['retry-after'], now);
    const backoff = Math.min(POLL_MIN_MS * 2 ** poll, POLL_MAX_MS);
    const delay = asked ? Math.min(Math.max(asked.getTime() - now.getTime(), POLL_MIN_MS), 60_000) : backoff;
    if (now.getTime() + delay > deadline.getTime())
      throw new AcmeProblem({ detail: `The CA had not finished the ${step} in time` }, 408, undefined, step);
    await this.clock.sleep(delay);
  }

  private problem(answer: AcmeResponse, step: string): AcmeProblem {
    const body = typeof answer.body === 'object' && answer.body ? (answer.body as ProblemDocument) : {};
    const detail = body.detail ?? (typeof answer.body === 'string' && answer.body.slice(0, 200)) ?? undefined;
    return new AcmeProblem(
      { ...body, detail: detail || `HTTP ${answer.status}` },
      answer.status,
      parseRetryAfter(answer.headers['retry-after'], this.clock.now()),
      step,
    );
  }
}
