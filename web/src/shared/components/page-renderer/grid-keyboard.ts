import type { TableRef } from 'antd/es/table';
import { useCallback, useRef, type KeyboardEvent, type RefObject } from 'react';

/** Id of the input in a grid cell; the keyboard navigation finds cells by it. */
export const gridCellId = (viewCode: string, rowIndex: number, controlCode: string) => `f-${viewCode}-${rowIndex}-${controlCode}`;

/** Row and column of a cell id of this view, or null when the id is not one of its cells. */
export function parseGridCellId(id: string, viewCode: string, controlCodes: readonly string[]): { row: number; column: number } | null {
  const prefix = `f-${viewCode}-`;
  if (!id.startsWith(prefix)) return null;
  const m = /^(\d+)-(.+)$/.exec(id.slice(prefix.length));
  if (!m) return null;
  const column = controlCodes.indexOf(m[2]!);
  return column < 0 ? null : { row: Number(m[1]), column };
}

/**
 * The cell after (step 1) or before (step -1) a position in reading order: along the row, then on to
 * the next row's first cell. Null past either end.
 */
export function nextGridCell(at: { row: number; column: number }, step: 1 | -1, rows: number, columns: number): { row: number; column: number } | null {
  if (columns === 0) return null;
  const flat = at.row * columns + at.column + step;
  if (flat < 0 || flat >= rows * columns) return null;
  return { row: Math.floor(flat / columns), column: flat % columns };
}

/** Waits (a few frames at most) for an element to be rendered, e.g. a row the virtual list scrolls in. */
async function waitForElement(id: string, frames = 20): Promise<HTMLElement | null> {
  for (let i = 0; i < frames; i++) {
    const element = document.getElementById(id);
    if (element) return element;
    await new Promise((r) => requestAnimationFrame(r));
  }
  return document.getElementById(id);
}

/**
 * Spreadsheet keys for an editable child grid (spec: "Enter/Tab move through grid cells"): Enter and
 * Tab go to the next editable cell, Shift with either goes back; Enter on the last cell adds a row
 * when the grid allows it. Rows outside the virtual window are scrolled in first. An open drop-down
 * keeps Enter for choosing its option, and IME composition keeps it for the candidate.
 */
export function useGridKeyboard(options: {
  viewCode: string;
  /** Codes of the editable columns, in display order. */
  controlCodes: readonly string[];
  rowCount: number;
  table: RefObject<TableRef | null>;
  /** Adds a row at the end; absent when the grid is read-only. */
  addRow?: () => void;
}) {
  const { viewCode, controlCodes, rowCount, table, addRow } = options;
  // The cell focus is moving to (a row may first have to scroll in): keys pressed meanwhile, e.g. a
  // held Enter, continue from there instead of from the cell that still has the focus.
  const pending = useRef<{ row: number; column: number } | null>(null);
  // Moves the focus to the cell that is still the latest target once it is rendered; a later key
  // supersedes an earlier target that has not been reached yet.
  const focusCell = useCallback(
    async (target: { row: number; column: number }) => {
      if (pending.current !== target) return;
      const id = gridCellId(viewCode, target.row, controlCodes[target.column]!);
      if (!document.getElementById(id)) table.current?.scrollTo({ index: target.row, align: 'nearest' });
      const element = await waitForElement(id);
      if (pending.current !== target) return;
      pending.current = null;
      element?.focus();
      if (element instanceof HTMLInputElement && element.type !== 'checkbox') element.select();
    },
    [viewCode, controlCodes, table],
  );

  return useCallback(
    (e: KeyboardEvent<HTMLElement>) => {
      if (e.key !== 'Enter' && e.key !== 'Tab') return;
      if (e.ctrlKey || e.metaKey || e.altKey || e.nativeEvent.isComposing) return;
      const target = e.target as HTMLElement;
      if (target.tagName === 'TEXTAREA' || target.getAttribute('aria-expanded') === 'true') return;
      const here = parseGridCellId(target.id, viewCode, controlCodes);
      if (!here) return;
      const at = pending.current ?? here;
      const step = e.shiftKey ? -1 : 1;
      const next = nextGridCell(at, step, rowCount, controlCodes.length);
      if (!next) {
        // Past the last cell: Enter adds a row, Tab leaves the grid as usual.
        if (e.key !== 'Enter' || step !== 1 || !addRow) return;
        e.preventDefault();
        e.stopPropagation();
        addRow();
        const first = { row: rowCount, column: 0 };
        pending.current = first;
        void focusCell(first);
        return;
      }
      // A date picker commits typed text on Enter itself; let it, then move.
      const inPicker = Boolean(target.closest('.ant-picker'));
      if (!(inPicker && e.key === 'Enter')) {
        e.preventDefault();
        e.stopPropagation();
      }
      pending.current = next;
      if (inPicker) setTimeout(() => void focusCell(next), 0);
      else void focusCell(next);
    },
    [viewCode, controlCodes, rowCount, addRow, focusCell],
  );
}
