import { z } from 'zod';
import { zText } from './text.ts';

/** spec §3 menu item: path, title, header, mainShow, icon, children, twoPath, url, isJump, auth, custom, img. */
export interface TMenuItem {
  path: string;
  /** i18n key (`menu:…`) for system menus, plain text for business menus. */
  title: string;
  header?: boolean;
  mainShow?: boolean;
  icon?: string;
  children?: TMenuItem[];
  twoPath?: string;
  url?: string;
  isJump?: boolean;
  /** Permission codes the user must hold (spec §6). */
  auth?: string[];
  custom?: boolean;
  img?: string;
}

// Recursive, so named: OpenAPI references it as a component (an unnamed cycle has nothing to point at).
export const ZMenuItem: z.ZodType<TMenuItem> = z.lazy(() =>
  z.object({
    path: zText(),
    title: zText(),
    header: z.boolean().optional(),
    mainShow: z.boolean().optional(),
    icon: zText().optional(),
    children: z.array(ZMenuItem).optional(),
    twoPath: zText().optional(),
    url: zText().optional(),
    isJump: z.boolean().optional(),
    auth: z.array(zText()).optional(),
    custom: z.boolean().optional(),
    img: zText().optional(),
  }),
).meta({ id: 'MenuItem' });

/** `POST /api/system/menu/list` → header + sider, already filtered by the caller's access. */
export const ZMenuList = z.object({ header: z.array(ZMenuItem), sider: z.array(ZMenuItem) });
export type TMenuList = z.infer<typeof ZMenuList>;
