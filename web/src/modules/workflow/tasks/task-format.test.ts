import { describe, expect, it } from 'vitest';
import { isOverdue } from './task-format.ts';

describe('isOverdue', () => {
  const now = new Date('2026-11-26T10:00:00Z');
  it.each([
    ['pending, due an hour ago', { status: 'pending', dueTime: '2026-11-26T09:00:00Z' }, true],
    ['pending, due in an hour', { status: 'pending', dueTime: '2026-11-26T11:00:00Z' }, false],
    ['pending, no due time', { status: 'pending', dueTime: null }, false],
    ['approved after its due time', { status: 'approved', dueTime: '2026-11-26T09:00:00Z' }, false],
  ] as const)('%s', (_, task, expected) => {
    expect(isOverdue(task, now)).toBe(expected);
  });
});
