import { OriginPreflight } from '@app/dns';
import { DomainError } from '@app/kernel';
import { performance } from 'node:perf_hooks';
import { SendResult } from '../model/delivery-outcome';
import { PostTarget, PostTimeoutError, post } from './http-post';

const DELIVERY_TIMEOUT_MS = 10_000;
/** SSRF verdicts per URL are reused this long (the monitor does the same for origins). */
const VERDICT_TTL_MS = 30_000;
const MAX_ERROR_CHARS = 500;

type Verdict = { target: PostTarget } | { failure: Pick<SendResult, 'kind' | 'error'> };

const clip = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, MAX_ERROR_CHARS);

/**
 * Delivers one signed body: checks the URL by the SSRF rules of origins (SPEC 7, OUTBOUND_ALLOW_CIDRS
 * exempts ranges), connects only to the addresses it checked, and answers what happened, never throws.
 */
export class WebhookSender {
  private readonly verdicts = new Map<string, { at: number; verdict: Verdict }>();

  constructor(
    private readonly preflight: OriginPreflight,
    private readonly timeoutMs = DELIVERY_TIMEOUT_MS,
  ) {}

  async send(url: string, body: Buffer, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const result = (kind: SendResult['kind'], statusCode: number | null, error: string | null): SendResult => ({
      kind,
      statusCode,
      error,
      durationMs: Math.round(performance.now() - started),
    });
    const verdict = await this.verdict(url);
    if ('failure' in verdict) return result(verdict.failure.kind, null, verdict.failure.error);
    const remaining = Math.max(1, this.timeoutMs - (performance.now() - started));
    try {
      const answer = await post(verdict.target, body, headers, remaining);
      if (answer.statusCode >= 200 && answer.statusCode < 300) return result('delivered', answer.statusCode, null);
      const snippet = clip(answer.snippet);
      return result('http_error', answer.statusCode, `HTTP ${answer.statusCode}${snippet ? `: ${snippet}` : ''}`);
    } catch (error) {
      if (error instanceof PostTimeoutError) {
        return result('timeout', null, `timeout: no response within ${this.timeoutMs / 1000} s`);
      }
      const code = (error as NodeJS.ErrnoException).code;
      return result('network_error', null, clip(`${code ? `${code}: ` : ''}${(error as Error).message}`));
    }
  }

  private async verdict(url: string): Promise<Verdict> {
    const cached = this.verdicts.get(url);
    if (cached && Date.now() - cached.at < VERDICT_TTL_MS) return cached.verdict;
    let verdict: Verdict;
    try {
      const { origin, addresses } = await this.preflight.check(url, 'url');
      verdict = { target: { url: origin.url, host: origin.host, addresses } };
    } catch (error) {
      if (!(error instanceof DomainError)) return { failure: { kind: 'network_error', error: clip(String(error)) } };
      const reason = error.details?.reason;
      if (reason === 'origin_lookup_failed') return { failure: { kind: 'network_error', error: clip(error.message) } };
      const kind =
        error.code === 'bad_request' ? 'invalid_url' : reason === 'ssrf_blocked' ? 'blocked' : 'network_error';
      verdict = { failure: { kind, error: clip(error.message) } };
    }
    if (this.verdicts.size >= 10_000) this.verdicts.clear();
    this.verdicts.set(url, { at: Date.now(), verdict });
    return verdict;
  }
}
