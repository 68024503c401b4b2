import { SHARD_COUNT, hash53 } from './shard';

/** murmur3's 32-bit finalizer: spreads nearby integers over the whole range. */
function fmix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A node with its precomputed hash seed. */
export interface Member {
  id: string;
  seed: number;
}

export function member(id: string): Member {
  return { id, seed: hash53(id) >>> 0 };
}

const shardKeys = Array.from({ length: SHARD_COUNT }, (_, shard) => fmix32(Math.imul(shard + 1, 0x9e3779b1)));

/**
 * Rendezvous (highest-random-weight) placement: the shard goes to the member with the highest
 * weight, so a join or leave moves only the shards that must move. Ties break on the id.
 */
export function ownerOf(shard: number, members: readonly Member[]): string | undefined {
  let best: Member | undefined;
  let bestWeight = -1;
  const key = shardKeys[shard];
  for (const m of members) {
    const weight = fmix32(m.seed ^ key);
    if (weight > bestWeight || (weight === bestWeight && best !== undefined && m.id < best.id)) {
      best = m;
      bestWeight = weight;
    }
  }
  return best?.id;
}

/** The shards each member should own. */
export function assignShards(members: readonly Member[]): Map<string, number[]> {
  const assignment = new Map<string, number[]>(members.map((m) => [m.id, []]));
  for (let shard = 0; shard < SHARD_COUNT; shard++) {
    const owner = ownerOf(shard, members);
    if (owner) assignment.get(owner)?.push(shard);
  }
  return assignment;
}
