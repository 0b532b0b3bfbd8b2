import type { TPrintLayout } from '@tessera/core/contracts/print-templates';
import { useEffect, useRef } from 'react';
import { nudgedElement } from './layout-ops.ts';
import type { LayoutEditor } from './use-layout-editor.ts';

const isEditable = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

let nudgeSeq = 0;

/**
 * The designer's keys: Ctrl+S saves (everywhere), and outside text fields Ctrl+Z / Ctrl+Y (or
 * Ctrl+Shift+Z) undo and redo, Delete removes the selected element, arrows nudge it 1 mm (Shift: 10 mm).
 */
export function useDesignerKeys(editor: LayoutEditor, save: () => void, enabled: boolean) {
  const latest = useRef({ editor, save });
  latest.current = { editor, save };
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      const { editor: ed, save: doSave } = latest.current;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === 's') {
        e.preventDefault();
        return doSave();
      }
      // Typing in a field, or keys inside a dialog, are not the canvas's.
      if (isEditable(e.target) || (e.target instanceof HTMLElement && e.target.closest('.ant-modal, .ant-drawer'))) return;
      if (mod && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        return e.shiftKey ? ed.redo() : ed.undo();
      }
      if (mod && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        return ed.redo();
      }
      const selected = ed.selected;
      if (!selected) return;
      if (e.key === 'Delete' || e.key === 'Backspace') {
        e.preventDefault();
        return ed.remove(selected.id);
      }
      const arrow = ARROWS[e.key];
      if (arrow) {
        e.preventDefault();
        const step = e.shiftKey ? 10 : 1;
        const layout: TPrintLayout = ed.layout;
        // A held key's repeats make one undo step.
        ed.update(nudgedElement(selected, arrow[0] * step, arrow[1] * step, layout.paper), `nudge:${selected.id}:${e.repeat ? nudgeSeq : ++nudgeSeq}`);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
