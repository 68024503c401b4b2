import { Migration } from '@mikro-orm/migrations';

/**
 * The log the edge replica is written from: one row per hostname whose route or certificate
 * changed, appended by triggers in the same transaction as the change, so no writer (actor, API,
 * certificate manager, a bulk SQL import) can forget to tell the edges. Only the columns the edge
 * serves from count: a probe that moves `next_probe_at` appends nothing. Rows older than a day are
 * pruned by the replica writers.
 */
export class Migration20261201000000EdgeChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table edge_changes (
      seq bigserial primary key,
      hostname text not null,
      at timestamptz not null default now()
    )`);
    this.addSql('create index edge_changes_at_idx on edge_changes (at)');
    this.addSql(`create function edge_change_of_domain() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then
          insert into edge_changes (hostname) values (old.hostname);
        end if;
        if tg_op in ('INSERT', 'UPDATE') and (tg_op = 'INSERT' or new.hostname <> old.hostname) then
          insert into edge_changes (hostname) values (new.hostname);
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger domains_edge_insert_delete after insert or delete on domains
      for each row execute function edge_change_of_domain()`);
    this.addSql(`create trigger domains_edge_update after update on domains for each row
      when (old.hostname is distinct from new.hostname or old.status is distinct from new.status
        or old.monitor_status is distinct from new.monitor_status or old.deleted_at is distinct from new.deleted_at
        or old.released_at is distinct from new.released_at
        or old.state->'originUrl' is distinct from new.state->'originUrl'
        or old.state->'mode' is distinct from new.state->'mode'
        or old.state->'keepHost' is distinct from new.state->'keepHost'
        or old.state->'redirectWww' is distinct from new.state->'redirectWww'
        or old.state->'redirectStatus' is distinct from new.state->'redirectStatus')
      execute function edge_change_of_domain()`);
    this.addSql(`create function edge_change_of_certificate() returns trigger language plpgsql as $$
      begin
        insert into edge_changes (hostname) values (case when tg_op = 'DELETE' then old.hostname else new.hostname end);
        return null;
      end $$`);
    this.addSql(`create trigger certificates_edge_insert_delete after insert or delete on certificates
      for each row execute function edge_change_of_certificate()`);
    this.addSql(`create trigger certificates_edge_update after update on certificates for each row
      when (old.cert_pem is distinct from new.cert_pem or old.key_sealed is distinct from new.key_sealed)
      execute function edge_change_of_certificate()`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger certificates_edge_update on certificates');
    this.addSql('drop trigger certificates_edge_insert_delete on certificates');
    this.addSql('drop function edge_change_of_certificate');
    this.addSql('drop trigger domains_edge_update on domains');
    this.addSql('drop trigger domains_edge_insert_delete on domains');
    this.addSql('drop function edge_change_of_domain');
    this.addSql('drop table edge_changes');
  }
}
