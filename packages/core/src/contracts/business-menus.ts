import { z } from 'zod';
import { zText } from './text.ts';
import { ZLocalizedText } from './authorization.ts';
import { text, ZPagedQuery } from './common.ts';

/** spec §3 business menu: id, title, url (icon name), associateKey, subBusinessMenus (nested). */
export interface TBusinessMenu {
  id: string;
  /** Multilingual: `{ "zh-CN": "采购", "en-US": "Purchasing" }`. */
  title: Record<string, string>;
  /** The icon name (an @ant-design/icons component name). */
  url: string | null;
  associateKey: string | null;
  parentId: string | null;
  order: number;
  /** The page the menu opens (set once the page designer exists). */
  pageDefinitionId: string | null;
  isJump: boolean;
  /** `Biz.Menu.<id>`: granting it shows the menu. */
  permissionCode: string;
  concurrencyStamp: string;
  subBusinessMenus: TBusinessMenu[];
}

// Recursive through a getter (zod 4) and registered by id, so OpenAPI can reference it as a component.
export const ZBusinessMenu = z
  .object({
    id: zText(),
    title: z.record(zText(), zText()),
    url: zText().nullable(),
    associateKey: zText().nullable(),
    parentId: zText().nullable(),
    order: z.number().int(),
    pageDefinitionId: zText().nullable(),
    isJump: z.boolean(),
    permissionCode: zText(),
    concurrencyStamp: zText(),
    get subBusinessMenus(): z.ZodArray<typeof ZBusinessMenu> {
      return z.array(ZBusinessMenu);
    },
  })
  .meta({ id: 'BusinessMenu' });

export const ZBusinessMenuList = z.object({ items: z.array(ZBusinessMenu), totalCount: z.number().int() });
export type TBusinessMenuList = z.infer<typeof ZBusinessMenuList>;

/** Paging applies to the top-level menus; `Filter` keeps the menus whose title matches, with their parents. */
export const ZBusinessMenuQuery = ZPagedQuery.omit({ Sorting: true });
export type TBusinessMenuQuery = z.infer<typeof ZBusinessMenuQuery>;

export const ICON_NAME_PATTERN = /^[A-Z][A-Za-z0-9]*$/;

/** Create and update (PUT): on update an omitted field keeps its value and null clears it. */
export const ZBusinessMenuInput = z.object({
  title: ZLocalizedText,
  url: zText().trim().max(100).regex(ICON_NAME_PATTERN, 'an icon name like AppstoreOutlined').nullish(),
  associateKey: text(200).nullish(),
  parentId: z.uuid().nullish(),
  order: z.number().int().min(0).max(100_000).optional(),
  pageDefinitionId: z.uuid().nullish(),
  isJump: z.boolean().optional(),
  /** Optional on update: when sent it must match (someone else changed the menu otherwise). */
  concurrencyStamp: zText().max(64).optional(),
});
export type TBusinessMenuInput = z.input<typeof ZBusinessMenuInput>;

/** Drag and drop: put the menu under `parentId` (null = top level) at position `index` among its siblings. */
export const ZMoveBusinessMenuInput = z.object({
  parentId: z.uuid().nullable(),
  index: z.number().int().min(0).max(100_000),
});
export type TMoveBusinessMenuInput = z.infer<typeof ZMoveBusinessMenuInput>;

/**
 * After a page's first publish, one step: a business menu opening the page, granted (with the
 * page's codes) to roles. `use`: `work` — every code of the page; `read` — open it and view fields.
 */
export const ZPageMenuInput = z.object({
  pageDefinitionId: z.uuid(),
  title: ZLocalizedText,
  url: zText().trim().max(100).regex(ICON_NAME_PATTERN, 'an icon name like AppstoreOutlined').nullish(),
  parentId: z.uuid().nullish(),
  roleIds: z.array(z.uuid()).max(50).default([]),
  use: z.enum(['work', 'read']).default('work'),
});
export type TPageMenuInput = z.input<typeof ZPageMenuInput>;
export const ZPageMenuResult = z.object({
  menu: ZBusinessMenu,
  grants: z.array(z.object({ roleId: zText(), roleName: zText(), granted: z.array(zText()) })),
});
export type TPageMenuResult = z.infer<typeof ZPageMenuResult>;
