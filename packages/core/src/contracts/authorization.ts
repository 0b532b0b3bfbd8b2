import { z } from 'zod';
import { zText } from './text.ts';
import { BIZ_ACTIONS } from './permissions.ts';
import { findFilterOperator } from '../filters/operators.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';

/** ABP permission providers: R role, U user, OU organisation unit. */
export const ZProviderName = z.enum(['R', 'U', 'OU']);
export type TProviderName = z.infer<typeof ZProviderName>;

/** spec §3 selection-item types: 1 organisation unit, 3 user, 4 role. */
export const SELECTION_TYPE_TO_PROVIDER: Record<1 | 3 | 4, TProviderName> = { 1: 'OU', 3: 'U', 4: 'R' };

/** Multilingual text: culture → text, e.g. `{ "zh-CN": "用户", "en-US": "Users" }`; at least one non-empty entry. */
export const ZLocalizedText = z
  .record(zText().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'culture like zh-CN or en-US'), text(200))
  .refine((v) => Object.values(v).some((s) => s.length > 0), { message: 'at least one language needs a text' })
  .refine((v) => Object.keys(v).length <= 20, { message: 'at most 20 languages' });
export type TLocalizedText = z.infer<typeof ZLocalizedText>;

// ---------------------------------------------------------------- permission management (ABP shape)

export const ZPermissionProviderQuery = z.object({
  providerName: ZProviderName,
  providerKey: z.uuid(),
});
export type TPermissionProviderQuery = z.infer<typeof ZPermissionProviderQuery>;

export const ZGrantedProvider = z.object({ providerName: ZProviderName, providerKey: zText() });

export const ZPermissionGrantInfo = z.object({
  name: zText(),
  displayName: zText(),
  parentName: zText().nullable(),
  /** Granted to this provider directly or through another (a user's roles and units). */
  isGranted: z.boolean(),
  /** Where the grant comes from; an entry other than the queried provider is inherited (read-only here). */
  grantedProviders: z.array(ZGrantedProvider),
});
export type TPermissionGrantInfo = z.infer<typeof ZPermissionGrantInfo>;

export const ZPermissionGroup = z.object({
  name: zText(),
  displayName: zText(),
  isSystem: z.boolean(),
  permissions: z.array(ZPermissionGrantInfo),
});
export type TPermissionGroup = z.infer<typeof ZPermissionGroup>;

export const ZPermissionListResult = z.object({
  entityDisplayName: zText(),
  /** The administrator role holds every permission; its grants cannot be edited. */
  isReadOnly: z.boolean(),
  groups: z.array(ZPermissionGroup),
});
export type TPermissionListResult = z.infer<typeof ZPermissionListResult>;

export const ZUpdatePermissionsInput = z.object({
  permissions: z
    .array(z.object({ name: zText().trim().min(1).max(200), isGranted: z.boolean() }))
    .max(10_000),
});
export type TUpdatePermissionsInput = z.infer<typeof ZUpdatePermissionsInput>;

// ---------------------------------------------------------------- permission definitions

/** Designer-defined codes: `Biz.<page>.<action>` (letters, digits, underscores between dots). */
export const BIZ_PERMISSION_PATTERN = /^Biz\.[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;
/** Codes of business menus are owned by the menu (created and removed with it). */
export const BIZ_MENU_GROUP = 'Biz.Menu';
/** The data factory's group: besides its system codes, one code per procedure (who may run it), owned by the procedure. */
export const FACTORY_PROCEDURE_GROUP = 'Tessera.DataFactory';
/** Groups whose codes their module owns: shown and granted, never edited or deleted in the definitions designer. */
export const MODULE_OWNED_GROUPS: readonly string[] = [BIZ_MENU_GROUP, FACTORY_PROCEDURE_GROUP];
export const ZBizPermissionName = zText().trim().max(200).regex(BIZ_PERMISSION_PATTERN, 'a code like Biz.Page.Action');
export const ZPageCode = zText().trim().min(1).max(64).regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'letters, digits and _ , starting with a letter');

export const ZPermissionDefinition = z.object({
  name: zText(),
  groupName: zText(),
  groupDisplayName: z.record(zText(), zText()),
  parentName: zText().nullable(),
  displayName: z.record(zText(), zText()),
  isSystem: z.boolean(),
  /** System codes and business-menu codes are changed only by their owner. */
  isReadOnly: z.boolean(),
});
export type TPermissionDefinition = z.infer<typeof ZPermissionDefinition>;

export const ZPermissionDefinitionQuery = ZPagedQuery.extend({
  GroupName: zText().max(200).optional(),
  IsSystem: z.enum(['true', 'false']).optional(),
});
export type TPermissionDefinitionQuery = z.infer<typeof ZPermissionDefinitionQuery>;
export const ZPermissionDefinitionList = pagedResult(ZPermissionDefinition);

