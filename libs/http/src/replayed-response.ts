/** A response to send exactly as stored (an idempotent replay); the exception filter writes it. */
export class ReplayedResponse extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string>,
  ) {
    super('Replayed response');
    this.name = 'ReplayedResponse';
  }
}
