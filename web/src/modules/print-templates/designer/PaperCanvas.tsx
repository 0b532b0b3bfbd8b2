import { paperSize, type TPrintElement } from '@tessera/core/contracts/print-templates';
import { useRef, type DragEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { ElementView } from './ElementView.tsx';
import { movedElement, resizedElement, type Corner } from './layout-ops.ts';
import type { LayoutEditor } from './use-layout-editor.ts';

/** What the palette and the field picker drag onto the paper (HTML drag and drop). */
export const DRAG_TYPE = 'application/x-tessera-print-item';

interface Gesture {
  kind: 'move' | 'resize';
  corner: Corner;
  start: TPrintElement;
  clientX: number;
  clientY: number;
  key: string;
}

let gestureSeq = 0;
const CORNERS: Corner[] = ['nw', 'ne', 'sw', 'se'];

/**
 * The paper drawn to scale (`scale` px per mm), margins dashed, elements as absolutely placed
 * boxes. Dragging moves (snapped to 1 mm; Alt: free), the corner handles resize; a drag is one
 * undo step. Items dropped from the palette land where they are dropped.
 */
export function PaperCanvas({
  editor,
  scale,
  fieldTitle,
  viewFieldTitle,
  onDropItem,
  unbound,
}: {
  editor: LayoutEditor;
  scale: number;
  fieldTitle(code: string): string;
  viewFieldTitle(view: string, code: string): string;
  onDropItem(payload: string, at: { x: number; y: number }): void;
  /** Elements bound to fields or views the page lacks (marked). */
  unbound: Set<string>;
}) {
  const { layout } = editor;
  const page = paperSize(layout.paper);
  const [top, right, bottom, left] = layout.paper.margins;
  const gesture = useRef<Gesture | null>(null);
  const paperRef = useRef<HTMLDivElement>(null);

  const begin = (e: ReactPointerEvent, element: TPrintElement, kind: Gesture['kind'], corner: Corner = 'se') => {
    if (e.button !== 0) return;
    e.stopPropagation();
    editor.select(element.id);
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    gesture.current = { kind, corner, start: element, clientX: e.clientX, clientY: e.clientY, key: `${kind}:${element.id}:${++gestureSeq}` };
  };
  const track = (e: ReactPointerEvent) => {
    const g = gesture.current;
    if (!g) return;
    const dx = (e.clientX - g.clientX) / scale;
    const dy = (e.clientY - g.clientY) / scale;
    if (Math.abs(dx) < 0.05 && Math.abs(dy) < 0.05) return;
    const snap = !e.altKey;
    editor.update(g.kind === 'move' ? movedElement(g.start, dx, dy, layout.paper, snap) : resizedElement(g.start, g.corner, dx, dy, layout.paper, snap), g.key);
  };
  const end = () => {
    gesture.current = null;
  };

  const drop = (e: DragEvent) => {
    const payload = e.dataTransfer.getData(DRAG_TYPE);
    if (!payload || !paperRef.current) return;
    e.preventDefault();
    const box = paperRef.current.getBoundingClientRect();
    onDropItem(payload, { x: Math.round((e.clientX - box.left) / scale), y: Math.round((e.clientY - box.top) / scale) });
  };

  return (
    <div
      ref={paperRef}
      className="ps-paper"
      style={{ width: page.width * scale, height: page.height * scale }}
      onPointerDown={() => editor.select(null)}
      onDragOver={(e) => e.dataTransfer.types.includes(DRAG_TYPE) && e.preventDefault()}
      onDrop={drop}
      data-testid="print-paper"
    >
      <div className="ps-margins" style={{ left: left * scale, top: top * scale, right: right * scale, bottom: bottom * scale }} />
      {layout.elements.map((element) => {
        const selected = element.id === editor.selectedId;
        return (
          <div
            key={element.id}
            className={`ps-el${selected ? ' is-selected' : ''}${element.everyPage ? ' is-every-page' : ''}${unbound.has(element.id) ? ' is-unbound' : ''}`}
            style={{
              left: element.x * scale,
              top: element.y * scale,
              width: element.width * scale,
              height: Math.max(element.height * scale, 1),
              // Turned about its centre, clockwise, as the PDF turns it.
              transform: element.rotate ? `rotate(${element.rotate}deg)` : undefined,
            }}
            onPointerDown={(e) => begin(e, element, 'move')}
            onPointerMove={track}
            onPointerUp={end}
            onPointerCancel={end}
            data-testid={`print-element-${element.id}`}
          >
            <ElementView element={element} scale={scale} fieldTitle={fieldTitle} viewFieldTitle={viewFieldTitle} />
            {selected &&
              CORNERS.map((corner) => (
                <span key={corner} className={`ps-handle ${corner}`} onPointerDown={(e) => begin(e, element, 'resize', corner)} onPointerMove={track} onPointerUp={end} onPointerCancel={end} />
              ))}
          </div>
        );
      })}
    </div>
  );
}