export const ZPermissionDefinitionGroup = z.object({
  name: zText(),
  displayName: z.record(zText(), zText()),
  isSystem: z.boolean(),
  count: z.number().int(),
});
export const ZPermissionDefinitionGroupList = z.object({ items: z.array(ZPermissionDefinitionGroup) });
export type TPermissionDefinitionGroup = z.infer<typeof ZPermissionDefinitionGroup>;

export const ZCreatePermissionDefinitionInput = z.object({
  name: ZBizPermissionName,
  groupName: ZBizPermissionName,
  groupDisplayName: ZLocalizedText,
  parentName: ZBizPermissionName.nullish(),
  displayName: ZLocalizedText,
});
export type TCreatePermissionDefinitionInput = z.infer<typeof ZCreatePermissionDefinitionInput>;

export const ZUpdatePermissionDefinitionInput = ZCreatePermissionDefinitionInput.omit({ name: true, groupName: true });
export type TUpdatePermissionDefinitionInput = z.infer<typeof ZUpdatePermissionDefinitionInput>;

export const ZPermissionNameParam = z.object({ name: zText().trim().min(1).max(200) });

/** One business page's codes at once: access, each button, view/edit per field (`bizPermission`). */
export const ZPagePermissionsInput = z.object({
  pageCode: ZPageCode,
  displayName: ZLocalizedText,
  buttons: z.array(z.object({ code: ZPageCode, displayName: ZLocalizedText })).max(200).default([]),
  fields: z.array(z.object({ code: ZPageCode, displayName: ZLocalizedText })).max(500).default([]),
  /** Everyday actions that get the page's default codes (`Biz.<page>.Action.Add`, …). */
  actions: z.array(z.enum(BIZ_ACTIONS)).max(BIZ_ACTIONS.length).default([]),
});
export type TPagePermissionsInput = z.input<typeof ZPagePermissionsInput>;
export const ZPagePermissionsResult = z.object({ created: z.array(zText()), existing: z.array(zText()) });

// ---------------------------------------------------------------- data scopes

export const DATA_SCOPES = ['all', 'unitAndBelow', 'ownUnit', 'own', 'custom'] as const;
export const ZDataScopeKind = z.enum(DATA_SCOPES);
export type TDataScopeKind = z.infer<typeof ZDataScopeKind>;

/** spec §3 filter condition, as stored for a custom data scope (compiled by the business-data module). */
export const ZScopeFilterCondition = z.object({
  filterId: zText().max(64).optional(),
  key: zText().trim().min(1).max(100).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a field code'),
  joinConditionMethod: z.union([z.number().int(), zText().max(30)]).optional(),
  /** An operator of the filter table (`filters/operators.ts`): its code or numeric id. */
  judgmentMethod: z
    .union([z.number().int(), zText().max(30)])
    .refine((m) => !!findFilterOperator(m), { message: 'an operator such as eq, contains, in, between' }),
  value: z.union([zText().max(1000), z.number(), z.boolean(), z.null(), z.array(z.union([zText().max(1000), z.number()])).max(500)]),
  leftBracket: zText().regex(/^\(*$/, 'only ( characters').max(10).optional(),
  rightBracket: zText().regex(/^\)*$/, 'only ) characters').max(10).optional(),
  linkCondition: z.union([z.number().int(), z.enum(['and', 'or', 'AND', 'OR'])]).optional(),
  sortNo: z.number().int().optional(),
  tableFieldType: z.number().int().min(1).max(6).optional(),
  isSys: z.boolean().optional(),
});
export type TScopeFilterCondition = z.infer<typeof ZScopeFilterCondition>;

export const ZPageKey = zText().trim().min(1).max(128).regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a page code or id');

export const ZDataScope = z.object({
  pageKey: ZPageKey,
  scope: ZDataScopeKind,
  /** Only for `custom`: the conditions a row must meet. */
  customFilter: z.array(ZScopeFilterCondition).max(50).nullable().default(null),
});
export type TDataScope = z.infer<typeof ZDataScope>;

export const ZDataScopeQuery = z.object({ roleId: z.uuid() });
export const ZDataScopeList = z.object({ roleId: zText(), roleName: zText(), items: z.array(ZDataScope) });
export type TDataScopeList = z.infer<typeof ZDataScopeList>;
export const ZUpdateDataScopesInput = z.object({ items: z.array(ZDataScope).max(1000) });
export type TUpdateDataScopesInput = z.input<typeof ZUpdateDataScopesInput>;
