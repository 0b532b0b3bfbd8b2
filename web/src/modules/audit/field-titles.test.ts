import { ZBusinessMenu } from '@tessera/core/contracts/business-menus';
import { ZDictionary, ZDictionaryItem } from '@tessera/core/contracts/dictionaries';
import { ZDocumentNumberRule } from '@tessera/core/contracts/document-numbers';
import { ZHelpDocument } from '@tessera/core/contracts/help';
import { ZIdentityRole, ZIdentityUser, ZOrganizationUnit } from '@tessera/core/contracts/identity';
import { ZLanguagePack, ZLocalizationText } from '@tessera/core/contracts/localization';
import { ZPageDefinitionListItem } from '@tessera/core/contracts/pages';
import { ZPermissionDefinition, ZDataScope } from '@tessera/core/contracts/authorization';
import { ZSystemSettings } from '@tessera/core/contracts/settings';
import { describe, expect, it, vi } from 'vitest';

// The audit log's before → after table names each field by its title (issue 28, defect 6). Every
// field of the objects the server writes into audit entries has a title in zh-CN and en-US, so a
// field added to one of them fails here until it has its title.
const registered: Record<string, Record<string, unknown>>[] = [];
vi.mock('../../shared/i18n/i18n.ts', () => ({ registerTexts: (_: string, texts: Record<string, Record<string, unknown>>) => registered.push(texts) }));

const AUDITED = {
  User: ZIdentityUser,
  Role: ZIdentityRole,
  OrganizationUnit: ZOrganizationUnit,
  Dictionary: ZDictionary,
  DictionaryItem: ZDictionaryItem,
  HelpDocument: ZHelpDocument,
  DocumentNumberRule: ZDocumentNumberRule,
  BusinessMenu: ZBusinessMenu,
  PageDefinition: ZPageDefinitionListItem,
  PermissionDefinition: ZPermissionDefinition,
  DataScope: ZDataScope,
  LanguagePack: ZLanguagePack,
  LocalizationText: ZLocalizationText,
  SystemSettings: ZSystemSettings,
};

const fieldsOf = (schema: unknown): string[] => {
  const s = schema as { shape?: Record<string, unknown>; unwrap?: () => unknown; def?: { in?: { shape?: Record<string, unknown> } } };
  const shape = s.shape ?? s.def?.in?.shape ?? (s.unwrap?.() as { shape?: Record<string, unknown> } | undefined)?.shape;
  if (!shape) throw new Error('not an object schema');
  return Object.keys(shape);
};

describe('audit field titles', () => {
  it('every field of an audited object has a title in zh-CN and en-US', async () => {
    await import('./i18n.ts');
    const texts = registered[0]!;
    const zh = (texts['zh-CN'] as { fields: Record<string, string> }).fields;
    const en = (texts['en-US'] as { fields: Record<string, string> }).fields;
    const missing = Object.entries(AUDITED).flatMap(([entity, schema]) =>
      fieldsOf(schema).flatMap((field) => [!zh[field] ? `${entity}.${field} (zh-CN)` : [], !en[field] ? `${entity}.${field} (en-US)` : []].flat()),
    );
    expect(missing).toEqual([]);
    // A Chinese title is Chinese (codes such as ID and HTML aside).
    const latinOnly = Object.entries(zh).filter(([, title]) => !/[\u4e00-\u9fff]/.test(title) && !['ID', '—'].includes(title));
    expect(latinOnly).toEqual([]);
  });
});
