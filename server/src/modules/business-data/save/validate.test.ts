import { describe, expect, it } from 'vitest';
import type { ValidationErrorItem } from '../../../platform/errors.ts';
import { AppError } from '../../../platform/errors.ts';
import { savePipelineFixture } from '../../../../test/business-data-fixtures.ts';
import type { PageRows } from './model.ts';
import { validatePage, validateRow } from './validate.ts';

describe('validateRow', () => {
  it('reports required, length and range problems once per field', () => {
    const { session, master } = savePipelineFixture();
    const errors: ValidationErrorItem[] = [];
    validateRow(session.t, master, { Name: '', Qty: -1 }, 'm', errors);
    expect(errors.map((e) => e.members[0])).toEqual(['m.Name', 'm.Qty']);
    const again: ValidationErrorItem[] = [{ message: 'earlier', members: ['m.Name'] }];
    validateRow(session.t, master, { Name: 'toolong', Qty: 1 }, 'm', again);
    expect(again).toHaveLength(1);
    const long: ValidationErrorItem[] = [];
    validateRow(session.t, master, { Name: 'toolong', Qty: 1 }, 'm', long);
    expect(long).toEqual([{ message: expect.stringContaining('5') as string, members: ['m.Name'] }]);
  });
});

describe('validatePage', () => {
  it('passes valid rows and throws one 400 with earlier problems and every rule broken', () => {
    const { page, session, master, lines } = savePipelineFixture();
    const rows: PageRows = new Map([
      [master.id, [{ record: { Name: 'Box', Qty: 2 }, stored: null, member: 'm' }]],
      [lines.id, [{ record: { Product: 'P', Amount: 1 }, stored: null, member: 'l' }]],
    ]);
    expect(() => validatePage(session.t, page, rows)).not.toThrow();
    rows.get(master.id)![0].record.Name = '';
    let error: unknown;
    try {
      validatePage(session.t, page, rows, [{ message: 'bad id', members: ['l.Id'] }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(400);
    expect((error as AppError).message).toBe('bad id');
    expect((error as AppError).options.validationErrors!.map((v) => v.members[0])).toEqual(['l.Id', 'm.Name']);
  });
});
