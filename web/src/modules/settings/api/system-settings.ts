import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TSystemSettings, TSystemSettingsView } from '@tessera/core/contracts/settings';
import { api } from '../../../shared/api/client.ts';

const PATH = '/app/system-settings';
const KEY = ['system-settings'];

export const useSystemSettings = () => useQuery({ queryKey: KEY, queryFn: () => api.get<TSystemSettingsView>(PATH) });

export const useSaveSystemSettings = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TSystemSettings) => api.put<TSystemSettingsView>(PATH, input, { silent: true }),
    onSuccess: (saved) => {
      client.setQueryData(KEY, saved);
      // The login page's link and the roles page read the same settings.
      void client.invalidateQueries({ queryKey: ['register'] });
      void client.invalidateQueries({ queryKey: ['identity', 'roles'] });
    },
  });
};
