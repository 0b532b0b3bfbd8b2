import { Input, Select } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TPageDefinitionList } from '@tessera/core/contracts/pages';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../shared/api/client.ts';
import { pickText } from '../../../shared/components/LocalizedTextInput.tsx';
import '../i18n.ts';

/**
 * The page a menu opens: a searchable list of page definitions; the id as text when the caller
 * may not list pages (no Tessera.Pages) so the field still works.
 */
export function PagePicker({ value, onChange, id }: { value?: string | null; onChange?: (v: string | null) => void; id?: string }) {
  const { t, i18n } = useTranslation('businessMenus');
  const [search, setSearch] = useState('');
  const filter = useDeferredValue(search.trim());
  const pages = useQuery({
    queryKey: ['business-menus', 'page-choices', filter],
    queryFn: () => api.get<TPageDefinitionList>('/app/page-definition', { Filter: filter, MaxResultCount: 50, Sorting: 'code' }, { silent: true }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  if (pages.isError) {
    return <Input id={id} allowClear value={value ?? ''} placeholder="00000000-0000-0000-0000-000000000000" onChange={(e) => onChange?.(e.target.value || null)} />;
  }
  const options = (pages.data?.items ?? []).map((p) => ({ value: p.id, label: `${pickText(p.name, i18n.language) || p.code} (${p.code})` }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value });
  return (
    <Select
      id={id}
      allowClear
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={pages.isFetching}
      value={value || undefined}
      placeholder={t('form.pagePlaceholder')}
      options={options}
      notFoundContent={t('form.noPages')}
      onChange={(v: string | undefined) => onChange?.(v ?? null)}
    />
  );
}
