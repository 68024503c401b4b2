/** A thin client of the admin API for terminal users. */
export class AdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const url = new URL(path, this.baseUrl);
    const response = await fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((error: unknown) => {
      // fetch says only "fetch failed": name the address and the cause (ECONNREFUSED, ...).
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(
        `Could not reach the service at ${url.origin} (${cause?.code ?? cause?.message ?? String(error)}). ` +
          'Is it running (npm start)? Pass --url, or set API_URL, PORT or DATA_DIR to those of the running service.',
      );
    });
    const text = await response.text();
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (!response.ok) {
      const error = parsed as { error?: string; message?: string } | null;
      throw new Error(`${response.status} ${error?.error ?? ''}: ${error?.message ?? text}`);
    }
    return parsed;
  }
}
