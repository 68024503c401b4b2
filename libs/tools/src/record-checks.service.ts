import { DnsResolver, LOOKUP_TYPES, LookupType } from '@app/dns';
import { normalizeLookupHostname } from '@app/hostname-rules';
import { DomainError, arrayOf, bool, described, Infer, int, obj, oneOfValues, str } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { TypeLookup, lookupOne } from './dns-lookup.service';
import { CheckRecordsDto, ExpectedRecordDto, MAX_RECORDS_PER_BATCH } from './dto/check-records.dto';
import { normalizeValue, recordName, valueSeen } from './record-values';

export const RECORD_STATUSES = ['found', 'missing', 'mismatch', 'error'] as const;
type RecordStatus = (typeof RECORD_STATUSES)[number];

const recordCheckSchema = obj(
  {
    type: oneOfValues(...LOOKUP_TYPES),
    name: str('The full name checked'),
    value: str('The expected value, normalized'),
    status: described(
      oneOfValues(...RECORD_STATUSES),
      'found: among the answers; missing: no record of the type at the name; mismatch: records, none equal',
    ),
    seen: described(arrayOf(str()), 'What DNS answered for the type at the name, normalized'),
    error: str("error: the resolver's failure code (the record's presence is unknown)"),
  },
  ['error'],
);
export type RecordCheckView = Infer<typeof recordCheckSchema>;

/** `HostnameRecordCheck` in the API document. */
export const hostnameCheckSchema = obj({
  hostname: str(),
  allFound: bool,
  summary: obj({ found: int(), missing: int(), mismatch: int(), error: int(), total: int() }),
  records: arrayOf(recordCheckSchema),
});
export type HostnameCheckView = Infer<typeof hostnameCheckSchema>;

/** Lookups in flight at once for one call. */
const CONCURRENCY = 16;

/** Bounded parallelism: `run` starts at most `limit` tasks at a time. */
function limiter(limit: number) {
  let active = 0;
  const queue: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

/** Do the given records exist at a hostname as expected? One lookup per (name, type) per call. */
@Injectable()
export class RecordChecks {
  constructor(private readonly resolver: DnsResolver) {}

  async single(check: CheckRecordsDto): Promise<HostnameCheckView> {
    return this.run(check, this.lookups());
  }

  async batch(checks: CheckRecordsDto[]): Promise<{ results: HostnameCheckView[] }> {
    const total = checks.reduce((sum, c) => sum + c.records.length, 0);
    if (total > MAX_RECORDS_PER_BATCH) {
      const message = `checks hold ${total} records in all; at most ${MAX_RECORDS_PER_BATCH} per call`;
      throw new DomainError('bad_request', `Invalid request: ${message}`, {
        fields: [{ field: 'checks', problems: [message] }],
      });
    }
    const lookups = this.lookups();
    return { results: await Promise.all(checks.map((check) => this.run(check, lookups))) };
  }

  private lookups() {
    const cache = new Map<string, Promise<TypeLookup>>();
    const limit = limiter(CONCURRENCY);
    return (name: string, type: LookupType) => {
      const key = `${type} ${name}`;
      let found = cache.get(key);
      if (!found) cache.set(key, (found = limit(() => lookupOne(this.resolver, name, type))));
      return found;
    };
  }

  private async run(
    check: CheckRecordsDto,
    lookup: (name: string, type: LookupType) => Promise<TypeLookup>,
  ): Promise<HostnameCheckView> {
    const hostname = normalizeLookupHostname(check.hostname);
    const records = await Promise.all(check.records.map((r) => this.one(hostname, r, lookup)));
    const summary = { found: 0, missing: 0, mismatch: 0, error: 0, total: records.length };
    for (const r of records) summary[r.status]++;
    return { hostname, allFound: summary.found === summary.total, summary, records };
  }

  private async one(
    hostname: string,
    record: ExpectedRecordDto,
    lookup: (name: string, type: LookupType) => Promise<TypeLookup>,
  ): Promise<RecordCheckView> {
    const { type } = record;
    const name = recordName(hostname, record.name);
    const value = normalizeValue(type, record.value);
    const answer = await lookup(name, type);
    const seen = [...new Set(answer.records.map((r) => normalizeValue(type, r.value)))];
    const status: RecordStatus =
      answer.status === 'error'
        ? 'error'
        : valueSeen(type, value, seen)
          ? 'found'
          : seen.length
            ? 'mismatch'
            : 'missing';
    return { type, name, value, status, seen, ...(answer.error ? { error: answer.error } : {}) };
  }
}
