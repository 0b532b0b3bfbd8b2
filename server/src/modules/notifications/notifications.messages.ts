import { moduleMessages } from '../../platform/module-messages.ts';

/** Notifications' server texts in the two complete cultures. */
const texts = {
  'zh-CN': { unknownUsers: '用户不存在或已停用：{ids}' },
  'en-US': { unknownUsers: 'Unknown or inactive users: {ids}' },
} as const;

/** The usual 400 of the module, in the caller's language. */
export const notificationsInvalid = moduleMessages<keyof (typeof texts)['zh-CN']>(texts, 'notifications').invalid;
