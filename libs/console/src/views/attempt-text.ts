/**
 * One attempt's answer in a few words: `HTTP 503: maintenance · 12 ms`. The worker's error text
 * already names the status when there is one (`HTTP 503: maintenance`), so it is not said twice.
 */
export function attemptText(statusCode: number | null, error: string | null, durationMs: number | null): string {
  const status = statusCode ? `HTTP ${statusCode}` : '';
  const answer = error ? (status && !error.startsWith(status) ? `${status}: ${error}` : error) : status;
  return [answer, durationMs !== null ? `${durationMs} ms` : ''].filter(Boolean).join(' · ');
}
