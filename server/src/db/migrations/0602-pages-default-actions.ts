import { sql, type Kysely } from 'kysely';

// Default action codes for published business pages (`Biz.<page>.Action.Add` … `.Export`). Until
// now an action no coded button carried out was open to everyone holding `Biz.<page>.Access`; it now
// needs its default code. So that nobody loses what they could do, every holder of a page's access
// code receives the default codes of that page's uncoded actions. Written against the tables as
// they are at this point (no module code: a migration must not change when the code does).

const ACTIONS = ['add', 'edit', 'delete', 'import', 'export'] as const;
const NAMES: Record<(typeof ACTIONS)[number], { 'zh-CN': string; 'en-US': string }> = {
  add: { 'zh-CN': '新增', 'en-US': 'Add' },
  edit: { 'zh-CN': '编辑', 'en-US': 'Edit' },
  delete: { 'zh-CN': '删除', 'en-US': 'Delete' },
  import: { 'zh-CN': '导入', 'en-US': 'Import' },
  export: { 'zh-CN': '导出', 'en-US': 'Export' },
};

type Button = { code?: unknown; buttonType?: unknown };
type View = { viewButtons?: Button[]; viewControls?: View[] };

/** The actions of a published design that no coded button carries out. */
export function uncodedActionsOf(definition: { pageButtons?: Button[]; viewControls?: View[] }): string[] {
  const coded = new Set<string>();
  const take = (buttons: Button[] | undefined) => {
    for (const b of buttons ?? []) if (typeof b?.code === 'string' && b.code) coded.add(String(b.buttonType ?? ''));
  };
  const walk = (views: View[] | undefined) => {
    for (const v of views ?? []) {
      take(v?.viewButtons);
      walk(v?.viewControls);
    }
  };
  take(definition?.pageButtons);
  walk(definition?.viewControls);
  return ACTIONS.filter((a) => !coded.has(a));
}

export async function up(db: Kysely<any>): Promise<void> {
  const pages = await db
    .selectFrom('page_definitions as p')
    .innerJoin('page_definition_versions as v', (j) => j.onRef('v.page_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .select(['p.code', 'p.name', 'v.definition'])
    .execute();
  for (const page of pages) {
    const definition = typeof page.definition === 'string' ? JSON.parse(page.definition) : page.definition;
    const access = `Biz.${page.code}.Access`;
    const codes = uncodedActionsOf(definition).map((a) => ({ name: `Biz.${page.code}.Action.${a[0]!.toUpperCase()}${a.slice(1)}`, action: a as (typeof ACTIONS)[number] }));
    if (!codes.length) continue;
    await db
      .insertInto('permission_definitions')
      .values(
        codes.map((c) => ({
          name: c.name,
          group_name: `Biz.${page.code}`,
          parent_name: access,
          display_name: JSON.stringify(NAMES[c.action]),
          group_display_name: JSON.stringify(page.name ?? {}),
          is_system: false,
        })),
      )
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    for (const c of codes) {
      await sql`
        insert into permission_grants (name, provider_name, provider_key)
        select ${c.name}, provider_name, provider_key from permission_grants where name = ${access}
        on conflict (provider_name, provider_key, name) do nothing
      `.execute(db);
    }
  }
}
