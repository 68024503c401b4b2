import { MikroSqlExecutor, type SqlExecutor } from '@app/persistence';
import { Inject, Injectable } from '@nestjs/common';
import type { ReplicaEntry } from './replica-entry';

interface EntryRow {
  id: string;
  hostname: string;
  status: ReplicaEntry['status'];
  monitor_status: ReplicaEntry['monitorStatus'];
  origin_url: string;
  mode: string | null;
  keep_host: boolean | null;
  redirect_www: boolean | null;
  redirect_status: number | null;
  cert_pem: string | null;
  key_sealed: string | null;
}

const ENTRY_COLUMNS = `d.id, d.hostname, d.status, d.monitor_status, d.state->>'originUrl' as origin_url,
  d.state->>'mode' as mode, (d.state->>'keepHost')::boolean as keep_host,
  (d.state->>'redirectWww')::boolean as redirect_www, (d.state->>'redirectStatus')::int as redirect_status,
  c.cert_pem, c.key_sealed`;
/** A live domain: what the unique hostname index (`domains_live_hostname_idx`) covers. */
const LIVE = 'd.deleted_at is null and d.released_at is null';

/**
 * The changes after a sequence number (at most `limit`) and the holes below it asked for again,
 * oldest first (`limit` in all), from both halves of the log (`edge_change_log`): the rows of
 * `edge_changes` and the numbers on domain rows. Four index range reads: written as one
 * `seq > $1 or seq = any($3)` with `order by seq limit`, PostgreSQL may walk the key index from its
 * start and filter (it did while the log had no statistics, as in the benchmarks), so a poll read
 * the whole retained log: 14 ms for 200,000 changes and nothing new, against 0.2 ms this way.
 */
export const CHANGES_SQL = `select seq, hostname from (
    (select seq, hostname from edge_changes where seq > ?::bigint order by seq limit ?::int)
    union all
    (select edge_seq, hostname from domains where edge_seq > ?::bigint order by edge_seq limit ?::int)
    union all
    (select seq, hostname from edge_changes where seq = any(?::bigint[]) and seq <= ?::bigint)
    union all
    (select edge_seq, hostname from domains where edge_seq = any(?::bigint[]) and edge_seq <= ?::bigint)
  ) c order by seq limit ?::int`;

/** CHANGES_SQL's parameters, in order. */
export const changesParams = (seq: number, holes: number[], limit: number) => [
  seq,
  limit,
  seq,
  limit,
  holes,
  seq,
  holes,
  seq,
  limit,
];

/** What the replica writers read: the change log and live domains with their certificates. */
@Injectable()
export class EdgeReplicaQueries {
  constructor(@Inject(MikroSqlExecutor) private readonly db: SqlExecutor) {}

  /** Changes after `seq`, plus the holes asked for again, oldest first. */
  async changes(seq: number, holes: number[], limit: number): Promise<{ seq: number; hostname: string }[]> {
    const rows = await this.db.bound<{ seq: string; hostname: string }>(CHANGES_SQL, changesParams(seq, holes, limit));
    return rows.map((r) => ({ seq: Number(r.seq), hostname: r.hostname }));
  }

  /**
   * The log's end, and how far pruning has removed it: a checkpoint below `pruned` may have lost
   * changes.
   */
  async range(): Promise<{ pruned: number; last: number }> {
    const [row] = await this.db.query<{ pruned: string | null; last: string | null }>(
      `select (select through from edge_changes_pruned) as pruned,
         greatest((select max(seq) from edge_changes), (select max(edge_seq) from domains)) as last`,
    );
    return { pruned: Number(row?.pruned ?? 0), last: Number(row?.last ?? 0) };
  }

  async entries(hostnames: string[]): Promise<ReplicaEntry[]> {
    // One lookup in the live hostname index per name (`offset 0` keeps the subquery from being
    // flattened into a join): planned from stale statistics (a young table filling fast), the
    // `hostname = any(...)` form read a workspace's whole list index and filtered it (5 ms for 345
    // names in `domains.create`, auto_explain).
    const rows = await this.db.bound<EntryRow>(
      `select ${ENTRY_COLUMNS} from unnest(?::text[]) as h(hostname)
       cross join lateral (select * from domains d where d.hostname = h.hostname and ${LIVE} offset 0) d
       left join certificates c on c.domain_id = d.id`,
      [[...new Set(hostnames)]],
    );
    return rows.map(toEntry);
  }

  /** Live domains in hostname order after `after`: the full load, page by page. */
  async page(after: string, limit: number): Promise<ReplicaEntry[]> {
    const rows = await this.db.bound<EntryRow>(
      `select ${ENTRY_COLUMNS} from domains d left join certificates c on c.domain_id = d.id
       where ${LIVE} and d.hostname > ?::text order by d.hostname limit ?::int`,
      [after, limit],
    );
    return rows.map(toEntry);
  }

  /** Drops the log's rows older than `olderThanHours`, recording how far it went (`range().pruned`). */
  async prune(olderThanHours: number): Promise<void> {
    await this.db.query(
      `with gone as (delete from edge_changes where at < now() - make_interval(hours => ?) returning seq)
       update edge_changes_pruned set through = greatest(through, (select max(seq) from gone))`,
      [olderThanHours],
    );
  }
}

function toEntry(row: EntryRow): ReplicaEntry {
  return {
    domainId: row.id,
    hostname: row.hostname,
    status: row.status,
    monitorStatus: row.monitor_status,
    mode: row.mode === 'redirect' ? 'redirect' : 'proxy',
    originUrl: row.origin_url,
    keepHost: row.keep_host === true,
    redirectWww: row.redirect_www === true,
    redirectStatus: row.redirect_status === 302 ? 302 : 301,
    ...(row.cert_pem && row.key_sealed ? { certificate: { chainPem: row.cert_pem, keySealed: row.key_sealed } } : {}),
  };
}
