import { moduleMessages } from '../../platform/module-messages.ts';

/** The api-keys module's server texts in the two complete cultures. */
const texts = {
  'zh-CN': {
    'key.expiryPast': '过期时间必须晚于现在',
    'key.expiryTooFar': '有效期最长 {days} 天',
    'key.tooMany': '每个用户最多 {max} 个有效的 API 密钥，请先吊销不用的密钥',
    'key.codeNotHeld': '你没有权限“{code}”，不能授予密钥',
  },
  'en-US': {
    'key.expiryPast': 'The expiry must be in the future',
    'key.expiryTooFar': 'A key lives at most {days} days',
    'key.tooMany': 'A user may hold at most {max} live API keys; revoke the ones you no longer use',
    'key.codeNotHeld': 'You do not hold "{code}", so a key cannot be given it',
  },
} as const;

export type ApiKeyMessage = keyof (typeof texts)['zh-CN'];
export const apiKeyInvalid = moduleMessages<ApiKeyMessage>(texts, 'api-keys').invalid;
