import { describe, expect, it } from 'vitest';
import { mapValidationErrors, memberPath, setFieldErrors, type FieldErrors } from './validation-errors.ts';

const error = (message: string, ...members: string[]) => ({ message, members });

describe('memberPath', () => {
  it('drops the body. of a schema error and turns list positions into indexes', () => {
    expect(memberPath('body.items.3.code')).toEqual(['items', 3, 'code']);
    expect(memberPath('items.3.code')).toEqual(['items', 3, 'code']);
    expect(memberPath('userName')).toEqual(['userName']);
  });

  it('keeps a field that merely starts with "body"', () => {
    expect(memberPath('bodyText')).toEqual(['bodyText']);
    expect(memberPath('body')).toEqual([]);
  });
});

describe('mapValidationErrors', () => {
  it('puts a message on the top-level field its member names, with or without body.', () => {
    const mapped = mapValidationErrors([error('Taken', 'body.userName'), error('Too short', 'password')], { fields: ['userName', 'password'] });
    expect(mapped.fields).toEqual([
      { name: ['userName'], errors: ['Taken'] },
      { name: ['password'], errors: ['Too short'] },
    ]);
    expect(mapped.general).toEqual([]);
  });

  it('keeps messages naming no field of the form for a general alert, in order', () => {
    const mapped = mapValidationErrors([error('Bad segment', 'segments.0.type'), error('Taken', 'code'), error('Too many', '')], { fields: ['code'] });
    expect(mapped.fields).toEqual([{ name: ['code'], errors: ['Taken'] }]);
    expect(mapped.general).toEqual(['Bad segment', 'Too many']);
  });

  it('gathers several messages for one field instead of keeping only the last', () => {
    const mapped = mapValidationErrors([error('Too short', 'name'), error('Invalid characters', 'body.name')], { fields: ['name'] });
    expect(mapped.fields).toEqual([{ name: ['name'], errors: ['Too short', 'Invalid characters'] }]);
  });

  it('names nested fields to the depth asked for (settings groups)', () => {
    const mapped = mapValidationErrors([error('At least 8', 'body.passwordPolicy.minLength'), error('Unknown role', 'registration.defaultRoleIds.2')], { depth: 2 });
    expect(mapped.fields.map((f) => f.name)).toEqual([
      ['passwordPolicy', 'minLength'],
      ['registration', 'defaultRoleIds'],
    ]);
  });

  it('gives list items antd name paths with numeric indexes', () => {
    const mapped = mapValidationErrors([error('Duplicate', 'items.3.code')], { depth: Infinity });
    expect(mapped.fields).toEqual([{ name: ['items', 3, 'code'], errors: ['Duplicate'] }]);
  });

  it('without a field list every member names a field', () => {
    expect(mapValidationErrors([error('Required', 'displayName')]).fields).toEqual([{ name: ['displayName'], errors: ['Required'] }]);
  });

  it('lets the caller decide which field a path names', () => {
    const mapped = mapValidationErrors([error('Required', 'title'), error('Unknown', 'parentId'), error('Odd', 'other')], {
      field: (path) => (path[0] === 'title' ? ['titles', 'zh-CN'] : path[0] === 'parentId' ? path : undefined),
    });
    expect(mapped.fields).toEqual([
      { name: ['titles', 'zh-CN'], errors: ['Required'] },
      { name: ['parentId'], errors: ['Unknown'] },
    ]);
    expect(mapped.general).toEqual(['Odd']);
  });

  it('a message whose members name two fields shows at both', () => {
    const mapped = mapValidationErrors([error('Must differ', 'start', 'end')], { fields: ['start', 'end'] });
    expect(mapped.fields).toEqual([
      { name: ['start'], errors: ['Must differ'] },
      { name: ['end'], errors: ['Must differ'] },
    ]);
  });

  it('copes with an error body without validation errors', () => {
    expect(mapValidationErrors(null)).toEqual({ fields: [], general: [] });
    expect(mapValidationErrors([error('Server says no')])).toEqual({ fields: [], general: ['Server says no'] });
  });
});

describe('setFieldErrors', () => {
  it('hands the fields to the form, and leaves the form alone when there are none', () => {
    const calls: unknown[] = [];
    const form = { setFields: (fields: never[]) => void calls.push(fields) };
    const fields: FieldErrors[] = [{ name: ['code'], errors: ['Taken'] }];
    setFieldErrors(form, []);
    expect(calls).toEqual([]);
    setFieldErrors(form, fields);
    expect(calls).toEqual([fields]);
  });
});
