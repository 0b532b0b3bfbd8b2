/**
 * The approval page's keyboard shortcuts. All hold Alt, so they work while typing in the form's
 * inputs and never clash with typing itself; matched by the physical key (`code`) because Alt+A
 * types "å" on a Mac. Esc closes the drawer (antd's own).
 */
export const SHORTCUTS = {
  approve: { code: 'KeyA', label: 'Alt+A' },
  reject: { code: 'KeyR', label: 'Alt+R' },
  next: { code: 'KeyN', label: 'Alt+N' },
} as const;

export function isShortcut(e: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'code' | 'repeat'>, name: keyof typeof SHORTCUTS): boolean {
  return e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && !e.repeat && e.code === SHORTCUTS[name].code;
}
