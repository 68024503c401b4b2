import { Principal } from '@app/auth';
import { BoundedCache } from '@app/kernel';

interface Entry {
  principal: Principal;
  /** When the database last said the key is live. */
  checkedAt: number;
  usedAt: number;
}

/**
 * The principals of API keys in use, keyed by key hash, bounded (least recently used goes first).
 * An entry is trusted for `trustMs` after the database last confirmed the key; `dueForRecheck`
 * names the keys used lately so one background query re-confirms them all before that runs out
 * (keys in use never miss), and a key the query no longer finds is dropped (revoked elsewhere,
 * bus message lost: at most `trustMs` late). The kernel cache holds the bound; the trust window
 * is this class's rule, since a recheck extends it in place.
 */
export class ApiKeyCache {
  private readonly entries: BoundedCache<Entry>;

  constructor(
    maxEntries: number,
    private readonly trustMs: number,
  ) {
    this.entries = new BoundedCache({ maxEntries });
  }

  get size(): number {
    return this.entries.size;
  }

  get(keyHash: string, now: number): Principal | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (now - entry.checkedAt >= this.trustMs) {
      this.entries.delete(keyHash);
      return undefined;
    }
    entry.usedAt = now;
    return entry.principal;
  }

  set(keyHash: string, principal: Principal, checkedAt: number): void {
    this.entries.set(keyHash, { principal, checkedAt, usedAt: checkedAt });
  }

  delete(keyHash: string): void {
    this.entries.delete(keyHash);
  }

  /** Keys used since `usedSince` whose confirmation is older than `checkedBefore`. */
  dueForRecheck(usedSince: number, checkedBefore: number): string[] {
    const due: string[] = [];
    for (const [hash, entry] of this.entries.entriesNow()) {
      if (entry.usedAt >= usedSince && entry.checkedAt < checkedBefore) due.push(hash);
    }
    return due;
  }

  /** When the key was last used through this cache (for its `last_used_at`). */
  usedAt(keyHash: string): number | undefined {
    return this.entries.peek(keyHash)?.usedAt;
  }

  /** The result of a recheck that started at `checkedAt`: found keys confirmed, the others dropped. */
  confirm(asked: string[], live: Set<string>, checkedAt: number): void {
    for (const hash of asked) {
      const entry = this.entries.peek(hash);
      if (!entry) continue;
      if (live.has(hash)) entry.checkedAt = Math.max(entry.checkedAt, checkedAt);
      else this.entries.delete(hash);
    }
  }
}
