import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TImportPackInput,
  TImportPackResult,
  TLanguageDictionary,
  TLanguagePack,
  TLanguagePackInput,
  TLanguagePackList,
  TLocalizationText,
  TLocalizationTextInput,
  TPagedTextList,
  TPagedTextsQuery,
  TPublicLanguagePackList,
} from '@tessera/core/contracts/localization';
import { api, ApiError } from '../../../shared/api/client.ts';
import { downloadFile } from '../../../shared/api/download.ts';
import { uploadFile } from '../../../shared/api/upload.ts';

const BASE = '/app/localization';

export const localizationKeys = {
  all: ['localization'] as const,
  publicPacks: ['localization', 'packs', 'public'] as const,
  packs: ['localization', 'packs', 'all'] as const,
  texts: (query: Partial<TPagedTextsQuery>) => ['localization', 'texts', query] as const,
  allTexts: (culture: string) => ['localization', 'texts', 'all', culture] as const,
  dictionary: (culture: string) => ['localization', 'dictionary', culture] as const,
};

// ---------------------------------------------------------------- packs

/** The enabled packs (public: also before sign-in). */
export const fetchPublicPacks = () => api.get<TPublicLanguagePackList>(`${BASE}/language-packs`, undefined, { silent: true });
export const publicPacksQuery = () => ({ queryKey: localizationKeys.publicPacks, queryFn: fetchPublicPacks, staleTime: 60_000 });
export const usePublicPacks = () => useQuery(publicPacksQuery());

export const useLanguagePacks = () =>
  useQuery({ queryKey: localizationKeys.packs, queryFn: () => api.get<TLanguagePackList>(`${BASE}/language-packs/all`) });

function useLocalizationMutation<V, R>(fn: (v: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => client.invalidateQueries({ queryKey: localizationKeys.all }) });
}

export const useCreatePack = () => useLocalizationMutation((input: TLanguagePackInput) => api.post<TLanguagePack>(`${BASE}/language-pack`, input, { silent: true }));
export const useUpdatePack = () =>
  useLocalizationMutation((v: { id: string; input: TLanguagePackInput }) => api.put<TLanguagePack>(`${BASE}/${v.id}/language-pack`, v.input, { silent: true }));
export const useDeletePack = () => useLocalizationMutation((id: string) => api.delete<void>(`${BASE}/${id}/language-pack`));

// ---------------------------------------------------------------- texts

export const fetchTexts = (query: Partial<TPagedTextsQuery>) => api.get<TPagedTextList>(`${BASE}/paged-texts`, query as Record<string, string | number | boolean | undefined>);
export const usePagedTexts = (query: Partial<TPagedTextsQuery>, enabled = true) =>
  useQuery({ queryKey: localizationKeys.texts(query), queryFn: () => fetchTexts(query), enabled, placeholderData: keepPreviousData });

/** Every administrator text of a culture (page by page; a pack holds a few thousand at most). */
export async function fetchAllTexts(culture: string) {
  const items: TPagedTextList['items'] = [];
  for (let skip = 0; ; skip += 1000) {
    const page = await fetchTexts({ Culture: culture, SkipCount: skip, MaxResultCount: 1000, Sorting: 'key' });
    items.push(...page.items);
    if (items.length >= page.totalCount || page.items.length === 0) return items;
  }
}
export const useAllTexts = (culture: string | undefined) =>
  useQuery({ queryKey: localizationKeys.allTexts(culture ?? ''), queryFn: () => fetchAllTexts(culture!), enabled: !!culture });

/** The built-in and administrators' texts of a pack, nested (404 for a disabled pack → empty). */
export const fetchDictionary = (culture: string) =>
  api.get<TLanguageDictionary>(`${BASE}/language-dictionary`, { culture }, { silent: true }).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) return {} as TLanguageDictionary;
    throw err;
  });
export const useDictionary = (culture: string | undefined) =>
  useQuery({ queryKey: localizationKeys.dictionary(culture ?? ''), queryFn: () => fetchDictionary(culture!), enabled: !!culture });

export const createText = (input: TLocalizationTextInput) => api.post<TLocalizationText>(`${BASE}/text`, input, { silent: true });
export const updateText = (id: string, input: TLocalizationTextInput) => api.put<TLocalizationText>(`${BASE}/${id}/text`, input, { silent: true });
export const deleteText = (id: string) => api.delete<void>(`${BASE}/${id}/text`, { silent: true });

// ---------------------------------------------------------------- import / export

/** A pack file: a JSON file goes as JSON, an Excel workbook as it is (the raw body of `import-xlsx`). */
export type PackFile = { culture: string; format: 'json'; content: TImportPackInput['content'] } | { culture: string; format: 'xlsx'; file: File };
export const useImportPack = () =>
  useLocalizationMutation((input: PackFile) =>
    input.format === 'json'
      ? api.post<TImportPackResult>(`${BASE}/import`, { culture: input.culture, format: 'json', content: input.content } satisfies TImportPackInput, { silent: true })
      : uploadFile<TImportPackResult>(`${BASE}/import-xlsx`, input.file, { query: { culture: input.culture } }),
  );

/** Downloads a pack as JSON or Excel with the caller's token. */
export const downloadPack = (culture: string, format: 'json' | 'xlsx') =>
  downloadFile(`${BASE}/export`, { query: { culture, format }, fileName: `language-pack-${culture}.${format}` });
