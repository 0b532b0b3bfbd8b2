import { useLayoutEffect, useRef, useState } from 'react';

/** The paper's width fitted into the centre panel (px per mm), following the panel's size. */
export function useFitScale(pageWidthMm: number) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, []);
  return { ref, fit: Math.max((width - 56) / pageWidthMm, 0.5) };
}

