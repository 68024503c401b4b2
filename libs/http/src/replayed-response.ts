/** A response to send exactly as stored (an idempotent replay); the exception filter writes it. */
export class ReplayedResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string>,
  ) {}
}
