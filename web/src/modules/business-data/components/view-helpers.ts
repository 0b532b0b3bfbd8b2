import { flattenViews, type TPageDefinition, type TView } from '@tessera/core/page-definition';

export function findView(definition: TPageDefinition, viewId: string): TView | undefined {
  return flattenViews(definition).find(({ view }) => view.id === viewId)?.view;
}

export { localizedTitle as controlTitle } from '../../../shared/components/page-renderer/control-rules.ts';

export function localizedText(text: Record<string, string> | undefined, language: string): string {
  if (!text) return '';
  return text[language] ?? text['zh-CN'] ?? text['en-US'] ?? Object.values(text)[0] ?? '';
}

/**
 * The data views below `masterId` (children, their children …), parents first: their fields filter
 * the master list as "having a row below with …" (`<view code>.<control code>` on the server).
 */
export function viewsBelow(definition: TPageDefinition, masterId: string): TView[] {
  const views = flattenViews(definition).map(({ view }) => view);
  const byId = new Map(views.map((v) => [v.id, v]));
  const reaches = (v: TView): boolean => {
    const seen = new Set<string>();
    for (let at: TView | undefined = v; at?.parentViewControlId && !seen.has(at.id); at = byId.get(at.parentViewControlId)) {
      seen.add(at.id);
      if (at.parentViewControlId === masterId) return true;
    }
    return false;
  };
  return views.filter((v) => v.id !== masterId && reaches(v));
}
