import type { TableProps } from 'antd';
import { useState } from 'react';

/**
 * Paging and column sorting of an antd table over an ABP-style paged list: the query part
 * (`Sorting`, `SkipCount`, `MaxResultCount`) and the table's `pagination` / `onChange` props.
 */
export function usePagedTable(pageSize = 20) {
  const [paging, setPaging] = useState({ current: 1, pageSize });
  const [sorting, setSorting] = useState<string | undefined>();
  const query = { Sorting: sorting, SkipCount: (paging.current - 1) * paging.pageSize, MaxResultCount: paging.pageSize };
  /** Back to the first page (a filter changed). */
  const firstPage = () => setPaging((p) => ({ ...p, current: 1 }));
  const tableProps = <T,>(total: number, showTotal: (total: number) => string): Pick<TableProps<T>, 'pagination' | 'onChange'> => ({
    pagination: { ...paging, total, showSizeChanger: true, showTotal },
    onChange: (p, _filters, sorter) => {
      setPaging({ current: p.current ?? 1, pageSize: p.pageSize ?? pageSize });
      const s = Array.isArray(sorter) ? sorter[0] : sorter;
      setSorting(s?.order && s.columnKey ? `${String(s.columnKey)} ${s.order === 'ascend' ? 'asc' : 'desc'}` : undefined);
    },
  });
  return { query, firstPage, tableProps };
}
