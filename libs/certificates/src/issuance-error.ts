/** How an ACME failure is handled: give up and tell the customer, wait as told, or retry later. */
export type IssuanceFailure =
  | { kind: 'refused'; reason: string }
  | { kind: 'rate_limited'; reason: string; retryAt: Date }
  | { kind: 'transient'; reason: string };

const REFUSED = [
  /caa/i,
  /rejectedIdentifier/i,
  /policy forbids|forbidden by policy|not allowed to issue|blocklist|blocked list|high.risk/i,
  /unsupportedIdentifier|invalid identifier/i,
];
const RATE_LIMITED = /rate.?limit|too many (certificates|failed|new orders|requests)/i;
const DEFAULT_RATE_LIMIT_WAIT_MS = 60 * 60 * 1000;

/** Classifies a CA's error message (acme-client gives the problem's detail text). Pure. */
export function classifyIssuanceError(message: string, now: Date): IssuanceFailure {
  const reason = message.replace(/\s+/g, ' ').trim().slice(0, 500) || 'The certificate authority refused the order';
  if (RATE_LIMITED.test(message)) return { kind: 'rate_limited', reason, retryAt: retryAfter(message, now) };
  if (REFUSED.some((pattern) => pattern.test(message))) return { kind: 'refused', reason };
  return { kind: 'transient', reason };
}

/** Let's Encrypt says "retry after 2026-01-01 00:00:00 UTC" (or gives seconds): honour it. */
function retryAfter(message: string, now: Date): Date {
  const stamp = /retry after ([0-9-]+[ T][0-9:]+(?:\s*UTC|Z)?)/i.exec(message);
  if (stamp) {
    const parsed = Date.parse(stamp[1].replace(' UTC', 'Z').replace(' ', 'T'));
    if (!Number.isNaN(parsed) && parsed > now.getTime()) return new Date(parsed);
  }
  const seconds = /retry after (\d+) ?s/i.exec(message);
  if (seconds) return new Date(now.getTime() + Number(seconds[1]) * 1000);
  return new Date(now.getTime() + DEFAULT_RATE_LIMIT_WAIT_MS);
}
