import { Migration } from '@mikro-orm/migrations';

/** The domain columns the edge serves from: a change to any of them is an edge change. */
const EDGE_COLUMNS_CHANGED = `old.hostname is distinct from new.hostname or old.status is distinct from new.status
  or old.monitor_status is distinct from new.monitor_status or old.deleted_at is distinct from new.deleted_at
  or old.released_at is distinct from new.released_at
  or old.state->'originUrl' is distinct from new.state->'originUrl'
  or old.state->'mode' is distinct from new.state->'mode'
  or old.state->'keepHost' is distinct from new.state->'keepHost'
  or old.state->'redirectWww' is distinct from new.state->'redirectWww'
  or old.state->'redirectStatus' is distinct from new.state->'redirectStatus'`;

/**
 * A domain's own edge changes are numbered on its row instead of appended to `edge_changes`: a
 * creation wrote a log row (and its index entries) beside the domain; now a BEFORE trigger gives the
 * row the next number of the same sequence (`domains.edge_seq`). The change log the replica
 * writers tail is both (`edge_change_log`): a row's newer number replaces its older one, which the
 * writer's cursor treats as any hole (asked for again, then given up), and the newer one carries
 * the change. What a row cannot carry stays in `edge_changes`: a deleted domain's hostname, the
 * hostname a domain had before it changed, certificate changes.
 *
 * Pruning the log removed rows below a checkpoint; it was detected from the log's oldest row. With
 * numbers also on domain rows, that row says nothing about what was pruned, so the prune records
 * how far it went (`edge_changes_pruned`).
 */
export class Migration20261208000000EdgeChangesOnDomainRows extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table domains add column edge_seq bigint');
    this.addSql('create index domains_edge_seq_idx on domains (edge_seq) where edge_seq is not null');
    this.addSql(`create function edge_seq_of_domain() returns trigger language plpgsql as $$
      begin
        new.edge_seq := nextval('edge_changes_seq_seq');
        return new;
      end $$`);
    this.addSql(`create trigger domains_edge_seq_insert before insert on domains
      for each row execute function edge_seq_of_domain()`);
    this.addSql(`create trigger domains_edge_seq_update before update on domains for each row
      when (${EDGE_COLUMNS_CHANGED}) execute function edge_seq_of_domain()`);
    this.addSql('drop trigger domains_edge_insert_delete on domains');
    this.addSql('drop trigger domains_edge_update on domains');
    this.addSql('drop function edge_change_of_domain');
    this.addSql(`create function edge_change_of_old_hostname() returns trigger language plpgsql as $$
      begin
        insert into edge_changes (hostname) values (old.hostname);
        return null;
      end $$`);
    this.addSql(`create trigger domains_edge_delete after delete on domains
      for each row execute function edge_change_of_old_hostname()`);
    this.addSql(`create trigger domains_edge_rename after update on domains for each row
      when (old.hostname is distinct from new.hostname) execute function edge_change_of_old_hostname()`);
    this.addSql(`create view edge_change_log as
      select seq, hostname from edge_changes
      union all select edge_seq, hostname from domains where edge_seq is not null`);
    this.addSql(`create table edge_changes_pruned (
      singleton boolean primary key default true check (singleton),
      through bigint not null
    )`);
    this.addSql(
      'insert into edge_changes_pruned (through) values (coalesce((select min(seq) - 1 from edge_changes), 0))',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table edge_changes_pruned');
    this.addSql('drop view edge_change_log');
    this.addSql('drop trigger domains_edge_rename on domains');
    this.addSql('drop trigger domains_edge_delete on domains');
    this.addSql('drop function edge_change_of_old_hostname');
    this.addSql('drop trigger domains_edge_seq_update on domains');
    this.addSql('drop trigger domains_edge_seq_insert on domains');
    this.addSql('drop function edge_seq_of_domain');
    this.addSql('drop index domains_edge_seq_idx');
    this.addSql('alter table domains drop column edge_seq');
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
      when (${EDGE_COLUMNS_CHANGED}) execute function edge_change_of_domain()`);
  }
}
