import type { TLanguageDictionary } from '@tessera/core/contracts/localization';
import km from './built-in/texts.km.ts';
import my from './built-in/texts.my.ts';
import th from './built-in/texts.th.ts';
import vi from './built-in/texts.vi.ts';

/**
 * Texts the server ships for cultures the web bundle does not carry (the bundle holds zh-CN and
 * en-US): the shell's `common`, `shell` and `menu` namespaces in Vietnamese, Thai, Khmer and
 * Burmese (`built-in/texts.*.ts`), and hand-written Traditional Chinese for `common` (the browser
 * converts the rest of zh-CN with OpenCC). The sign-in page and the shell read in the offered
 * languages (spec §9) from the first start; administrators override or extend them with their own
 * texts, and anything missing falls back in the browser (zh-Hant → zh-CN, others → en-US).
 */
export const BUILT_IN_TEXTS: Record<string, TLanguageDictionary> = {
  'zh-Hant': {
    common: {
      appName: 'Tessera 低代碼平台',
      ok: '確定',
      cancel: '取消',
      save: '儲存',
      delete: '刪除',
      edit: '編輯',
      create: '新建',
      search: '搜尋',
      reset: '重設',
      actions: '操作',
      loading: '載入中…',
      empty: '暫無資料',
      confirmDelete: '是否刪除此資料？',
      confirmOperation: '是否執行此操作？',
      login: {
        title: '登入',
        subtitle: '低代碼業務管理平台',
        username: '帳號',
        password: '密碼',
        usernamePlaceholder: '請輸入帳號或電子郵件',
        passwordPlaceholder: '請輸入密碼',
        incomplete: '請填寫完整資訊',
        submit: '登入',
        success: '登入成功',
      },
      error: {
        expiredTitle: '提示訊息',
        expired: '您的登入已過期，請重新登入',
        '404': '請求位址出錯',
        '408': '請求逾時',
        '501': '服務未實作',
        '502': '閘道錯誤',
        '503': '服務不可用',
        '504': '閘道逾時',
        '505': 'HTTP版本不受支援',
        requestFailed: '資料請求異常',
        network: '網路連線失敗',
        unknown: '未知錯誤',
      },
    },
  },
  vi,
  th,
  km,
  my,
};
