/**
 * Copies text in any context. The async clipboard exists only in secure contexts (https or
 * localhost): on an office LAN over plain http `navigator.clipboard` is undefined, so the copy
 * falls back to a selected, off-screen textarea and `execCommand('copy')` — deprecated, but the
 * one way browsers still allow there. Resolves whether the text reached the clipboard.
 */
export async function copyText(text: string): Promise<boolean> {
  if (window.isSecureContext && navigator.clipboard) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // permission refused: try the fallback below
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.top = '-1000px';
  area.style.opacity = '0';
  const focused = document.activeElement as HTMLElement | null;
  document.body.append(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  area.remove();
  focused?.focus?.();
  return copied;
}
