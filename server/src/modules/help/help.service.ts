import type { ServiceContext } from '../../platform/context.ts';
import { personDisplayName } from '@tessera/core/helpers/person-name';
import type { Kysely, Selectable } from 'kysely';
import { uuidv7 } from '../../platform/ids.ts';
import type { THelpDocument, THelpDocumentInput, THelpDocumentNode, THelpDocumentTree, THelpTitle } from '@tessera/core/contracts/help';
import type { Database, HelpDocumentsTable, HelpTranslations } from '../../db/schema.ts';
import { recordAudit } from '../../platform/audit.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { helpInvalid } from './help.messages.ts';
import { plainText, RENDER_VERSION, renderMarkdown } from './help-renderer.ts';
import * as repo from './help.repository.ts';
import { isUniqueViolation } from '../../platform/sql-values.ts';

type Db = Kysely<Database>;
type Row = Selectable<HelpDocumentsTable>;
const SNIPPET_RADIUS = 60;
/** The audit keeps the Markdown up to this length (documents may be long). */
const AUDIT_MARKDOWN_MAX = 10_000;

const titleTexts = (title: THelpTitle): string[] => (typeof title === 'string' ? [title] : Object.values(title));

/** The stored HTML, rendered again when an older renderer produced it. */
const htmlOf = (row: Pick<Row, 'markdown' | 'html' | 'render_version'>) => (row.render_version === RENDER_VERSION ? row.html : renderMarkdown(row.markdown));

/** The default body is written in the product's default language. */
const DEFAULT_BODY_CULTURE = 'zh-CN';
const baseOf = (culture: string) => culture.split('-')[0]!.toLowerCase();

/**
 * The translation to show for the caller's languages (`Accept-Language`, in order): a body in the
 * language itself, else one in the same base language (`en` → `en-US`); the default body when the
 * default language comes first or nothing matches.
 */
export function translationFor(translations: HelpTranslations, acceptLanguage: string) {
  const wanted = acceptLanguage.split(',').map((part) => part.split(';')[0]!.trim()).filter(Boolean);
  const cultures = Object.keys(translations);
  for (const language of wanted) {
    const exact = cultures.find((c) => c.toLowerCase() === language.toLowerCase());
    if (exact) return translations[exact]!;
    if (baseOf(language) === baseOf(DEFAULT_BODY_CULTURE)) return null;
    const sameBase = cultures.find((c) => baseOf(c) === baseOf(language));
    if (sameBase) return translations[sameBase]!;
  }
  return null;
}

const translationHtml = (t: HelpTranslations[string]) => (t.renderVersion === RENDER_VERSION ? t.html : renderMarkdown(t.markdown));

export const toDocumentDto = (row: Row, acceptLanguage = ''): THelpDocument => {
  const translation = translationFor(row.translations, acceptLanguage);
  return {
  id: row.id,
  parentId: row.parent_id,
  key: row.key,
  title: row.title,
  order: row.sort_order,
  markdown: row.markdown,
  translations: Object.fromEntries(Object.entries(row.translations).map(([culture, t]) => [culture, t.markdown])),
  html: translation ? translationHtml(translation) : htmlOf(row),
  updatedBy: row.updated_by,
  updatedByName: row.updated_by_name,
  updatedAt: new Date(row.updated_at).toISOString(),
  concurrencyStamp: row.concurrency_stamp,
  };
};

/** The stored translations for an input's bodies: empty ones dropped, each rendered and sanitised. */
function translationsOf(input: Record<string, string>): HelpTranslations {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, markdown]) => markdown.trim())
      .map(([culture, markdown]) => [culture, { markdown, html: renderMarkdown(markdown), renderVersion: RENDER_VERSION }]),
  );
}

