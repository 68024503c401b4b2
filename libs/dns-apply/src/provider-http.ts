import { DomainError } from '@app/kernel';

export interface ProviderResponse {
  status: number;
  body: unknown;
}

const TIMEOUT_MS = 10_000;

/**
 * One call to a DNS provider with the customer's token. Failures are rethrown without the original error,
 * whose message or cause could carry request details (headers, the token): nothing here is ever logged.
 */
export async function providerCall(
  providerName: string,
  url: string,
  token: string,
  init: { method?: string; body?: unknown } = {},
): Promise<ProviderResponse> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new DomainError('dns_write_refused', `${providerName} could not be reached; try again in a moment`);
  }
  const text = await response.text().catch(() => '');
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}

/** A provider's own words for a refusal, with the token scrubbed out should it ever be echoed. */
export function providerReason(message: string | undefined, token: string): string {
  const text = (message ?? '').slice(0, 300);
  return token ? text.split(token).join('[redacted]') : text;
}
