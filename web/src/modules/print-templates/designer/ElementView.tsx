import { BarcodeOutlined, PictureOutlined, QrcodeOutlined } from '@ant-design/icons';
import type { TPrintElement, TTextStyle } from '@tessera/core/contracts/print-templates';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import '../i18n.ts';
import { formatSample, sourceSample, type SampleTexts } from './element-text.ts';
import { BLANK_IMAGE } from './layout-ops.ts';

/** 1 pt = 25.4 / 72 mm. */
const PT_MM = 25.4 / 72;

const fontFamily = (font: TTextStyle['font']) => (font === 'serif' ? '"Songti SC", SimSun, serif' : '"PingFang SC", "Microsoft YaHei", "Noto Sans SC", sans-serif');
const justify = { left: 'flex-start', center: 'center', right: 'flex-end' } as const;
const align = { top: 'flex-start', middle: 'center', bottom: 'flex-end' } as const;

function textStyle(style: TTextStyle, scale: number): CSSProperties {
  return {
    fontFamily: fontFamily(style.font),
    fontWeight: style.font === 'sansBold' ? 700 : 400,
    fontSize: style.fontSize * PT_MM * scale,
    lineHeight: style.lineHeight,
    letterSpacing: style.characterSpacing * PT_MM * scale,
    color: style.color || '#000000',
    background: style.backgroundColor || undefined,
    textDecoration: style.underline ? 'underline' : undefined,
    justifyContent: justify[style.alignment],
    alignItems: align[style.verticalAlignment],
    textAlign: style.alignment,
  };
}

/** An element's content as the canvas draws it (samples where the record's data goes). */
export function ElementView({ element, scale, fieldTitle, viewFieldTitle }: { element: TPrintElement; scale: number; fieldTitle(code: string): string; viewFieldTitle(view: string, code: string): string }) {
  const { t } = useTranslation('print');
  const texts: SampleTexts = {
    pageNumber: { zh: t('canvas.pageNumber.zh'), slash: t('canvas.pageNumber.slash'), en: t('canvas.pageNumber.en'), current: t('canvas.pageNumber.current') },
    printUser: t('canvas.printUser'),
    formula: (formula) => t('canvas.formula', { formula, interpolation: { escapeValue: false } }),
  };
  switch (element.type) {
    case 'text':
      return (
        <div className="ps-el-text" style={textStyle(element.style, scale)}>
          <span>{sourceSample(element.source, fieldTitle, texts)}</span>
        </div>
      );
    case 'table': {
      const s = element.style;
      const cell: CSSProperties = { border: `${Math.max(s.borderWidth * scale, s.borderWidth > 0 ? 1 : 0)}px solid ${s.borderColor || 'transparent'}`, padding: s.padding * scale };
      const font: CSSProperties = { fontFamily: fontFamily(s.font), fontWeight: s.font === 'sansBold' ? 700 : 400, fontSize: s.fontSize * PT_MM * scale };
      return (
        <table className="ps-el-table" style={font}>
          <colgroup>
            {element.columns.map((c, i) => (
              <col key={i} style={{ width: `${c.width}%` }} />
            ))}
          </colgroup>
          <thead>
            <tr style={{ background: s.headBackground || undefined, color: s.headColor || undefined }}>
              {element.columns.map((c, i) => (
                <th key={i} style={{ ...cell, textAlign: c.alignment }}>
                  {c.title || viewFieldTitle(element.view, c.field)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(element.subtotalLabel != null && element.totalLabel !== null ? [1] : [1, 2]).map((n) => (
              <tr key={n}>
                {element.columns.map((c, i) => (
                  <td key={i} style={{ ...cell, textAlign: c.alignment }}>
                    {c.format.kind === 'none' && c.alignment !== 'right' ? t('canvas.sampleRow', { n }) : formatSample(c.format, n * 1234.5)}
                  </td>
                ))}
              </tr>
            ))}
            {[
              { label: element.subtotalLabel, fallback: 'canvas.subtotal', sample: 2469 },
              { label: element.totalLabel, fallback: 'canvas.total', sample: 3703.5 },
            ]
              .filter((row) => row.label !== null && row.label !== undefined)
              .map((row) => (
                <tr key={row.fallback}>
                  {element.columns.map((c, i) => (
                    <td key={i} style={{ ...cell, textAlign: c.alignment, fontWeight: 700 }}>
                      {i === 0 ? row.label || t(row.fallback) : c.total ? formatSample(c.format, row.sample) : ''}
                    </td>
                  ))}
                </tr>
              ))}
          </tbody>
        </table>
      );
    }
    case 'line':
      return <div className="ps-el-fill" style={{ background: element.color || '#000000' }} />;
    case 'rectangle':
      return <div className="ps-el-fill" style={{ border: `${Math.max(element.borderWidth * scale, element.borderWidth > 0 ? 1 : 0)}px solid ${element.borderColor || 'transparent'}`, background: element.color || undefined }} />;
    case 'image':
      // A new image element holds a transparent pixel until its picture is chosen.
      if (element.content === BLANK_IMAGE)
        return (
          <div className="ps-el-code">
            <PictureOutlined />
            <span>{t('palette.image')}</span>
          </div>
        );
      return <img className="ps-el-image" src={element.content} alt="" draggable={false} />;
    case 'qrCode':
    case 'barcode':
      return (
        <div className="ps-el-code">
          {element.type === 'qrCode' ? <QrcodeOutlined /> : <BarcodeOutlined />}
          <span>{sourceSample(element.source, fieldTitle, texts)}</span>
        </div>
      );
  }
}
