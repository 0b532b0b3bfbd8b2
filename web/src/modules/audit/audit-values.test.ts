import { describe, expect, it } from 'vitest';
import { auditValueText, isMultilingual, type ValueTexts } from './audit-values.ts';

const zh: ValueTexts = {
  yes: '是',
  no: '否',
  empty: '—',
  image: '[图片]',
  localized: (t) => t['zh-CN'] ?? Object.values(t)[0] ?? '',
  time: (iso) => `local(${iso.slice(0, 10)})`,
  separator: '、',
};

describe('audit values as a person reads them', () => {
  it('says yes and no, and a dash for nothing', () => {
    expect(auditValueText(true, zh)).toBe('是');
    expect(auditValueText(false, zh)).toBe('否');
    expect(auditValueText(null, zh)).toBe('—');
    expect(auditValueText(undefined, zh)).toBe('—');
    expect(auditValueText([], zh)).toBe('—');
  });

  it('shows a multilingual text in the interface language, and times in local time', () => {
    expect(auditValueText({ 'zh-CN': '销售管理', 'en-US': 'Sales' }, zh)).toBe('销售管理');
    expect(auditValueText('2026-11-26T04:46:40.123Z', zh)).toBe('local(2026-11-26)');
    expect(auditValueText('2026-11-26 plain text', zh)).toBe('2026-11-26 plain text');
    expect(auditValueText('[image]', zh)).toBe('[图片]');
  });

  it('joins lists, and names a list of objects by their names', () => {
    expect(auditValueText(['管理员', '销售'], zh)).toBe('管理员、销售');
    expect(auditValueText([{ id: 'u1', displayName: '华东区' }, { id: 'u2', displayName: '华南区' }], zh)).toBe('华东区、华南区');
    expect(auditValueText([{ code: 'A', label: { 'zh-CN': '甲', 'en-US': 'A' } }], zh)).toBe('甲');
  });

  it('keeps JSON only for what has no readable form', () => {
    expect(auditValueText({ minLength: 8, requiredClasses: 3 }, zh)).toBe('{"minLength":8,"requiredClasses":3}');
    expect(auditValueText([{ type: 'date', format: 'YYYY' }], zh)).toBe('[{"type":"date","format":"YYYY"}]');
    expect(isMultilingual({ minLength: '8' })).toBe(false);
    expect(auditValueText({ id: 'r1' }, zh)).toBe('{"id":"r1"}');
  });
});
