import { useRef, type ThHTMLAttributes } from 'react';

export type ResizableHeaderProps = ThHTMLAttributes<HTMLTableCellElement> & {
  width?: number;
  /** Called once the drag ends, with the new width. */
  onResize?(width: number): void;
};

/** A table header cell whose right edge can be dragged to change the column width. */
export function ResizableHeader({ width, onResize, children, style, ...rest }: ResizableHeaderProps) {
  const cell = useRef<HTMLTableCellElement>(null);
  if (!onResize || !width) return <th {...rest} style={style}>{children}</th>;
  const start = (e: React.PointerEvent) => {
    e.preventDefault();
    e.stopPropagation();
    const x0 = e.clientX;
    const th = cell.current;
    let next = width;
    const move = (ev: PointerEvent) => {
      next = Math.max(60, Math.min(800, width + ev.clientX - x0));
      if (th) th.style.width = `${next}px`;
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      onResize(next);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  };
  return (
    <th ref={cell} {...rest} style={{ ...style, position: 'relative' }}>
      {children}
      <span
        role="separator"
        aria-orientation="vertical"
        onPointerDown={start}
        onClick={(e) => e.stopPropagation()}
        style={{ position: 'absolute', right: 0, top: 0, bottom: 0, width: 6, cursor: 'col-resize', zIndex: 1 }}
      />
    </th>
  );
}
