import { moduleMessages } from '../../platform/module-messages.ts';

/** The help module's server texts in the two complete cultures. */
const texts = {
  'zh-CN': {
    'doc.keyTaken': '键“{key}”已被其他文档使用',
    'doc.parentMissing': '上级文档不存在',
    'doc.moveUnderItself': '不能把文档移动到它自己或它的下级之下',
    'doc.hasChildren': '该文档下还有 {count} 篇子文档，请确认级联删除',
    'image.unsupported': '只支持 PNG、JPEG、GIF 或 WebP 图片',
    'image.empty': '图片内容为空',
  },
  'en-US': {
    'doc.keyTaken': 'The key "{key}" is used by another document',
    'doc.parentMissing': 'The parent document does not exist',
    'doc.moveUnderItself': 'A document cannot be moved under itself or one of its sub-documents',
    'doc.hasChildren': 'The document has {count} sub-documents; confirm a cascade delete',
    'image.unsupported': 'Only PNG, JPEG, GIF or WebP images are accepted',
    'image.empty': 'The image is empty',
  },
} as const;

export type HelpMessage = keyof (typeof texts)['zh-CN'];
export const helpInvalid = moduleMessages<HelpMessage>(texts, 'help').invalid;
