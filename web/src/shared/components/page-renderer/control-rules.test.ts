import { describe, expect, it } from 'vitest';
import { checkControlValue, ruleProblemText } from './control-rules.ts';

// A field's problem reads in the interface language, including the core's value messages.

const t = (key: string, o: Record<string, unknown>) => `${key}|${String(o.title)}|${String(o.message ?? '')}`;
const dateControl = { id: 'd', code: 'Due', title: '交期', controlType: 1004, isDisplayed: true, isEdit: true, extraProperties: { dateType: 2 } };

describe('rule problems', () => {
  it("translate the core's English value messages for a Chinese interface and keep them for English", () => {
    const problem = checkControlValue(dateControl, 'not a date');
    expect(problem).toMatchObject({ key: 'invalid' });
    expect(ruleProblemText(t, problem!, '交期', 'zh-CN')).toBe('invalid|交期|日期格式不正确，应为 ISO 8601 格式（如 2024-03-05 或 2024-03-05T08:30）');
    expect(ruleProblemText(t, problem!, 'Due', 'en-US')).toBe('invalid|Due|Invalid ISO 8601 date format');
  });

  it('other problems are the renderer’s own texts by key', () => {
    const problem = checkControlValue({ id: 'q', code: 'Qty', title: '数量', controlType: 1002, isDisplayed: true, isEdit: true }, 2.5);
    expect(problem).toEqual({ key: 'wholeNumber' });
    expect(ruleProblemText(t, problem!, '数量', 'zh-CN')).toBe('wholeNumber|数量|');
  });
});
