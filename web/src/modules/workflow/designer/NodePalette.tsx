import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { WfNodeType } from './graph-model.ts';
import { NODE_STYLE, PALETTE_TYPES } from './node-style.ts';

export const PALETTE_MIME = 'application/x-tessera-workflow-node';

/** The node types to add: drag one onto the canvas, or click (Enter) to add it after the selection. */
export function NodePalette({ onAdd }: { onAdd(type: WfNodeType): void }) {
  const { t } = useTranslation('workflow');
  return (
    <nav className="wf-palette" aria-label={t('designer.palette')}>
      <div className="wf-palette-title">{t('designer.palette')}</div>
      <div className="wf-palette-items">
        {PALETTE_TYPES.map((type) => {
          const { color, icon: Icon } = NODE_STYLE[type];
          return (
            <Tooltip key={type} title={t(`nodeHints.${type}`)} placement="right">
              <button
                type="button"
                className="wf-palette-item"
                style={{ ['--wf-color' as string]: color }}
                draggable
                onDragStart={(e) => {
                  e.dataTransfer.setData(PALETTE_MIME, type);
                  e.dataTransfer.effectAllowed = 'copy';
                }}
                onClick={() => onAdd(type)}
                data-testid={`wf-palette-${type}`}
              >
                <span className="wf-palette-icon">
                  <Icon />
                </span>
                <span>{t(`nodeTypes.${type}`)}</span>
              </button>
            </Tooltip>
          );
        })}
      </div>
      <div className="wf-palette-hint">{t('designer.paletteHint')}</div>
    </nav>
  );
}
