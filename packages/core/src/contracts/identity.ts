import { z } from 'zod';
import { zText } from './text.ts';
import { pagedResult, text, ZPagedQuery } from './common.ts';

// Identity: organisation units, users and roles (ABP identity shapes), and the selection items the
// pickers use (spec §3: 1 organisation unit, 3 user, 4 role).

/** `true`/`false` in a query string. */
const queryBoolean = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

// ---------------------------------------------------------------- organisation units

export const ZOrganizationUnit = z.object({
  id: zText(),
  parentId: zText().nullable(),
  /** Materialised path (`00001.00003`): a unit's descendants are the codes that start with it and a dot. */
  code: zText(),
  displayName: zText(),
  leaderUserId: zText().nullable(),
  leaderName: zText().nullable(),
  /** Direct members (users of this unit, not of the units below). */
  memberCount: z.number().int(),
  childCount: z.number().int(),
  concurrencyStamp: zText(),
  creationTime: zText(),
});
export type TOrganizationUnit = z.infer<typeof ZOrganizationUnit>;

export type TOrganizationUnitNode = TOrganizationUnit & { children: TOrganizationUnitNode[] };
// Recursive, so named: OpenAPI references it as a component (an unnamed cycle has nothing to point at).
export const ZOrganizationUnitNode: z.ZodType<TOrganizationUnitNode> = ZOrganizationUnit.extend({
  get children() {
    return z.array(ZOrganizationUnitNode);
  },
}).meta({ id: 'OrganizationUnitNode' });

export const ZOrganizationUnitQuery = ZPagedQuery.extend({
  ParentId: z.uuid().optional(),
});
export type TOrganizationUnitQuery = z.infer<typeof ZOrganizationUnitQuery>;
export const ZOrganizationUnitList = pagedResult(ZOrganizationUnit);

export const ZCreateOrganizationUnitInput = z.object({
  displayName: text(128).min(1),
  parentId: z.uuid().nullable().optional(),
});
export type TCreateOrganizationUnitInput = z.infer<typeof ZCreateOrganizationUnitInput>;

/** Rename, and move by giving another `parentId` (null: a top-level unit). */
export const ZUpdateOrganizationUnitInput = z.object({
  displayName: text(128).min(1),
  parentId: z.uuid().nullable(),
  concurrencyStamp: zText().min(1).max(64),
});
export type TUpdateOrganizationUnitInput = z.infer<typeof ZUpdateOrganizationUnitInput>;

export const ZDeleteOrganizationUnitQuery = z.object({
  /** Delete the units below as well and detach every member (one transaction). */
  cascade: queryBoolean.default(false),
});

export const ZOrganizationUnitMember = z.object({
  id: zText(),
  userName: zText(),
  name: zText(),
  surname: zText(),
  email: zText(),
  phoneNumber: zText(),
  isActive: z.boolean(),
  isLeader: z.boolean(),
});
export type TOrganizationUnitMember = z.infer<typeof ZOrganizationUnitMember>;
export const ZOrganizationUnitMemberList = pagedResult(ZOrganizationUnitMember);

export const ZOrganizationUnitMembersQuery = ZPagedQuery.extend({
  /** Members of the units below as well. */
  IncludeChildren: queryBoolean.default(false),
});

export const ZAddMembersInput = z.object({ userIds: z.array(z.uuid()).min(1).max(1000) });
export type TAddMembersInput = z.infer<typeof ZAddMembersInput>;

/** The unit's leader (workflows route to "the initiator's leader"); null clears it. Must be a member. */
export const ZSetLeaderInput = z.object({ userId: z.uuid().nullable() });
export type TSetLeaderInput = z.infer<typeof ZSetLeaderInput>;

export const ZUnitMemberParams = z.object({ id: z.uuid(), userId: z.uuid() });

// ---------------------------------------------------------------- users

export const ZUserUnit = z.object({ id: zText(), displayName: zText() });

export const ZIdentityUser = z.object({
  id: zText(),
  userName: zText(),
  name: zText(),
  surname: zText(),
  email: zText(),
  phoneNumber: zText(),
  isActive: z.boolean(),
  lockoutEnabled: z.boolean(),
  /** Until when the user is locked out (ISO 8601), or null. */
  lockoutEnd: zText().nullable(),
  isLockedOut: z.boolean(),
  accessFailedCount: z.number().int(),
  avatar: zText().nullable(),
  roleNames: z.array(zText()),
  organizationUnits: z.array(ZUserUnit),
  concurrencyStamp: zText(),
  creationTime: zText(),
  lastModificationTime: zText().nullable(),
});
export type TIdentityUser = z.infer<typeof ZIdentityUser>;

