import { useMemo } from 'react';

/** spec §9 watermark: canvas 400×400, alpha 0.1, 20px font, −0.4 rad, chunk 400×120, tiled at 320px, z-index 2000. */
export const WATERMARK = {
  canvasWidth: 400,
  canvasHeight: 400,
  globalAlpha: 0.1,
  font: '20px Vedana',
  rotateAngle: -0.4,
  chunkWidth: 400,
  chunkHeight: 120,
  tileSize: 320,
  zIndex: 2000,
} as const;

/** Draws the text on a 400×400 canvas (rotated, in 400×120 chunks) and returns it as a data URL. */
export function watermarkImage(text: string, color: string): string {
  const canvas = document.createElement('canvas');
  canvas.width = WATERMARK.canvasWidth;
  canvas.height = WATERMARK.canvasHeight;
  const ctx = canvas.getContext('2d');
  if (!ctx) return '';
  ctx.globalAlpha = WATERMARK.globalAlpha;
  ctx.font = WATERMARK.font;
  ctx.fillStyle = color;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.rotate(WATERMARK.rotateAngle);
  // Two lines per tile, one chunk (400×120) apart, so the tiled pattern stays even.
  for (let y = WATERMARK.chunkHeight; y < WATERMARK.canvasHeight; y += WATERMARK.chunkHeight * 2) {
    ctx.fillText(text, WATERMARK.chunkWidth / 20, y, WATERMARK.chunkWidth - WATERMARK.chunkWidth / 10);
  }
  return canvas.toDataURL('image/png');
}

/** The user's name over the whole page; it never takes clicks. */
export function Watermark({ text, dark }: { text: string; dark: boolean }) {
  const url = useMemo(() => watermarkImage(text, dark ? '#ffffff' : '#000000'), [text, dark]);
  if (!url) return null;
  return (
    <div
      className="shell-watermark"
      data-testid="watermark"
      aria-hidden="true"
      style={{
        position: 'fixed',
        inset: 0,
        pointerEvents: 'none',
        zIndex: WATERMARK.zIndex,
        backgroundImage: `url(${url})`,
        backgroundRepeat: 'repeat',
        backgroundSize: `${WATERMARK.tileSize}px ${WATERMARK.tileSize}px`,
      }}
    />
  );
}
