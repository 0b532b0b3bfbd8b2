import { sql, type Kysely } from 'kysely';

/**
 * A help document has one body per language (issue 28, defect 6): `markdown` is the default body
 * and `translations` holds the others, culture → `{ markdown, html, renderVersion }` (renderVersion 0
 * makes the server render it when first read). The two built-in documents kept their English as a
 * second half under the Chinese; unless an administrator has edited them since, that half becomes
 * their en-US body.
 */
const SPLIT = '\n---\n\n# ';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table help_documents add column translations jsonb not null default '{}'::jsonb`.execute(db);
  const seeded = await sql<{ id: string; markdown: string }>`
    select id, markdown from help_documents where concurrency_stamp = 'seed' and key in ('localization', 'help-documents')
  `.execute(db);
  for (const row of seeded.rows) {
    const at = row.markdown.indexOf(SPLIT);
    if (at < 0) continue;
    const chinese = `${row.markdown.slice(0, at).trimEnd()}\n`;
    const english = row.markdown.slice(at + SPLIT.length - 2);
    const translations = { 'en-US': { markdown: english, html: '', renderVersion: 0 } };
    await sql`
      update help_documents set markdown = ${chinese}, html = '', render_version = 0, translations = ${JSON.stringify(translations)}::jsonb
      where id = ${row.id}
    `.execute(db);
  }
}
