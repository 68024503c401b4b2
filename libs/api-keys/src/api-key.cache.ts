import { Principal } from '@app/auth';

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
 * bus message lost: at most `trustMs` late).
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxEntries: number,
    private readonly trustMs: number,
  ) {}

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
    this.entries.delete(keyHash);
    this.entries.set(keyHash, entry);
    return entry.principal;
  }

  set(keyHash: string, principal: Principal, checkedAt: number): void {
    this.entries.delete(keyHash);
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(keyHash, { principal, checkedAt, usedAt: checkedAt });
  }

  delete(keyHash: string): void {
    this.entries.delete(keyHash);
  }

  /** Keys used since `usedSince` whose confirmation is older than `checkedBefore`. */
  dueForRecheck(usedSince: number, checkedBefore: number): string[] {
    const due: string[] = [];
    for (const [hash, entry] of this.entries) {
      if (entry.usedAt >= usedSince && entry.checkedAt < checkedBefore) due.push(hash);
    }
    return due;
  }

  /** The result of a recheck that started at `checkedAt`: found keys confirmed, the others dropped. */
  confirm(asked: string[], live: Set<string>, checkedAt: number): void {
    for (const hash of asked) {
      const entry = this.entries.get(hash);
      if (!entry) continue;
      if (live.has(hash)) entry.checkedAt = Math.max(entry.checkedAt, checkedAt);
      else this.entries.delete(hash);
    }
  }
}
