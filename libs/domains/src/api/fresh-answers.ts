import { BoundedCache, Clock } from '@app/kernel';

/**
 * Answers that stay fresh for `ttlMs`, shared by concurrent askers (one lookup in flight per key)
 * and bounded in number. Failures are not kept: the next ask tries again.
 */
export class FreshAnswers<T> {
  private readonly answers: BoundedCache<T>;

  constructor(maxEntries: number, ttlMs: number, clock?: Clock) {
    this.answers = new BoundedCache({ maxEntries, ttlMs, clock });
  }

  get(key: string, load: () => Promise<T>): Promise<T> {
    return this.answers.getOrLoad(key, load);
  }
}
