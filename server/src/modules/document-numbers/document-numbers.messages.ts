import type { TextAudience } from '../../platform/messages.ts';
import { moduleMessages } from '../../platform/module-messages.ts';

/** The document-numbers module's server texts in the two complete cultures. */
const texts = {
  'zh-CN': {
    'rule.codeTaken': '编号规则编码“{code}”已被使用',
    'rule.notFound': '编号规则“{rule}”不存在',
    'rule.resetFixed': '该规则已发放过编号，不能再修改重置周期（否则编号可能重复）；请新建一条规则',
    'rule.serialFixed': '该规则已发放过编号，不能再修改流水号的起始值和步长（否则编号可能重复）；请新建一条规则',
    'docNo.unknown': '单据编号“{docNo}”不是此规则发放的',
    'docNo.used': '单据编号“{docNo}”已被使用',
    'docNo.void': '单据编号“{docNo}”已作废，请重新获取编号',
    'docNo.notYours': '只能作废自己获取的单据编号',
  },
  'en-US': {
    'rule.codeTaken': 'The rule code "{code}" is already taken',
    'rule.notFound': 'The document-number rule "{rule}" does not exist',
    'rule.resetFixed': 'Numbers have been issued under this rule, so its reset period cannot change (numbers could repeat); create a new rule',
    'rule.serialFixed': 'Numbers have been issued under this rule, so the serial\'s start and step cannot change (numbers could repeat); create a new rule',
    'docNo.unknown': 'The document number "{docNo}" was not issued by this rule',
    'docNo.used': 'The document number "{docNo}" has already been used',
    'docNo.void': 'The document number "{docNo}" was voided; fetch a new number',
    'docNo.notYours': 'You can only void document numbers you fetched yourself',
  },
} as const;

export type DocumentNumberTextKey = keyof (typeof texts)['zh-CN'];
export type Who = TextAudience;
const messages = moduleMessages<DocumentNumberTextKey>(texts, 'document-numbers');

export const documentNumberText = messages.text;

/** A refused request with its own error code (400), naming the offending members. */
export function documentNumberError(who: Who, code: string, key: DocumentNumberTextKey, members: string[], params: Record<string, string | number> = {}) {
  return messages.error(who, 400, code, key, params, { members, details: params });
}
