import { factoryValue, type TFactoryType } from '@tessera/core/contracts/data-factory';

/**
 * What a text box holds, as the value sent for a parameter of `type`: empty is null; numbers of
 * number types, true/false of booleans and JSON of jsonb are parsed; the rest stays text. `ok`
 * says whether the server's rule (`factoryValue`) takes it.
 */
export function valueFromText(type: TFactoryType, text: string): { ok: boolean; value: unknown } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  let value: unknown = text;
  if (type === 'integer' || type === 'bigint' || type === 'double') value = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
  else if (type === 'numeric') value = trimmed;
  else if (type === 'boolean') value = trimmed === 'true' ? true : trimmed === 'false' ? false : trimmed;
  else if (type === 'jsonb') {
    try {
      value = JSON.parse(trimmed);
    } catch {
      return { ok: false, value: trimmed };
    }
  } else if (type !== 'text') value = trimmed;
  return { ok: factoryValue(type, value).ok, value };
}

/** A value as a text box shows it (null is empty). */
export const textOfValue = (value: unknown): string => (value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));
