import { moduleMessages } from '../../platform/module-messages.ts';

/** Business menus' server texts in the two complete cultures. */
const texts = {
  'zh-CN': {
    'parent.missing': '上级菜单不存在',
    'parent.cycle': '菜单不能移动到自身或其下级菜单之下',
    'page.notPublished': '页面尚未发布',
  },
  'en-US': {
    'parent.missing': 'The parent menu does not exist',
    'parent.cycle': 'A menu cannot be moved under itself or its own sub-menus',
    'page.notPublished': 'The page has not been published',
  },
} as const;

export type BusinessMenusTextKey = keyof (typeof texts)['zh-CN'];
/** The usual 400 of the module, in the caller's language. */
export const menusInvalid = moduleMessages<BusinessMenusTextKey>(texts, 'business-menus').invalid;
