import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TNotificationList, TNotificationType, TUnreadCounts } from '@tessera/core/contracts/notifications';
import { api } from '../../../shared/api/client.ts';

const PATH = '/app/notifications';
const PAGE_SIZE = 10;
/** The header badge and the title prefix follow new notifications within a minute. */
const POLL_MS = 60_000;

export const notificationKeys = {
  all: ['notifications'] as const,
  unread: ['notifications', 'unread'] as const,
  list: (type: TNotificationType, unreadOnly: boolean) => ['notifications', 'list', type, unreadOnly] as const,
};

export const fetchUnreadCounts = () => api.get<TUnreadCounts>(`${PATH}/unread-count`, undefined, { silent: true, quietUnauthorized: true });

/** The unread counts (also prefetched with the shell's first answers). */
export const unreadCountsQuery = () => ({ queryKey: notificationKeys.unread, queryFn: fetchUnreadCounts, staleTime: 10_000 });
export const useUnreadCounts = (enabled = true) => useQuery({ ...unreadCountsQuery(), enabled, refetchInterval: POLL_MS, placeholderData: keepPreviousData });

export const useNotificationList = (type: TNotificationType, unreadOnly: boolean, enabled: boolean) =>
  useInfiniteQuery({
    queryKey: notificationKeys.list(type, unreadOnly),
    enabled,
    initialPageParam: 0,
    queryFn: ({ pageParam }) =>
      api.get<TNotificationList>(PATH, { type, isRead: unreadOnly ? false : undefined, SkipCount: pageParam, MaxResultCount: PAGE_SIZE }),
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.items.length, 0);
      return loaded < last.totalCount ? loaded : undefined;
    },
  });

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<void>(`${PATH}/${id}/read`),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (type?: TNotificationType) => api.post<{ count: number }>(`${PATH}/read-all`, { type }),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationKeys.all }),
  });
}
