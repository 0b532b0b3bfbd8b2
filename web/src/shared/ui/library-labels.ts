import i18n from '../i18n/i18n.ts';

/**
 * Accessible names the component library hard-codes in English (issue 28, defect 6): a number
 * input's step buttons say "Increase Value" / "Decrease Value" and a Segmented "segmented control"
 * to a screen reader whatever the language. They get the interface language's words as they appear, and again when the language
 * changes. (React never writes those attributes again: their value never changes.)
 */
const LIBRARY_LABELS: Record<string, string> = {
  'Increase Value': 'common:a11y.increase',
  'Decrease Value': 'common:a11y.decrease',
  // A Segmented without a name of its own.
  'segmented control': 'common:a11y.segmented',
};
const ENGLISH = Object.keys(LIBRARY_LABELS)
  .map((label) => `[aria-label="${label}"]`)
  .join(',');
const KEY_ATTRIBUTE = 'data-a11y-label';

function relabel(el: Element, key: string) {
  el.setAttribute(KEY_ATTRIBUTE, key);
  el.setAttribute('aria-label', i18n.t(key));
}

function relabelWithin(root: Element) {
  if (root.matches(ENGLISH)) relabel(root, LIBRARY_LABELS[root.getAttribute('aria-label')!]!);
  for (const el of Array.from(root.querySelectorAll(ENGLISH))) relabel(el, LIBRARY_LABELS[el.getAttribute('aria-label')!]!);
}

let installed = false;

export function installLibraryLabels(root: HTMLElement = document.body) {
  if (installed || typeof MutationObserver === 'undefined') return;
  installed = true;
  relabelWithin(root);
  new MutationObserver((records) => {
    for (const record of records) for (const node of Array.from(record.addedNodes)) if (node instanceof Element) relabelWithin(node);
  }).observe(root, { childList: true, subtree: true });
  i18n.on('languageChanged', () => {
    for (const el of Array.from(root.querySelectorAll(`[${KEY_ATTRIBUTE}]`))) el.setAttribute('aria-label', i18n.t(el.getAttribute(KEY_ATTRIBUTE)!));
  });
}
