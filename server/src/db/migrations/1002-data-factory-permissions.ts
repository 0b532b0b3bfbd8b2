import { sql, type Kysely } from 'kysely';

// Who may run a data factory procedure (issue 16): one code per procedure,
// `Tessera.DataFactory.Procedures.<id without hyphens>` in the data factory's group, under
// `Tessera.DataFactory.Run`, owned by the procedure (the service creates, renames and removes it).
// The procedures made before this migration get theirs here.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    insert into permission_definitions (name, group_name, group_display_name, parent_name, display_name, is_system)
    select 'Tessera.DataFactory.Procedures.' || replace(p.id::text, '-', ''),
           'Tessera.DataFactory',
           '{"zh-CN":"数据工厂","en-US":"Data factory"}'::jsonb,
           'Tessera.DataFactory.Run',
           jsonb_build_object('zh-CN', '运行“' || p.name || '”', 'en-US', 'Run "' || p.name || '"'),
           false
    from data_factory_procedures p
    on conflict (name) do nothing
  `.execute(db);
}