function snippet(text: string, needle: string): string | null {
  const at = text.toLowerCase().indexOf(needle.toLowerCase());
  if (at < 0) return null;
  const start = Math.max(0, at - SNIPPET_RADIUS);
  const end = Math.min(text.length, at + needle.length + SNIPPET_RADIUS);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/**
 * The document tree. With a search text, documents whose title (any language), key or body
 * contains it are kept with their parents, and body matches carry a snippet.
 */
export async function documentTree(db: Db, filter?: string): Promise<THelpDocumentTree> {
  const rows = await repo.listNodes(db);
  const nodes = new Map<string, THelpDocumentNode>(
    rows.map((r) => [
      r.id,
      { id: r.id, parentId: r.parent_id, key: r.key, title: r.title, order: r.sort_order, updatedAt: new Date(r.updated_at).toISOString(), snippet: null, isMatch: !filter, children: [] },
    ]),
  );
  const roots: THelpDocumentNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.id)!;
    const parent = r.parent_id ? nodes.get(r.parent_id) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  if (!filter) return { items: roots, totalCount: rows.length };

  const needle = filter.toLowerCase();
  let matches = 0;
  for (const hit of await repo.searchDocuments(db, filter)) {
    const node = nodes.get(hit.id);
    if (!node) continue;
    const inTitle = titleTexts(hit.title).some((t) => t.toLowerCase().includes(needle)) || hit.key.includes(needle);
    const bodies = [hit.html || renderMarkdown(hit.markdown), ...Object.values(hit.translations).map(translationHtml)];
    const bodySnippet = bodies.map((html) => snippet(plainText(html), filter)).find((s) => s !== null) ?? null;
    if (!inTitle && !bodySnippet) continue;
    node.isMatch = true;
    node.snippet = bodySnippet;
    matches++;
  }
  const prune = (list: THelpDocumentNode[]): THelpDocumentNode[] =>
    list.flatMap((n) => {
      const children = prune(n.children);
      return n.isMatch || children.length ? [{ ...n, children }] : [];
    });
  return { items: prune(roots), totalCount: matches };
}

/** A document, its HTML in the caller's language (`Accept-Language`). */
export async function getDocument(db: Db, id: string, acceptLanguage = '') {
  const row = await repo.findDocument(db, id);
  if (!row) throw notFound({ id });
  return toDocumentDto(row, acceptLanguage);
}

export async function getDocumentByKey(db: Db, key: string, acceptLanguage = '') {
  const row = await repo.findDocumentByKey(db, key);
  if (!row) throw notFound({ key });
  return toDocumentDto(row, acceptLanguage);
}

async function checkParent(ctx: ServiceContext, parentId: string | null, self?: string) {
  if (!parentId) return;
  const rows = await repo.listNodes(ctx.db);
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (!byId.has(parentId)) throw helpInvalid(ctx, 'doc.parentMissing', ['parentId']);
  if (!self) return;
  // Walk up from the new parent: meeting the document itself means a cycle.
  for (let at = byId.get(parentId); at; at = at.parent_id ? byId.get(at.parent_id) : undefined) {
    if (at.id === self) throw helpInvalid(ctx, 'doc.moveUnderItself', ['parentId']);
  }
}

async function checkKey(ctx: ServiceContext, key: string, self?: string) {
  const other = await repo.findDocumentByKey(ctx.db, key);
  if (other && other.id !== self) throw helpInvalid(ctx, 'doc.keyTaken', ['key'], { key });
}

const auditView = (d: THelpDocument) => ({
  key: d.key,
  title: d.title,
  parentId: d.parentId,
  order: d.order,
  markdown: clip(d.markdown),
  translations: Object.fromEntries(Object.entries(d.translations).map(([culture, markdown]) => [culture, clip(markdown)])),
});
const clip = (markdown: string) => (markdown.length > AUDIT_MARKDOWN_MAX ? `${markdown.slice(0, AUDIT_MARKDOWN_MAX)}…` : markdown);

const editor = (ctx: ServiceContext) => ({
  updated_by: ctx.user?.id ?? null,
  updated_by_name: ctx.user ? personDisplayName(ctx.user, ctx.culture) : null,
});