export const ZUserQuery = ZPagedQuery.extend({
  OrganizationUnitId: z.uuid().optional(),
  /** With OrganizationUnitId: members of the units below as well. */
  IncludeChildUnits: queryBoolean.default(false),
  RoleId: z.uuid().optional(),
  RoleName: text(64).min(1).optional(),
  IsActive: queryBoolean.optional(),
  IsLockedOut: queryBoolean.optional(),
});
export type TUserQuery = z.infer<typeof ZUserQuery>;
export const ZUserList = pagedResult(ZIdentityUser);

export const USER_NAME_PATTERN = /^[A-Za-z0-9_.@+-]+$/;
/** Images up to ~256 KB as data URLs, or a link to one. */
export const AVATAR_MAX_LENGTH = 350_000;
const ZAvatar = z
  .string()
  .max(AVATAR_MAX_LENGTH)
  .regex(/^(data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+|https?:\/\/\S+|\/\S*)$/, 'a data:image URL or a link')
  .nullable();
const ZPhone = zText().trim().max(32).regex(/^[0-9+()\s-]*$/, 'digits, spaces, + - ( )');
// Any local@domain (intranet addresses such as admin@localhost are common in back offices).
const ZEmail = z.union([z.literal(''), zText().max(256).regex(/^[^\s@]+@[^\s@]+$/, 'an e-mail address')]);

const userFields = {
  userName: zText().trim().min(1).max(64).regex(USER_NAME_PATTERN, 'letters, digits and _ . @ + -'),
  name: text(64).default(''),
  surname: text(64).default(''),
  email: zText().trim().pipe(ZEmail).default(''),
  phoneNumber: ZPhone.default(''),
  isActive: z.boolean().default(true),
  lockoutEnabled: z.boolean().default(true),
  avatar: ZAvatar.optional(),
};

export const ZCreateUserInput = z.object({
  ...userFields,
  password: zText().min(1).max(128),
  /** Omitted: the default roles. */
  roleNames: z.array(zText().trim().min(1).max(64)).max(100).optional(),
  organizationUnitIds: z.array(z.uuid()).max(100).default([]),
});
export type TCreateUserInput = z.input<typeof ZCreateUserInput>;

export const ZUpdateUserInput = z.object({
  ...userFields,
  /** Omitted: unchanged; given: exactly these. */
  roleNames: z.array(zText().trim().min(1).max(64)).max(100).optional(),
  organizationUnitIds: z.array(z.uuid()).max(100).optional(),
  concurrencyStamp: zText().min(1).max(64),
});
export type TUpdateUserInput = z.input<typeof ZUpdateUserInput>;

