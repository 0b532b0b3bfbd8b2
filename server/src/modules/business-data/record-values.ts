import { ControlTypeId, formatControlValue, getControlType, numberAccuracyOf } from '@tessera/core/controls/registry';
import { toFixedHalfAwayFromZero } from '@tessera/core/helpers/round';
import type { TPageDataResult } from '@tessera/core/contracts/business-data';
import type { Culture } from '../../platform/messages.ts';
import { iso } from '../../platform/sql-values.ts';
import type { PageAccess, RuntimeControl, RuntimePage } from './runtime-page.ts';
import { sanitizeRichText } from './save/rich-text.ts';

/*
 * Record values (what the API and the formulas see) ↔ column values of the `biz` tables.
 *   text 1001/1006/1007/2001   text                 ''  when empty
 *   lists 1008/1009            text holding JSON    []  (a JSON array of strings/numbers)
 *   picker 4001                text holding JSON    '[]' (selection items)
 *   files 1013/1014            text holding JSON    '[]' (file references: id, name, size, type)
 *   integer 1002               bigint               number
 *   multi-line / rich 1011/1012 text (rich text: sanitised HTML)
 *   decimal 1003, currency 1015 numeric (bound as decimal text, never a float)  number
 *   date 1004                  timestamptz          dateType 1/2: 'YYYY-MM-DD' stored as that UTC
 *                                                   midnight; dateType 3: ISO instant
 *   boolean 1005               boolean
 *   ids 1010/3001/3002         jsonb (a JSON string) string | null
 */

export const LIST_TYPES = new Set<number>([ControlTypeId.MultiSelect, ControlTypeId.MultiValue]);
const PICKER = ControlTypeId.UserOrgPicker;
/** Attachment and image controls: JSON text of file references, like the picker. */
export const FILE_TYPES = new Set<number>([ControlTypeId.Attachment, ControlTypeId.Image]);
const jsonTextEmpty = (c: RuntimeControl) => c.controlType === PICKER || FILE_TYPES.has(c.controlType);

export const isDateOnly = (c: RuntimeControl) => c.tableFieldType === 4 && Number(c.control.extraProperties?.dateType ?? 2) !== 3;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const utcDay = (d: Date) => `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/** A stored (validated) record value → the value bound for its column. */
export function toColumnValue(c: RuntimeControl, value: unknown): unknown {
  if (value === undefined || value === null) return c.tableFieldType === 1 ? (jsonTextEmpty(c) || LIST_TYPES.has(c.controlType) ? '[]' : '') : null;
  switch (c.tableFieldType) {
    case 1:
      if (LIST_TYPES.has(c.controlType)) return JSON.stringify(Array.isArray(value) ? value : []);
      // Rich text a formula or linkage set never passed the parse step's cleaning: clean it here too.
      return getControlType(c.controlType).html ? sanitizeRichText(String(value)) : String(value);
    case 2:
      return typeof value === 'number' ? value : Number(value);
    case 3: {
      const n = typeof value === 'number' ? value : Number(value);
      const accuracy = numberAccuracyOf(c.control);
      return accuracy !== null && accuracy >= 0 && accuracy <= 10 ? toFixedHalfAwayFromZero(n, accuracy) : String(n);
    }
    case 4: {
      const text = String(value);
      return /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text;
    }
    case 5:
      return value === true;
    case 6:
      return JSON.stringify(String(value));
  }
}

/** A column value as read from PostgreSQL/PGlite → the record value. */
export function fromColumnValue(c: RuntimeControl, raw: unknown): unknown {
  switch (c.tableFieldType) {
    case 1:
      if (LIST_TYPES.has(c.controlType)) {
        if (typeof raw !== 'string' || raw === '') return [];
        try {
          const parsed: unknown = JSON.parse(raw);
          return Array.isArray(parsed) ? parsed : [];
        } catch {
          return [];
        }
      }
      if (raw === null || raw === undefined) return jsonTextEmpty(c) ? '[]' : '';
      return String(raw);
    case 2:
    case 3:
      return raw === null || raw === undefined ? null : Number(raw);
    case 4: {
      if (raw === null || raw === undefined) return null;
      const d = raw instanceof Date ? raw : new Date(String(raw));
      if (Number.isNaN(d.getTime())) return null;
      return isDateOnly(c) ? utcDay(d) : d.toISOString();
    }
    case 5:
      return raw === null || raw === undefined ? null : raw === true || raw === 't' || raw === 'true';
    case 6:
      if (raw === null || raw === undefined) return null;
      return typeof raw === 'string' ? raw : JSON.stringify(raw);
  }
}

const SYSTEM_OUT = ['Id', 'ParentViewDataId', 'DataStatus', 'ConcurrencyStamp', 'CreatorId', 'CreationTime', 'LastModifierId', 'LastModificationTime', 'OwnerOrganizationUnitId', 'FlowStatus'] as const;
export const SYSTEM_SELECT = SYSTEM_OUT;

/** A table row → API record: system fields and the controls the caller may see. */
export function rowToRecord(row: Record<string, unknown>, controls: readonly RuntimeControl[]): Record<string, unknown> {
  const record: Record<string, unknown> = {
    Id: row.Id,
    ParentViewDataId: row.ParentViewDataId ?? null,
    DataStatus: Number(row.DataStatus ?? 0),
    // spec §4: rows a data linkage created keep DataStatus 2 so the linkage can replace them.
    isLink: Number(row.DataStatus) === 2,
    ConcurrencyStamp: row.ConcurrencyStamp,
    CreatorId: row.CreatorId ?? null,
    CreationTime: iso(row.CreationTime as Date | string | null),
    LastModifierId: row.LastModifierId ?? null,
    LastModificationTime: iso(row.LastModificationTime as Date | string | null),
    OwnerOrganizationUnitId: row.OwnerOrganizationUnitId ?? null,
    FlowStatus: Number(row.FlowStatus ?? 0),
  };
  for (const c of controls) {
    const value = fromColumnValue(c, row[c.code]);
    record[c.code] = value;
    if (getControlType(c.controlType).hasArrayCompanion) record[`${c.code}Array`] = value === null ? [] : [{ id: value, title: '' }];
  }
  return record;
}

/** Display texts of a record (spec §3 businessDataList): formatted by control type. */
export function recordDisplay(record: Record<string, unknown>, controls: readonly RuntimeControl[], options: { locale: 'zh-CN' | 'en-US'; offsetMinutes: number }) {
  const out: Record<string, unknown> = { Id: record.Id, ParentViewDataId: record.ParentViewDataId ?? null };
  for (const c of controls) out[c.code] = formatControlValue(c.control, record[c.code], options);
  return out;
}

/** A record with every child view as the API answers it: the fields the caller may see, and their display texts. */
export function toPageData(culture: Culture, page: RuntimePage, access: PageAccess, rows: Map<string, Record<string, unknown>[]>, offsetMinutes = 0): TPageDataResult {
  return {
    pageId: page.pageId,
    pageCode: page.pageCode,
    version: page.version,
    viewDataList: page.order.map((view) => {
      const visible = access.visibleControls(view);
      const dataList = (rows.get(view.id) ?? []).map((r) => rowToRecord(r, visible));
      return { viewId: view.id, dataList, businessDataList: dataList.map((r) => recordDisplay(r, visible, { locale: culture, offsetMinutes })) };
    }),
  };
}