export async function createDocument(ctx: ServiceContext, input: THelpDocumentInput) {
  const parentId = input.parentId ?? null;
  await checkParent(ctx, parentId);
  await checkKey(ctx, input.key);
  const id = uuidv7();
  const html = renderMarkdown(input.markdown);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const siblings = await repo.siblingsOf(trx, parentId);
      await repo.insertDocument(trx, {
        id,
        parent_id: parentId,
        key: input.key,
        title: JSON.stringify(input.title),
        sort_order: input.order ?? (siblings.length ? Math.max(...siblings.map((s) => s.sort_order)) + 1 : 0),
        markdown: input.markdown,
        html,
        render_version: RENDER_VERSION,
        translations: JSON.stringify(translationsOf(input.translations ?? {})),
        concurrency_stamp: uuidv7(),
        creator_id: ctx.user?.id ?? null,
        updated_at: new Date(),
        ...editor(ctx),
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw helpInvalid(ctx, 'doc.keyTaken', ['key'], { key: input.key });
    throw err;
  }
  const created = await getDocument(ctx.db, id, ctx.acceptLanguage);
  await recordAudit(ctx, 'Created', { entityType: 'HelpDocument', entityId: id, details: { after: auditView(created) } });
  return created;
}

export async function updateDocument(ctx: ServiceContext, id: string, input: THelpDocumentInput) {
  const existing = await repo.findDocument(ctx.db, id);
  if (!existing) throw notFound({ id });
  if (input.concurrencyStamp && input.concurrencyStamp !== existing.concurrency_stamp) throw conflict({ id });
  const parentId = input.parentId === undefined ? existing.parent_id : input.parentId;
  await checkParent(ctx, parentId, id);
  await checkKey(ctx, input.key, id);
  const html = renderMarkdown(input.markdown);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      let order = input.order ?? existing.sort_order;
      if (parentId !== existing.parent_id && input.order === undefined) {
        const siblings = await repo.siblingsOf(trx, parentId);
        order = siblings.length ? Math.max(...siblings.map((s) => s.sort_order)) + 1 : 0;
      }
      await repo.updateDocument(trx, id, {
        parent_id: parentId,
        key: input.key,
        title: JSON.stringify(input.title),
        sort_order: order,
        markdown: input.markdown,
        html,
        render_version: RENDER_VERSION,
        // Left out: the stored translations stay.
        ...(input.translations ? { translations: JSON.stringify(translationsOf(input.translations)) } : {}),
        concurrency_stamp: uuidv7(),
        updated_at: new Date(),
        ...editor(ctx),
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw helpInvalid(ctx, 'doc.keyTaken', ['key'], { key: input.key });
    throw err;
  }
  const updated = await getDocument(ctx.db, id, ctx.acceptLanguage);
  await recordAudit(ctx, 'Updated', {
    entityType: 'HelpDocument',
    entityId: id,
    details: { before: auditView(toDocumentDto(existing)), after: auditView(updated) },
  });
  return updated;
}

/** Deletes a document; one with sub-documents only when the caller confirms the cascade. */
export async function deleteDocument(ctx: ServiceContext, id: string, cascade: boolean) {
  const existing = await repo.findDocument(ctx.db, id);
  if (!existing) throw notFound({ id });
  const rows = await repo.listNodes(ctx.db);
  const below: string[] = [];
  const walk = (parent: string) => rows.filter((r) => r.parent_id === parent).forEach((r) => (below.push(r.id), walk(r.id)));
  walk(id);
  if (below.length && !cascade) throw helpInvalid(ctx, 'doc.hasChildren', ['cascade'], { count: below.length });
  await ctx.db.transaction().execute((trx) => repo.deleteDocument(trx, id));
  await recordAudit(ctx, 'Deleted', {
    entityType: 'HelpDocument',
    entityId: id,
    details: { before: auditView(toDocumentDto(existing)), deletedDocuments: below },
  });
}
