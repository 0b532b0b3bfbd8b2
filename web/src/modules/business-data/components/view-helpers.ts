import { flattenViews, type TPageDefinition, type TView } from '@tessera/core/page-definition';

export function findView(definition: TPageDefinition, viewId: string): TView | undefined {
  return flattenViews(definition).find(({ view }) => view.id === viewId)?.view;
}

export { localizedTitle as controlTitle } from '../../../shared/components/page-renderer/control-rules.ts';

export function localizedText(text: Record<string, string> | undefined, language: string): string {
  if (!text) return '';
  return text[language] ?? text['zh-CN'] ?? text['en-US'] ?? Object.values(text)[0] ?? '';
}
