import { canonicalHostname } from '@app/kernel';
import { DesiredRecord } from './dns-provider';

/** Record types that compete for the name the edge needs; everything else (MX, TXT, ...) is left alone. */
const ROUTING_TYPES: readonly string[] = ['A', 'AAAA', 'CNAME', 'ALIAS'];

/** A record found at exactly the hostname. `reusable: false` forces a replacement (e.g. proxied at Cloudflare). */
export interface ExistingRecord {
  id: string;
  type: string;
  value: string;
  reusable?: boolean;
}

export interface ApplyPlan {
  remove: ExistingRecord[];
  keep: { desired: DesiredRecord; existing: ExistingRecord }[];
  create: DesiredRecord[];
}

const sameValue = (a: string, b: string) => canonicalHostname(a) === canonicalHostname(b);

/**
 * What to change at the hostname: routing records that already say the right thing stay, other routing
 * records go, missing ones are created. Non-routing records never appear in the plan. Pure.
 */
export function planApply(existing: ExistingRecord[], desired: DesiredRecord[]): ApplyPlan {
  const routing = existing.filter((r) => ROUTING_TYPES.includes(r.type.toUpperCase()));
  const keep: ApplyPlan['keep'] = [];
  const create: DesiredRecord[] = [];
  const used = new Set<ExistingRecord>();
  for (const want of desired) {
    const match = routing.find(
      (r) =>
        !used.has(r) && r.reusable !== false && r.type.toUpperCase() === want.type && sameValue(r.value, want.value),
    );
    if (match) {
      used.add(match);
      keep.push({ desired: want, existing: match });
    } else {
      create.push(want);
    }
  }
  return { remove: routing.filter((r) => !used.has(r)), keep, create };
}

/**
 * The zone names that may hold `hostname`, most specific first, down to the registrable domain
 * (`a.b.example.co.uk` -> `a.b.example.co.uk`, `b.example.co.uk`, `example.co.uk`). Pure.
 */
export function zoneCandidates(hostname: string, registrable: string | null): string[] {
  const labels = canonicalHostname(hostname).split('.');
  const floor = registrable ? registrable.split('.').length : 2;
  const out: string[] = [];
  for (let i = 0; labels.length - i >= floor; i++) out.push(labels.slice(i).join('.'));
  return out;
}