/** Lock for some minutes or until a time (exactly one of them). */
export const ZLockUserInput = z
  .object({
    minutes: z.number().int().min(1).max(60 * 24 * 365 * 100).optional(),
    until: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((v) => (v.minutes === undefined) !== (v.until === undefined), { message: 'give minutes or until', path: ['minutes'] });
export type TLockUserInput = z.infer<typeof ZLockUserInput>;

export const ZResetPasswordInput = z.object({ newPassword: zText().min(1).max(128) });
export type TResetPasswordInput = z.infer<typeof ZResetPasswordInput>;

export const ZRevokeSessionsResult = z.object({ revokedCount: z.number().int() });

/**
 * The import's query string; the workbook itself (the template's columns) is the raw request body,
 * at most IMPORT_MAX_ROWS rows below the header.
 */
export const ZImportUsersQuery = z.object({
  /** The uploaded file's name, recorded as the audit entries' source. */
  fileName: text(255).optional(),
});
export type TImportUsersQuery = z.infer<typeof ZImportUsersQuery>;
export const IMPORT_MAX_ROWS = 1000;

export const ZImportRowError = z.object({ row: z.number().int(), column: zText(), message: zText() });
export type TImportRowError = z.infer<typeof ZImportRowError>;
export const ZImportUsersResult = z.object({ importedCount: z.number().int() });
export type TImportUsersResult = z.infer<typeof ZImportUsersResult>;

/** Columns of the import template and the export, in order. */
export const USER_SHEET_COLUMNS = [
  'userName',
  'name',
  'surname',
  'email',
  'phoneNumber',
  'password',
  'roleNames',
  'organizationUnits',
  'isActive',
] as const;
export type TUserSheetColumn = (typeof USER_SHEET_COLUMNS)[number];

// ---------------------------------------------------------------- roles

export const ZIdentityRole = z.object({
  id: zText(),
  name: zText(),
  description: zText(),
  isDefault: z.boolean(),
  isPublic: z.boolean(),
  isStatic: z.boolean(),
  /** Active members (not deleted). */
  userCount: z.number().int(),
  /** Permissions granted to the role (the administrator role holds all of them). */
  grantedPermissionCount: z.number().int(),
  concurrencyStamp: zText(),
  creationTime: zText(),
});
export type TIdentityRole = z.infer<typeof ZIdentityRole>;

export const ZRoleQuery = ZPagedQuery.extend({ IsDefault: queryBoolean.optional() });
export type TRoleQuery = z.infer<typeof ZRoleQuery>;
export const ZRoleList = pagedResult(ZIdentityRole);

const roleFields = {
  name: zText().trim().min(1).max(64).regex(/^[^,;，；]+$/, 'no commas or semicolons'),
  description: text(256).default(''),
  isDefault: z.boolean().default(false),
  isPublic: z.boolean().default(true),
};
export const ZCreateRoleInput = z.object(roleFields);
export type TCreateRoleInput = z.input<typeof ZCreateRoleInput>;
export const ZUpdateRoleInput = z.object({ ...roleFields, concurrencyStamp: zText().min(1).max(64) });
export type TUpdateRoleInput = z.input<typeof ZUpdateRoleInput>;

export const ZRoleMember = z.object({
  id: zText(),
  userName: zText(),
  name: zText(),
  surname: zText(),
  email: zText(),
  isActive: z.boolean(),
});
export type TRoleMember = z.infer<typeof ZRoleMember>;
export const ZRoleMemberList = pagedResult(ZRoleMember);

/** Roles a user form may assign (no Roles permission needed). */
export const ZAssignableRole = z.object({ id: zText(), name: zText(), isDefault: z.boolean() });
export const ZAssignableRoleList = z.object({ items: z.array(ZAssignableRole) });

// ---------------------------------------------------------------- selection items

/** spec §3 selection-item types. */
export const SELECTION_ITEM_TYPES = { organizationUnit: 1, user: 3, role: 4 } as const;
export type TSelectionItemType = (typeof SELECTION_ITEM_TYPES)[keyof typeof SELECTION_ITEM_TYPES];

/** At most this many selection items in one answer (a page of a search, or ids to resolve). */
export const SELECTION_ITEMS_MAX = 100;

/** Comma-separated ids to resolve (the titles of values already chosen). */
export const ZSelectionIds = z
  .string()
  .max(37 * SELECTION_ITEMS_MAX)
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
  .pipe(z.array(z.uuid()).max(SELECTION_ITEMS_MAX));

/**
 * The directory answers in the context of its use: a picker control on a business page the caller
 * can open (`pageId` + `dataControlId`), or, without them, an administrator's screen.
 */
export const ZSelectionItemQuery = z
  .object({
    type: z.coerce.number().pipe(z.union([z.literal(1), z.literal(3), z.literal(4)])),
    filter: text(100).optional(),
    /** Comma-separated ids to resolve (the titles of values already chosen). */
    ids: ZSelectionIds.optional(),
    pageId: z.uuid().optional(),
    dataControlId: zText().min(1).max(64).optional(),
    skipCount: z.coerce.number().int().min(0).max(100_000).default(0),
    maxResultCount: z.coerce.number().int().min(1).max(SELECTION_ITEMS_MAX).default(50),
  })
  .refine((q) => !q.pageId === !q.dataControlId, { message: 'pageId and dataControlId go together', path: ['dataControlId'] });
export type TSelectionItemQuery = z.input<typeof ZSelectionItemQuery>;

export const ZSelectionItem = z.object({
  id: zText(),
  title: zText(),
  /** A hint shown beside the title: the user name of a user, the parent path of a unit. */
  description: zText().nullable(),
});
export type TSelectionItem = z.infer<typeof ZSelectionItem>;
export const ZSelectionItemList = z.array(ZSelectionItem);
