import { afterCursor, microsKey, page } from '@app/http';
import { BatchedWrites, MikroSqlExecutor, PgDirect, newId } from '@app/persistence';
import { Injectable } from '@nestjs/common';

/** Every action the console records, for the log's filter. */
export const AUDIT_ACTIONS = [
  'workspace.created',
  'workspace.card_set',
  'api_key.created',
  'api_key.revoked',
  'domain.created',
  'domain.updated',
  'domain.checked',
  'domain.connect_link_created',
  'domain.deleted',
  'domain.dns_applied',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.test_sent',
  'event.replayed',
  'purchase.bought',
  'purchase.renewed',
  'purchase.auto_renew_set',
  'purchase.nameservers_set',
  'purchase.dns_replaced',
  'purchase.connected',
  'project.created',
  'project.updated',
  'project.deleted',
  'oauth_client.created',
  'oauth_client.revoked',
  'user.created',
  'user.updated',
  'user.disabled',
  'user.enabled',
  'user.signed_in',
  'user.sso_linked',
  'user.sso_refused',
  'user.signed_out_everywhere',
  'user.password_changed',
  'user.password_reset',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  id: string;
  workspaceId: string | null;
  /** The workspace's name when the entry is read (null: none, or the workspace is gone). */
  workspaceName?: string | null;
  actor: string;
  action: string;
  target: string | null;
  detail: Record<string, unknown>;
  createdAt: string;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'createdAt' | 'detail'> & { detail?: Record<string, unknown> };

export interface AuditQuery {
  workspaceId?: string;
  /** Only these workspaces (a member's view of the log); operators pass none and see everything. */
  workspaceIds?: string[];
  action?: string;
  actor?: string;
  cursor?: string;
  limit: number;
}

/** Who did what from the console: written beside each action, listed newest first with keyset paging. */
@Injectable()
export class ConsoleAudit {
  /** Every API change writes an entry: under load, the entries of concurrent changes share one insert. */
  private readonly entries = new BatchedWrites<NewAuditEntry>((batch) => this.insert(batch));

  constructor(
    private readonly db: MikroSqlExecutor,
    private readonly pg: PgDirect,
  ) {}

  /** Resolves once the entry is stored. */
  record(entry: NewAuditEntry): Promise<void> {
    return this.entries.submit(entry);
  }

  /**
   * One statement for the batch. Each row's time is `clock_timestamp()`, read row by row in the
   * batch's order, so entries keep the order they were made in (a shared `now()` would leave the
   * log's order among them to their random ids).
   */
  private async insert(batch: NewAuditEntry[]): Promise<void> {
    await this.pg.query(
      'console_audit.insert_batch',
      `insert into console_audit (id, workspace_id, actor, action, target, detail, created_at)
       select id, workspace_id, actor, action, target, detail, clock_timestamp()
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[])
         as e(id, workspace_id, actor, action, target, detail)`,
      [
        batch.map(() => newId('aud')),
        batch.map((e) => e.workspaceId),
        batch.map((e) => e.actor),
        batch.map((e) => e.action),
        batch.map((e) => e.target),
        batch.map((e) => JSON.stringify(e.detail ?? {})),
      ],
    );
  }

  /**
   * Records the entry with `detail.idempotencyKey`, unless this workspace's log has the same action on the
   * same target under that key from the last day (an Idempotency-Key lives 24 h): a retry that ran again
   * (its first answer was a 5xx, which is not stored) and was answered with the same outcome is one change.
   */
  async recordOnce(entry: NewAuditEntry & { workspaceId: string }, idempotencyKey: string) {
    const detail = { ...entry.detail, idempotencyKey };
    await this.db.query(
      `insert into console_audit (id, workspace_id, actor, action, target, detail)
       select ?, ?, ?, ?, ?, ?::jsonb
       where not exists (
         select 1 from console_audit where workspace_id = ? and created_at > now() - interval '1 day'
           and action = ? and target is not distinct from ? and detail->>'idempotencyKey' = ?)`,
      [
        newId('aud'),
        entry.workspaceId,
        entry.actor,
        entry.action,
        entry.target,
        JSON.stringify(detail),
        entry.workspaceId,
        entry.action,
        entry.target,
        idempotencyKey,
      ],
    );
  }

  async list(query: AuditQuery): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.workspaceId) {
      where.push('workspace_id = ?');
      params.push(query.workspaceId);
    }
    if (query.workspaceIds) {
      where.push('workspace_id = any(?::text[])');
      params.push(query.workspaceIds);
    }
    if (query.action) {
      where.push('action = ?');
      params.push(query.action);
    }
    if (query.actor) {
      where.push('lower(actor) = ?');
      params.push(query.actor.trim().toLowerCase());
    }
    if (query.cursor) {
      const after = afterCursor(query.cursor);
      where.push(after.sql);
      params.push(...after.params);
    }
    const rows = await this.db.query<{
      id: string;
      workspace_id: string | null;
      workspace_name: string | null;
      actor: string;
      action: string;
      target: string | null;
      detail: Record<string, unknown>;
      created_at: Date | string;
      createdAtKey: string;
    }>(
      `select *, (select w.name from workspaces w where w.id = console_audit.workspace_id) as workspace_name,
         ${microsKey('created_at')} as "createdAtKey" from console_audit
       ${where.length ? `where ${where.join(' and ')}` : ''} order by created_at desc, id desc limit ?`,
      [...params, query.limit + 1],
    );
    const result = page(rows, query.limit);
    return {
      entries: result.rows.map((r) => ({
        id: r.id,
        workspaceId: r.workspace_id,
        workspaceName: r.workspace_name,
        actor: r.actor,
        action: r.action,
        target: r.target,
        detail: r.detail,
        createdAt: new Date(r.created_at).toISOString(),
      })),
      nextCursor: result.nextCursor,
    };
  }
}
