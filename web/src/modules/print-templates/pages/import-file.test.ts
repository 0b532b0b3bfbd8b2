import { emptyPrintLayout, PRINT_TEMPLATE_EXPORT_FORMAT } from '@tessera/core/contracts/print-templates';
import { describe, expect, it } from 'vitest';
import { parsePrintTemplateFile } from './import-file.ts';

const exported = { format: PRINT_TEMPLATE_EXPORT_FORMAT, formatVersion: 1, template: { name: '销售订单', page: { code: 'salesOrder' }, layout: emptyPrintLayout() } };

describe('reading an exported print template', () => {
  it('accepts an export document', () => {
    expect(parsePrintTemplateFile(JSON.stringify(exported))?.template.name).toBe('销售订单');
  });

  it.each([
    ['not JSON', '{'],
    ['another format', JSON.stringify({ ...exported, format: 'tessera.workflow' })],
    ['a broken layout', JSON.stringify({ ...exported, template: { ...exported.template, layout: { paper: {}, elements: [] } } })],
    ['null', 'null'],
  ])('refuses %s', (_, text) => {
    expect(parsePrintTemplateFile(text)).toBeNull();
  });
});
