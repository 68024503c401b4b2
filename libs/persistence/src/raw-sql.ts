/**
 * The persistence decision (README "Persistence"), applied: an aggregate that is plain CRUD is a
 * MikroORM entity with a repository (Workspace, ApiKey, Project, WebhookEndpoint, OAuthClient,
 * ConsoleAccount, ConsoleMembership, Certificate, AcmeAccountRecord). Raw SQL is used on purpose,
 * and only in the files named here, each with its reason: the hot paths, statements whose
 * atomicity a read-modify-write through the unit of work would lose, and read models that join
 * across aggregates. `raw-sql.spec.ts` fails when any other file of libs/ or apps/ holds SQL text, or
 * when an entry here no longer does.
 *
 * Kinds:
 * - `hot path`: runs per request, per actor write or per worker tick (bench/ measures the actor,
 *   domain, edge, limits and webhook paths; BENCHMARKS.md).
 * - `atomic statement`: an upsert or conditional update that must stay one statement.
 * - `read model`: reports, keyset pages with microsecond cursors, joins over several aggregates.
 * - `infrastructure`: the executors, migrations and health checks themselves.
 * - `to convert`: plain CRUD still written as SQL; it should become an entity (listed, not hidden).
 * Every entry but `infrastructure` is a store by its name (`*.repository.ts`, `*.store.ts`,
 * `*.queries.ts`, `*.reads.ts`, `*writer.ts`). A path ending in `/` names a whole folder.
 */
export type RawSqlKind = 'hot path' | 'atomic statement' | 'read model' | 'infrastructure' | 'to convert';

export interface RawSqlUse {
  kind: RawSqlKind;
  why: string;
}

