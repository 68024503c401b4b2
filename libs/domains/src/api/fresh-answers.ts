/**
 * Answers that stay fresh for `ttlMs`, shared by concurrent askers (one lookup in flight per key)
 * and bounded in number. Failures are not kept: the next ask tries again.
 */
export class FreshAnswers<T> {
  private readonly answers = new Map<string, { value: Promise<T>; expiresAt: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  get(key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
    const kept = this.answers.get(key);
    if (kept && kept.expiresAt > now) return kept.value;
    if (this.answers.size >= this.maxEntries) this.answers.clear();
    const value = load();
    this.answers.set(key, { value, expiresAt: now + this.ttlMs });
    value.catch(() => {
      if (this.answers.get(key)?.value === value) this.answers.delete(key);
    });
    return value;
  }
}
