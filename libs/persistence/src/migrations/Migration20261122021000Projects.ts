import { Migration } from '@mikro-orm/migrations';

export class Migration20261122021000Projects extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table projects (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      name text not null,
      description text null,
      metadata jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql('create index projects_workspace_list_idx on projects (workspace_id, created_at desc, id desc)');
    // A query column copied from the domain snapshot, like status. No foreign key: snapshots are
    // group-committed, and one bad row must not fail a batch; deleting a referenced project is refused instead.
    this.addSql('alter table domains add column project_id text null');
    this.addSql(
      'create index domains_project_list_idx on domains (workspace_id, project_id, created_at desc, id desc) where deleted_at is null and project_id is not null',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index domains_project_list_idx');
    this.addSql('alter table domains drop column project_id');
    this.addSql('drop table projects');
  }
}