export const RAW_SQL: Record<string, RawSqlUse> = {
  // The actor runtime: every command of every actor goes through these.
  'libs/actors/src/snapshot-writer.ts': {
    kind: 'hot path',
    why: 'group-committed snapshots, each fenced by its shard lease (for share, at its epoch) and conditional on its version',
  },
  'libs/actors/src/json-snapshot.store.ts': {
    kind: 'hot path',
    why: 'actor activation reads and version-conditional snapshot writes',
  },
  'libs/actors/src/lease.repository.ts': {
    kind: 'hot path',
    why: 'shard leases on the database clock: claims bump the epoch in one statement, renewals every 3 s',
  },
  'libs/actors/src/actor-command.store.ts': {
    kind: 'hot path',
    why: 'replies of retried commands (exactly-once across owners) and their batched retention',
  },
  'libs/purchases/src/store/purchase.store.ts': {
    kind: 'hot path',
    why: 'purchase actor snapshots with conditional versions',
  },
  'libs/domains/src/store/domain.store.ts': {
    kind: 'hot path',
    why: 'domain actor snapshots with conditional versions',
  },
  'libs/domains/src/store/domain.repository.ts': {
    kind: 'hot path',
    why: 'keyset lists, the hostname-taken and hostname-holder checks',
  },
  'libs/api-keys/src/api-key-hot.reads.ts': {
    kind: 'hot path',
    why: 'the API key of a request not in the cache, and the background recheck of cached keys',
  },
  'libs/domains/src/store/domain-hot.reads.ts': {
    kind: 'hot path',
    why: 'the domain GET fast path: one named prepared statement (PgDirect) on a view-cache miss',
  },
  'libs/purchases/src/store/purchase-sweep.queries.ts': {
    kind: 'hot path',
    why: 'stuck and due-for-renewal purchases by owned shard, every sweep of every node',
  },
  'libs/challenge-dns/src/live-challenges.queries.ts': {
    kind: 'hot path',
    why: 'each edge reloads every live DNS-01 value on each change, every 10 s and on a miss (at most every 250 ms)',
  },
  'libs/domains/src/store/monitor-lag.queries.ts': {
    kind: 'read model',
    why: "the monitor's lag and overdue count, from the shards' watermarks (a metric per scrape)",
  },
  'libs/domains/src/store/monitor.queries.ts': {
    kind: 'hot path',
    why: "the monitor's load of a shard's domains (arrays bound as parameters) and its watermark writes",
  },
  'libs/workspaces/src/workspace.repository.ts': {
    kind: 'hot path',
    why: 'the saved card read on every domain creation (one prepared statement); the rest is MikroORM',
  },
  // Webhooks: the outbox relay and the delivery workers.
  'libs/webhooks/src/store/relay.queries.ts': {
    kind: 'hot path',
    why: 'outbox relay: the watermark moved past a batch and its endpoints read in one statement, deliveries fanned out',
  },
  'libs/webhooks/src/store/delivery.queries.ts': {
    kind: 'hot path',
    why: 'delivery claims (skip locked) with lease timeouts, and the events they carry',
  },
  'libs/webhooks/src/store/outcome.writer.ts': {
    kind: 'hot path',
    why: 'delivery outcomes group-written in one statement per batch: the unnest update, each attempt appended to its history, the history trimmed',
  },
  'libs/oauth/src/oauth-token.repository.ts': {
    kind: 'hot path',
    why: 'tokens found by hash, joined to their client, on every OAuth-authenticated request (behind a cache)',
  },
  // Limits: per request.
  'libs/limits/src/rate-limit.store.ts': {
    kind: 'hot path',
    why: 'rate-limit counters: batched upserts per window, every request',
  },
  'libs/limits/src/idempotency.store.ts': {
    kind: 'hot path',
    why: 'idempotency keys: insert-or-read and lock in one statement, every mutating request',
  },
  // The edge data plane.
  'libs/edge/src/replica/edge-replica.queries.ts': {
    kind: 'hot path',
    why: 'the replica writers tail the change log (edge_changes and domain rows) every 250 ms and read live domains with their certificates by hostname',
  },
  'libs/edge/src/acme-challenge.store.ts': { kind: 'hot path', why: 'HTTP-01 answers read by every edge replica' },
  // Single statements a read-modify-write would break.
  'libs/console/src/console-sessions.store.ts': {
    kind: 'atomic statement',
    why: 'every console request resolves and touches its session in one update joined to its user',
  },
  'libs/console/src/console-flashes.store.ts': {
    kind: 'atomic statement',
    why: 'a create-once page shows its secret once: delete ... returning takes it, so two views cannot both read it',
  },
  'libs/console/src/signin-throttle.store.ts': {
    kind: 'atomic statement',
    why: 'windowed failure counters: one upsert, so concurrent replicas count every failure',
  },
  'libs/oauth/src/oauth-client.repository.ts': {
    kind: 'atomic statement',
    why: 'revoking a client revokes its tokens in the same transaction (the client itself is MikroORM)',
  },
  'libs/projects/src/project.repository.ts': {
    kind: 'atomic statement',
    why: 'a project is deleted only while no live domain names it: counted and deleted in one statement (the rest is MikroORM)',
  },
  'libs/certificates/src/acme-challenge.repository.ts': {
    kind: 'atomic statement',
    why: 'HTTP-01 key authorizations written with their expiry on the database clock, insert-if-absent',
  },
  'libs/certificates/src/renewal-info.queries.ts': {
    kind: 'atomic statement',
    why: 'certificates whose renewal information is due, claimed and moved ahead in one statement (skip locked) so no two nodes ask the CA for one',
  },
  'libs/certificates/src/issuance-budget.store.ts': {
    kind: 'atomic statement',
    why: "the CA's limits as token buckets shared by every node: all of an order's buckets locked (upsert, key order) and taken or none, on the database clock",
  },
  // Read models: joins and reports over several aggregates, keyset pages.
  'libs/webhooks/src/store/event.repository.ts': {
    kind: 'read model',
    why: 'the outbox as the events API (keyset pages with microsecond cursors) and the test event it queues',
  },
  'libs/webhooks/src/store/delivery.repository.ts': {
    kind: 'read model',
    why: 'deliveries with their attempts and attempt history, keyset pages',
  },
  'libs/purchases/src/store/purchase.repository.ts': {
    kind: 'read model',
    why: 'purchases read from the saga snapshots (JSON state), keyset pages',
  },
  'libs/purchases/src/store/purchase-lookups.queries.ts': {
    kind: 'read model',
    why: 'the saga looks into other aggregates: a workspace card, a live domain, a held hostname',
  },
  'libs/certificates/src/certificate-expiry.queries.ts': {
    kind: 'read model',
    why: 'the expiry gauges: counts over certificates of live domains',
  },
  'libs/console/src/console.queries.ts': {
    kind: 'read model',
    why: 'the console overview, timelines and backlogs: counts joined over domains, keys, endpoints, deliveries',
  },
  'libs/console/src/console-audit.store.ts': {
    kind: 'read model',
    why: 'an append-only log listed with filters and keyset pages',
  },
  // Plain CRUD still written as SQL: the next entities.
  'libs/registrar/src/sandbox/sandbox-registrations.repository.ts': {
    kind: 'to convert',
    why: 'the sandbox registrar adapter (not production): idempotent registrations',
  },
  'libs/payments/src/sandbox/sandbox-ledger.repository.ts': {
    kind: 'to convert',
    why: 'the sandbox payments adapter (not production): idempotent charges and refunds',
  },
  // The machinery itself.
  'libs/persistence/src/sql-executor.ts': { kind: 'infrastructure', why: 'the raw SQL executor on MikroORM’s pool' },
  'libs/persistence/src/pg-direct.ts': { kind: 'infrastructure', why: 'named prepared statements on MikroORM’s pool' },
  'libs/persistence/src/database-health.service.ts': { kind: 'infrastructure', why: 'the readiness probe' },
  'libs/persistence/src/migrate.ts': { kind: 'infrastructure', why: 'the advisory lock around migrations' },
  'libs/actors/src/presence.ts': {
    kind: 'infrastructure',
    why: "a node's presence: an advisory lock its own session holds for life, and pg_locks to see whose is gone",
  },
  'libs/persistence/src/migrations/': { kind: 'infrastructure', why: 'the schema, as committed migrations' },
};
