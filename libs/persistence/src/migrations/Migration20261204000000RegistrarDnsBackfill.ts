import { Migration } from '@mikro-orm/migrations';

/**
 * Domains connected from a purchase before `registrarDns` existed: a purchase on our registrar's
 * DNS (no custom nameservers) whose domain (`dom_<purchase>` from autoConnect, `dom_<purchase>c<n>`
 * from a connect call, same workspace and hostname, live) lacks the field gets it, so the widget and
 * the console stop asking the owner for records we already wrote. The version is bumped so a node of
 * the previous release holding the domain in memory during a rolling deploy cannot write the old
 * state back: its write meets a version conflict and it reloads.
 */
export const REGISTRAR_DNS_BACKFILL_SQL = `
  update domains d
     set state = jsonb_set(d.state, '{registrarDns}', jsonb_build_object('purchaseId', p.id)),
         version = d.version + 1
    from purchases p
   where d.deleted_at is null
     and d.workspace_id = p.workspace_id
     and d.hostname = p.hostname
     and d.id ~ ('^dom_' || substr(p.id, 5) || '(c[0-9]+)?$')
     and p.status = 'completed'
     and coalesce(p.state -> 'nameservers', '[]'::jsonb) = '[]'::jsonb
     and coalesce(d.state -> 'registrarDns', 'null'::jsonb) = 'null'::jsonb`;

export class Migration20261204000000RegistrarDnsBackfill extends Migration {
  override async up(): Promise<void> {
    this.addSql(REGISTRAR_DNS_BACKFILL_SQL);
  }

  override async down(): Promise<void> {
    // The field is read as optional: the previous release ignores it. Nothing to undo.
  }
}
