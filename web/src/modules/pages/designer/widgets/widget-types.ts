import type { TDesignerProperty } from '@tessera/core/contracts/pages';
import type { TDataControl, TPageDefinition, TView } from '@tessera/core/page-definition';
import type { PaletteIndex } from '../palette-index.ts';

/** What every property widget knows about the element it edits. */
export interface WidgetContext {
  def: TPageDefinition;
  palette: PaletteIndex;
  kind: 'control' | 'view' | 'button';
  id: string;
  /** The control's view, or the view itself. */
  view: TView | null;
  control: TDataControl | null;
  language: string;
}

export interface WidgetProps<V = unknown> {
  ctx: WidgetContext;
  property: TDesignerProperty;
  value: V;
  onChange(value: V): void;
  /** Sets another property of the same element (a widget that writes two keys). */
  setOther(path: string, value: unknown): void;
  id: string;
}
