import { z } from 'zod';
import { zText } from './text.ts';

/** ABP-style paged query: `SkipCount`, `MaxResultCount` (default 100, capped at 1000), `Sorting`, `Filter`. */
export const MAX_RESULT_COUNT_CAP = 1000;
export const DEFAULT_MAX_RESULT_COUNT = 100;

export const ZPagedQuery = z.object({
  SkipCount: z.coerce.number().int().min(0).max(10_000_000).default(0),
  MaxResultCount: z.coerce.number().int().min(1).max(MAX_RESULT_COUNT_CAP).default(DEFAULT_MAX_RESULT_COUNT),
  Sorting: zText().max(100).optional(),
  Filter: zText().max(200).optional(),
});
export type TPagedQuery = z.infer<typeof ZPagedQuery>;

export const pagedResult = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), totalCount: z.number().int() });

export const ZValidationErrorItem = z.object({ message: zText(), members: z.array(zText()) });

/** Every error answer (server/src/platform/errors.ts); the component `Error` of the OpenAPI document. */
export const ZErrorResponse = z
  .object({
    error: z.object({
      code: zText(),
      message: zText(),
      details: z.unknown(),
      validationErrors: z.array(ZValidationErrorItem).nullable(),
    }),
  })
  .meta({ id: 'Error' });
export type TErrorResponse = z.infer<typeof ZErrorResponse>;

export const ZIdParam = z.object({ id: z.uuid() });

/** Trimmed, bounded single-line text. */
export const text = (max: number) => zText().trim().max(max);
