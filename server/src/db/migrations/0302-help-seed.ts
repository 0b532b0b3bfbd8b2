import { sql, type Kysely } from 'kysely';

// The first help documents: how to manage languages and how to write help. Stored as Markdown
// with render_version 0, so the server renders (and sanitises) them when they are first read.
const LANGUAGES = `# 语言管理

在 **系统管理 → 语言管理** 中维护界面语言。

## 语言包

- 每个语言包对应一种语言代码（如 \`zh-CN\`、\`en-US\`、\`th\`）和显示名称。
- 停用的语言包不会出现在语言选择器中；默认语言包在用户没有选择语言时使用。
- 简体中文和英文是内置语言包，不能删除。

## 翻译

1. 在“翻译”页选择 **参考语言**（如简体中文）和 **目标语言**。
2. 表格列出每个键的参考文本和目标文本；勾选“只看未翻译”查看缺少的翻译。
3. 直接在表格中输入译文并保存；清除译文即恢复内置文本。
4. 保存后，已登录的用户在一分钟内（或切回浏览器窗口时）看到新文本，无需刷新。

## 导入与导出

语言包可以导出为 JSON 或 Excel 交给译者，再导入回来。导入前会检查每一行，有任何错误时不会导入任何数据。

---

# Languages

Manage the interface languages under **System → Languages**.

- **Language packs**: one per culture (\`zh-CN\`, \`en-US\`, \`th\` …) with a display name. Disabled packs leave the language selector; the default pack is used when a user has not chosen a language. Simplified Chinese and English are built in and cannot be deleted.
- **Translations**: pick a reference language and a target language; the grid shows each key's reference text beside its translation. Tick *Only missing* to see what is left. Type a translation and save; clear it to go back to the built-in text. Signed-in users see the change within a minute, or when they return to the window.
- **Import and export**: download a pack as JSON or Excel for a translator and import it back. Every row is checked first; if any is wrong, nothing is imported.
`;

const HELP = `# 帮助文档

帮助文档是一棵 Markdown 文档树。每篇文档有唯一的 **键**，页面通过键链接到它的帮助（页面上的“帮助”链接会在侧边抽屉中打开文档）。

- 支持标题、列表、表格、代码块、链接和图片；可以上传 PNG、JPEG、GIF 或 WebP 图片（不超过 2 MB）。
- 预览和保存的内容都由服务器清理：脚本、事件处理属性和 \`javascript:\` 链接会被移除。

---

# Help documents

Help documents are a tree of Markdown pages. Each has a unique **key** that screens use to link to it (a page's *Help* link opens the document in a drawer).

- Headings, lists, tables, code, links and images are supported; upload PNG, JPEG, GIF or WebP images up to 2 MB.
- The preview and the saved document are sanitised by the server: scripts, event-handler attributes and \`javascript:\` links are removed.
`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    insert into help_documents (id, parent_id, key, title, sort_order, markdown, html, render_version, concurrency_stamp)
    values
      ('01900000-0000-7000-8000-000000000311', null, 'localization', ${JSON.stringify({ 'zh-CN': '语言管理', 'en-US': 'Languages' })}::jsonb, 0, ${LANGUAGES}, '', 0, 'seed'),
      ('01900000-0000-7000-8000-000000000312', null, 'help-documents', ${JSON.stringify({ 'zh-CN': '帮助文档', 'en-US': 'Help documents' })}::jsonb, 1, ${HELP}, '', 0, 'seed')
    on conflict (key) do nothing
  `.execute(db);
}
