import { theme } from 'antd';
import type { CSSProperties } from 'react';

/** The canvas colours from the antd theme tokens (light and dark), as the --wf-* variables flow-designer.css reads. */
export function useFlowColours(): { style: CSSProperties; dark: boolean } {
  const { token } = theme.useToken();
  const style = {
    '--wf-bg': token.colorBgLayout,
    '--wf-panel': token.colorBgContainer,
    '--wf-border': token.colorBorderSecondary,
    '--wf-text': token.colorText,
    '--wf-text-2': token.colorTextSecondary,
    '--wf-primary': token.colorPrimary,
    '--wf-primary-bg': token.colorPrimaryBg,
    '--wf-error': token.colorError,
  } as CSSProperties;
  const bg = token.colorBgContainer.toLowerCase();
  return { style, dark: bg !== '#ffffff' && bg !== '#fff' };
}
