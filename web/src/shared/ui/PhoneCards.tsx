import { Flex, Pagination, Spin, type TableProps } from 'antd';
import type { ReactNode } from 'react';

/**
 * A list page's rows as cards on a phone, with the table's paging (`usePagedTable().tableProps`)
 * under them: what the page's table is on a wider screen.
 */
export function PhoneCards<T>(props: {
  items: T[];
  /** Loading or refetching: the cards dim under a spinner. */
  fetching: boolean;
  /** What an empty page shows (nothing while the first answer is awaited). */
  empty: ReactNode;
  tableProps: Pick<TableProps<T>, 'pagination' | 'onChange'>;
  card(item: T): ReactNode;
  'data-testid'?: string;
}) {
  const { items, fetching, empty, tableProps, card } = props;
  return (
    <Spin spinning={fetching}>
      {items.length === 0 ? (
        empty
      ) : (
        <Flex vertical gap={8} data-testid={props['data-testid']}>
          {items.map(card)}
          <Pagination
            size="small"
            align="center"
            {...(tableProps.pagination || {})}
            onChange={(current, pageSize) => tableProps.onChange?.({ current, pageSize }, {}, [], { action: 'paginate', currentDataSource: [] })}
          />
        </Flex>
      )}
    </Spin>
  );
}
