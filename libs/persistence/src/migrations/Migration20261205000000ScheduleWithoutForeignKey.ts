import { Migration } from '@mikro-orm/migrations';

/**
 * `domain_schedule` loses its foreign key to `domains`; an AFTER DELETE trigger on `domains` keeps
 * what its cascade did (a hard-deleted domain takes its schedule row with it).
 *
 * Why: the key's check ran once per created domain, as PostgreSQL's cached query
 * `SELECT 1 FROM domains WHERE id = $1 FOR KEY SHARE`. A backend plans that query once and keeps
 * the generic plan; planned while `domains` was small it is a sequential scan, kept until the next
 * ANALYZE. On a new database filling fast (a launch, a bulk import, the benchmarks) every creation
 * then read the whole table: 10 of a group commit's 12.8 ms (31 creations) in `domains.create`
 * (auto_explain with log_triggers). The row it checks is inserted by the same statement, from the
 * domain row just inserted (SnapshotWriter's group commit), so the check could never fail there.
 */
export class Migration20261205000000ScheduleWithoutForeignKey extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table domain_schedule drop constraint domain_schedule_id_fkey');
    this.addSql(`create function domain_schedule_of_deleted_domain() returns trigger language plpgsql as $$
      begin
        delete from domain_schedule where id = old.id;
        return null;
      end $$`);
    this.addSql(`create trigger domains_schedule_delete after delete on domains for each row
      execute function domain_schedule_of_deleted_domain()`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger domains_schedule_delete on domains');
    this.addSql('drop function domain_schedule_of_deleted_domain()');
    this.addSql('delete from domain_schedule s where not exists (select 1 from domains d where d.id = s.id)');
    this.addSql(
      'alter table domain_schedule add constraint domain_schedule_id_fkey foreign key (id) references domains(id) on delete cascade',
    );
  }
}
