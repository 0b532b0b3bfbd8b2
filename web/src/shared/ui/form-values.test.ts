import { describe, expect, it } from 'vitest';
import { validValues } from './form-values.ts';

// Submitting a form with invalid fields is not an error: the values are null, nothing is thrown.

describe('validValues', () => {
  it('answers the values when the rules pass', async () => {
    expect(await validValues({ validateFields: async () => ({ name: '采购员' }) })).toEqual({ name: '采购员' });
  });

  it('answers null for invalid fields (antd rejects with errorFields)', async () => {
    const form = { validateFields: () => Promise.reject({ errorFields: [{ name: ['name'], errors: ['请输入名称'] }], values: {}, outOfDate: false }) };
    expect(await validValues(form)).toBeNull();
  });

  it('passes any other failure on', async () => {
    await expect(validValues({ validateFields: () => Promise.reject(new Error('broken')) })).rejects.toThrow('broken');
  });
});
