import type { TDataSourceObjects } from '@tessera/core/contracts/data-sources';
import { describe, expect, it } from 'vitest';
import { columnKey, completionSchema, filterObjects, parseTreeKey, schemaKey, tableKey } from './object-tree-data.ts';

const objects: TDataSourceObjects = {
  schemas: [
    { name: 'public', tables: [{ name: 'orders', kind: 'table' }, { name: 'order_totals', kind: 'view' }, { name: 'customers', kind: 'table' }] },
    { name: 'Reporting', tables: [{ name: 'Sales', kind: 'table' }] },
    { name: 'empty', tables: [] },
  ],
};

describe('tree keys', () => {
  it('read back what they were made of, names with dots and spaces included', () => {
    expect(parseTreeKey(schemaKey('my.schema'))).toEqual({ type: 'schema', schema: 'my.schema' });
    expect(parseTreeKey(tableKey('public', 'order lines.2024'))).toEqual({ type: 'table', schema: 'public', table: 'order lines.2024' });
    expect(parseTreeKey(columnKey('public', 'orders', 'id'))).toEqual({ type: 'column' });
  });
});

describe('filterObjects', () => {
  it('keeps everything without a filter', () => {
    expect(filterObjects(objects, '  ')).toBe(objects.schemas);
  });

  it('keeps the tables whose name holds the text, and the schemas holding them', () => {
    expect(filterObjects(objects, 'ORDER')).toEqual([{ name: 'public', tables: [{ name: 'orders', kind: 'table' }, { name: 'order_totals', kind: 'view' }] }]);
  });

  it('keeps a whole schema whose name matches', () => {
    expect(filterObjects(objects, 'report')).toEqual([objects.schemas[1]]);
  });
});

describe('completionSchema', () => {
  it('lists every table, with the columns read so far', () => {
    const columns = {
      [tableKey('public', 'orders')]: { columns: [{ name: 'id', dataType: 'int4', nullable: false, isPrimaryKey: true }, { name: 'total', dataType: 'numeric', nullable: true, isPrimaryKey: false }] },
      [tableKey('public', 'customers')]: { error: 'permission denied' },
    };
    expect(completionSchema(objects, columns)).toEqual({
      public: { orders: ['id', 'total'], order_totals: [], customers: [] },
      Reporting: { Sales: [] },
      empty: {},
    });
  });

  it('is empty before the objects are read', () => {
    expect(completionSchema(undefined, {})).toEqual({});
  });
});
