/**
 * Where a writer is in the change log. Sequence numbers are taken when a transaction writes, not
 * when it commits, so a lower one can appear after a higher one was read: each gap is remembered as
 * a hole and asked for again until it fills or `holeTtlMs` passes (a rolled-back transaction leaves
 * a hole for ever). Pure: the caller passes the clock.
 */
export class ChangeCursor {
  private holes = new Map<number, number>();

  constructor(
    public last: number,
    private readonly holeTtlMs = 30_000,
  ) {}

  /** The holes still worth asking for. */
  openHoles(now: number): number[] {
    for (const [seq, since] of this.holes) if (now - since > this.holeTtlMs) this.holes.delete(seq);
    return [...this.holes.keys()];
  }

  /** Records the sequence numbers just read (in any order). */
  advance(seqs: readonly number[], now: number): void {
    for (const seq of [...seqs].sort((a, b) => a - b)) {
      if (this.holes.delete(seq) || seq <= this.last) continue;
      for (let missing = this.last + 1; missing < seq && missing - this.last <= 10_000; missing++) {
        this.holes.set(missing, now);
      }
      this.last = seq;
    }
  }
}
