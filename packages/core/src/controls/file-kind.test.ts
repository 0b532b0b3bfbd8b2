import { describe, expect, it } from 'vitest';
import type { TDataControl } from '../page-definition.ts';
import { createNewRecord, formatControlValue, maxFilesOf, parseControlValue, readFileRefs, validateControlValue } from './registry.ts';

// 1013 attachment and 1014 image: JSON text of `[{ id, name, size, type }]`, at most maxFiles.
const control = (controlType: number, maxFiles?: number): TDataControl => ({
  id: 'c', code: 'Files', title: '', controlType, isDisplayed: true, isEdit: true, extraProperties: maxFiles === undefined ? {} : { maxFiles },
});
const ref = (n: number) => ({ id: `0190a0b0-0000-7000-8000-${String(n).padStart(12, '0')}`, name: `合同${n}.pdf`, size: 10 * n, type: 'application/pdf' });

describe('attachment and image values', () => {
  it.each([1013, 1014])('%s: parses lists and JSON text, refuses anything else', (type) => {
    expect(parseControlValue(control(type), [ref(1)])).toEqual({ ok: true, value: JSON.stringify([ref(1)]) });
    expect(parseControlValue(control(type), JSON.stringify([ref(1), ref(2)]))).toEqual({ ok: true, value: JSON.stringify([ref(1), ref(2)]) });
    expect(parseControlValue(control(type), '')).toEqual({ ok: true, value: '[]' });
    expect(parseControlValue(control(type), 'a.pdf')).toEqual({ ok: false, message: 'Expected a list of files' });
    expect(parseControlValue(control(type), [{ id: 'not-a-uuid', name: 'x', size: 1, type: 'x' }]).ok).toBe(false);
    expect(parseControlValue(control(type), [ref(1), ref(1)]).ok).toBe(false);
    expect(createNewRecord({ dataControls: [control(type)] }, { now: new Date() }).record.Files).toBe('[]');
  });

  it('keeps at most maxFiles (default 10)', () => {
    const eleven = Array.from({ length: 11 }, (_, i) => ref(i + 1));
    expect(parseControlValue(control(1013), eleven)).toEqual({ ok: false, message: 'Too many files' });
    expect(parseControlValue(control(1013), eleven.slice(0, 10)).ok).toBe(true);
    expect(parseControlValue(control(1014, 2), eleven.slice(0, 3))).toEqual({ ok: false, message: 'Too many files' });
    expect(maxFilesOf({ extraProperties: { maxFiles: 0 } })).toBe(10);
  });

  it('validates stored values and shows the names', () => {
    expect(validateControlValue(control(1013), JSON.stringify([ref(1)]))).toBeNull();
    expect(validateControlValue(control(1013), '[{"id":1}]')).toBe('Expected a JSON list of files');
    expect(formatControlValue(control(1013), JSON.stringify([ref(1), ref(2)]))).toBe('合同1.pdf, 合同2.pdf');
    expect(readFileRefs('not json')).toEqual([]);
  });
});
