import { describe, expect, it } from 'vitest';
import { draftOf, draftProblems, inputOf, newDraft, withRoutine } from './procedure-draft.ts';

describe('the procedure editor draft', () => {
  it('turns a stored procedure into text boxes and back', () => {
    const stored = {
      id: '019ad000-0000-7000-8000-000000000001',
      code: 'f',
      name: 'F',
      description: '',
      parameters: [
        { name: 'p_n', type: 'integer' as const, mode: 'in' as const, defaultValue: 3 },
        { name: 'p_j', type: 'jsonb' as const, mode: 'in' as const, defaultValue: { a: 1 } },
      ],
      returns: { kind: 'table' as const, columns: [{ name: 'n', type: 'integer' as const }] },
      body: 'begin end',
      sourceId: null,
      sourceName: null,
      routine: null,
      permissionCode: 'Tessera.DataFactory.Procedures.0193',
      timeoutSeconds: 5,
      rowCap: 10,
      version: 1,
      concurrencyStamp: 's',
      creationTime: '',
      creatorName: null,
      lastModificationTime: null,
      lastModifierName: null,
    };
    const draft = draftOf(stored);
    expect(draft.parameters.map((p) => p.defaultText)).toEqual(['3', '{"a":1}']);
    expect(draftProblems(draft).size).toBe(0);
    expect(inputOf(draft)).toEqual({ code: 'f', name: 'F', description: '', timeoutSeconds: 5, rowCap: 10, sourceId: null, parameters: stored.parameters, returns: stored.returns, body: 'begin end', routine: null });
  });

  it('marks bad codes, names and defaults by row', () => {
    const draft = { ...newDraft(), code: 'Bad-Code', name: ' ', parameters: [{ key: 7, name: 'x y', type: 'integer' as const, mode: 'in' as const, defaultText: 'abc' }] };
    expect([...draftProblems(draft)].sort()).toEqual(['code', 'name', 'param-default-7', 'param-name-7']);
    expect(inputOf({ ...draft, returnsKind: 'void' }).returns).toEqual({ kind: 'void' });
  });

  it('an external routine: its parameters from the catalogue, no body or table sent; a routine is required, capitals allowed', () => {
    const draft = { ...newDraft(), code: 'summary', name: '汇总', sourceId: '019ad000-0000-7000-8000-000000000002' };
    expect([...draftProblems(draft)]).toEqual(['routine']);
    const picked = withRoutine(draft, {
      schema: 'shop',
      name: 'summary',
      kind: 'procedure',
      returnsTable: false,
      parameters: [
        { name: 'pRegion', mode: 'in', type: 'text', sourceType: 'varchar(20)' },
        { name: 'oCount', mode: 'out', type: 'integer', sourceType: 'int' },
      ],
    });
    expect(draftProblems(picked).size).toBe(0);
    expect(inputOf(picked)).toMatchObject({
      sourceId: draft.sourceId,
      routine: { schema: 'shop', name: 'summary', kind: 'procedure', returnsTable: false },
      parameters: [
        { name: 'pRegion', type: 'text', mode: 'in', defaultValue: null },
        { name: 'oCount', type: 'integer', mode: 'out', defaultValue: null },
      ],
      returns: { kind: 'void' },
      body: '',
    });
    // The product's own functions: lower-case names and a body.
    const own = [...draftProblems({ ...picked, sourceId: null, body: ' ' })];
    expect(own.filter((p) => p.startsWith('param-name-'))).toHaveLength(2);
    expect(own).toContain('body');
  });
});
