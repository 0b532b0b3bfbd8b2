import { describe, expect, it } from 'vitest';
import { EMPTY_GUID, isGuid, newGuid } from './guid.ts';

describe('isGuid', () => {
  it.each([
    ['3f2504e0-4f89-41d3-9a0c-0305e82c3301', true],
    ['3F2504E0-4F89-41D3-9A0C-0305E82C3301', true],
    [EMPTY_GUID, true],
    ['zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', true], // spec §5: alphanumerics, not only hex
    ['3f2504e04f8941d39a0c0305e82c3301', false],
    ['3f2504e0-4f89-41d3-9a0c-0305e82c330', false],
    ['{3f2504e0-4f89-41d3-9a0c-0305e82c3301}', false],
    [' 3f2504e0-4f89-41d3-9a0c-0305e82c3301', false],
    ['3f2504e0-4f89-41d3-9a0c_0305e82c3301', false],
    ['', false],
    [null, false],
    [42, false],
  ])('%s → %s', (value, expected) => {
    expect(isGuid(value)).toBe(expected);
  });
});

describe('newGuid', () => {
  it('produces distinct RFC 4122 version 4 ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, newGuid));
    expect(ids.size).toBe(1000);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(isGuid(id)).toBe(true);
    }
  });
});
