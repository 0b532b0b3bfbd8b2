import type { TBilingual, TControlDesigner, TDesignerProperty, TPaletteControlType, TPaletteViewType } from '@tessera/core/contracts/pages';

/** Lookups over the control-designer palette (`GET /api/app/control-designer`) in the UI language. */
export interface PaletteIndex {
  raw: TControlDesigner;
  language: string;
  text(b: TBilingual | undefined): string;
  controlType(code: number): TPaletteControlType | undefined;
  viewType(code: number): TPaletteViewType | undefined;
  controlTypeTitle(code: number): string;
  viewTypeTitle(code: number): string;
  /** Property defaults by path, for a new control of this type. */
  controlDefaults(code: number): Record<string, unknown>;
  viewDefaults(code: number): Record<string, unknown>;
}

const defaultsOf = (properties: TDesignerProperty[]) => {
  const out: Record<string, unknown> = {};
  for (const p of properties) if (p.default !== undefined && p.default !== null && p.key !== 'code' && p.key !== 'title') out[p.key] = p.default;
  return out;
};

export function buildPaletteIndex(raw: TControlDesigner, language: string): PaletteIndex {
  const controls = new Map(raw.controlTypes.map((c) => [c.code, c]));
  const views = new Map(raw.viewTypes.map((v) => [v.code, v]));
  const text = (b: TBilingual | undefined) => (b ? (language === 'en-US' ? b['en-US'] : b['zh-CN']) || b['zh-CN'] : '');
  return {
    raw,
    language,
    text,
    controlType: (code) => controls.get(code),
    viewType: (code) => views.get(code),
    controlTypeTitle: (code) => text(controls.get(code)?.title) || String(code),
    viewTypeTitle: (code) => text(views.get(code)?.title) || String(code),
    controlDefaults: (code) => defaultsOf(controls.get(code)?.properties ?? []),
    viewDefaults: (code) => defaultsOf(views.get(code)?.properties ?? []),
  };
}
