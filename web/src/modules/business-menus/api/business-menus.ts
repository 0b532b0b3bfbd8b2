import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TBusinessMenu, TBusinessMenuInput, TBusinessMenuList, TMoveBusinessMenuInput } from '@tessera/core/contracts/business-menus';
import { api } from '../../../shared/api/client.ts';

const PATH = '/app/business-menu';

export const businessMenuKeys = {
  all: ['business-menus'] as const,
  manage: ['business-menus', 'all'] as const,
  mine: ['business-menus', 'mine'] as const,
};

/** spec §7: the caller's own business menus (SkipCount 0, MaxResultCount 100), for the runtime sider. */
export const fetchMyBusinessMenus = () => api.get<TBusinessMenuList>(PATH, { SkipCount: 0, MaxResultCount: 100 });
export const useMyBusinessMenus = () => useQuery({ queryKey: businessMenuKeys.mine, queryFn: fetchMyBusinessMenus });

/** Every menu, for menu management. */
export const useAllBusinessMenus = () =>
  useQuery({
    queryKey: businessMenuKeys.manage,
    queryFn: () => api.get<TBusinessMenuList>(`${PATH}/all`, { SkipCount: 0, MaxResultCount: 1000 }),
  });

function useMenuMutation<V>(fn: (v: V) => Promise<TBusinessMenu | void>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: businessMenuKeys.all }) });
}

export const useCreateBusinessMenu = () => useMenuMutation((input: TBusinessMenuInput) => api.post<TBusinessMenu>(PATH, input, { silent: true }));
export const useUpdateBusinessMenu = () =>
  useMenuMutation((v: { id: string; input: TBusinessMenuInput }) => api.put<TBusinessMenu>(`${PATH}/${v.id}`, v.input, { silent: true }));
export const useMoveBusinessMenu = () =>
  useMenuMutation((v: { id: string; input: TMoveBusinessMenuInput }) => api.post<TBusinessMenu>(`${PATH}/${v.id}/move`, v.input));
export const useDeleteBusinessMenu = () => useMenuMutation((id: string) => api.delete<void>(`${PATH}/${id}`));
