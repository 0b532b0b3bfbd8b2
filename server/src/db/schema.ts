import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Timestamps read as Date; optional on insert (columns default to now()). */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, T | string, T | string>;
/** Multilingual text: culture → text, e.g. { "zh-CN": "用户", "en-US": "Users" }. */
export type LocalizedText = Record<string, string>;

export interface UsersTable {
  id: string;
  user_name: string;
  name: string;
  surname: string;
  email: string;
  phone_number: string;
  password_hash: string;
  avatar: string | null;
  is_active: Generated<boolean>;
  lockout_enabled: Generated<boolean>;
  /** An administrator's lock: no sign-in and no live session until then. */
  lockout_end: Timestamp | null;
  /** 0002: the automatic lockout after repeated wrong passwords; blocks new sign-ins only. */
  sign_in_lockout_end: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  access_failed_count: Generated<number>;
  concurrency_stamp: string;
  creation_time: Timestamp;
  creator_id: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
  is_deleted: Generated<boolean>;
  /** 0101: lower-case user name, name, surname, e-mail and phone for the list's text filter (generated). */
  search_text: Generated<string>;
}

export interface RolesTable {
  id: string;
  name: string;
  /** 0100-identity */
  description: Generated<string>;
  is_default: Generated<boolean>;
  is_public: Generated<boolean>;
  is_static: Generated<boolean>;
  concurrency_stamp: string;
  creation_time: Timestamp;
}

export interface UserRolesTable {
  user_id: string;
  role_id: string;
}

export interface OrganizationUnitsTable {
  id: string;
  parent_id: string | null;
  /** Materialised path of zero-padded segments (`00001.00003`) for "unit and below" queries. */
  code: string;
  display_name: string;
  leader_user_id: string | null;
  concurrency_stamp: string;
  creation_time: Timestamp;
}

export interface UserOrganizationUnitsTable {
  user_id: string;
  organization_unit_id: string;
}

export interface PermissionDefinitionsTable {
  name: string;
  group_name: string;
  parent_name: string | null;
  display_name: Json<LocalizedText>;
  group_display_name: Json<LocalizedText>;
  is_system: Generated<boolean>;
}

export interface PermissionGrantsTable {
  id: Generated<string>;
  name: string;
  /** R role, U user, OU organisation unit (ABP provider names). */
  provider_name: 'R' | 'U' | 'OU';
  provider_key: string;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  ip: string | null;
  user_agent: string | null;
}

/** An external database the product reads (contracts/data-sources.ts); the password sealed (platform/secrets.ts). */
export interface DataSourcesTable {
  id: string;
  name: string;
  description: Generated<string>;
  kind: 'postgres' | 'mysql' | 'mssql' | 'http' | 'own';
  host: string;
  port: number;
  database_name: string;
  user_name: string;
  sealed_password: string | null;
  ssl: Generated<boolean>;
  pool_size: number;
  statement_timeout_seconds: number;
  row_cap: number;
  read_only: Generated<boolean>;
  /** An HTTP source's base URL, headers, authentication and test path (ZHttpSourceSettings less its timeout); null for a database. */
  http_settings: Json<unknown> | null;
  /** An HTTP source's request timeout (ms); null for a database. */
  timeout_ms: number | null;
  concurrency_stamp: string;
  creation_time: Timestamp;
  creator_id: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
}

/** A saved query of a data source (contracts/data-sources.ts, "methods"). */
export interface DataSourceMethodsTable {
  id: string;
  source_id: string;
  code: string;
  name: string;
  description: Generated<string>;
  sql: string;
  /** An HTTP source's request (ZHttpRequest); null for SQL. */
  request: Json<unknown> | null;
  /** ZDataSourceMethodParameter[] */
  parameters: Json<unknown>;
  /** { name, dataType }[] */
  columns: Json<unknown>;
  cache_seconds: number;
  concurrency_stamp: string;
  creation_time: Timestamp;
  creator_id: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
}

/** A PL/pgSQL function of the data factory (contracts/data-factory.ts), as its current version made it in schema `factory`. */
export interface DataFactoryProceduresTable {
  id: string;
  code: string;
  name: string;
  description: Generated<string>;
  /** ZProcedureParameter[] */
  parameters: Json<unknown>;
  /** ZProcedureReturns */
  returns: Json<unknown>;
  body: string;
  /** The database source of an external routine; null: a function in schema `factory`. */
  source_id: string | null;
  /** ZRoutine of an external routine, else null. */
  routine: Json<unknown> | null;
  timeout_seconds: number;
  row_cap: number;
  version: number;
  concurrency_stamp: string;
  creation_time: Timestamp;
  creator_id: string | null;
  creator_name: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
  last_modifier_name: string | null;
}

/** Every saved version of a data factory function. */
export interface DataFactoryVersionsTable {
  procedure_id: string;
  version: number;
  parameters: Json<unknown>;
  returns: Json<unknown>;
  body: string;
  routine: Json<unknown> | null;
  restored_from: number | null;
  creation_time: Timestamp;
  creator_id: string | null;
  creator_name: string | null;
}

/** The run log of data factory functions (who, when, values, duration, rows, error). */
export interface DataFactoryRunsTable {
  id: string;
  procedure_id: string;
  version: number;
  user_id: string | null;
  user_name: string | null;
  start_time: Timestamp;
  duration_ms: number;
  parameters: Json<unknown>;
  row_count: number | null;
  error: string | null;
  trigger: Generated<'manual' | 'schedule' | 'button'>;
  schedule_id: string | null;
}

/** A schedule of a data factory procedure (contracts/data-factory.ts ZProcedureSchedule). */
export interface DataFactorySchedulesTable {
  id: string;
  procedure_id: string;
  cron: string;
  time_zone: string;
  parameters: Json<Record<string, unknown>>;
  enabled: boolean;
  description: string;
  next_run_time: Timestamp | null;
  last_run_time: Timestamp | null;
  last_error: string | null;
  concurrency_stamp: string;
  creation_time: Timestamp;
  creator_id: string | null;
  creator_name: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
  last_modifier_name: string | null;
}

/** A print template (contracts/print-templates.ts): the draft layout, bound to a page. */
export interface PrintTemplatesTable {
  id: string;
  name: string;
  description: string | null;
  page_id: string;
  permission_code: string | null;
  approved_only: Generated<boolean>;
  is_enabled: Generated<boolean>;
  /** The draft layout (ZPrintLayout). */
  draft: Json<unknown>;
  published_version: number | null;
  published_time: Timestamp | null;
  concurrency_stamp: string;
  creation_time: Timestamp;
  creator_id: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
  is_deleted: Generated<boolean>;
  deletion_time: Timestamp | null;
  deleter_id: string | null;
}

export interface PrintTemplateVersionsTable {
  template_id: string;
  version: number;
  layout: Json<unknown>;
  published_time: Timestamp;
  published_by: string | null;
}

/** How often a record was printed, and last by whom. */
export interface PrintCountsTable {
  page_id: string;
  record_id: string;
  count: number;
  last_time: Timestamp;
  last_user_id: string | null;
  last_template_id: string | null;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  key_hash: string;
  /** JSON array of permission codes, or null for all the owner's. */
  codes: Json<string[]> | null;
  expires_at: Timestamp | null;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  last_used_ip: string | null;
  revoked_at: Timestamp | null;
  revoked_by: string | null;
}

export interface AuditLogsTable {
  id: Generated<string>;
  time: Timestamp;
  user_id: string | null;
  user_name: string | null;
  action: string;
  entity_type: string | null;
  entity_id: string | null;
  ip: string | null;
  details: Json<Record<string, unknown>> | null;
}

export interface SettingsTable {
  key: string;
  value: Json<unknown>;
}

/** 0002: proof-of-work challenges already used (by nonce), kept until they expire. */
export interface CaptchaUsesTable {
  nonce: string;
  expires_at: Timestamp;
}

export interface DataScopesTable {
  id: string;
  role_id: string;
  /** The business page (its code or id). */
  page_key: string;
  scope: 'all' | 'unitAndBelow' | 'ownUnit' | 'own' | 'custom';
  /** Filter conditions (spec §3) for `custom`, null otherwise. */
  custom_filter: Json<unknown[]> | null;
}

export interface BusinessMenusTable {
  id: string;
  parent_id: string | null;
  title: Json<LocalizedText>;
  /** Icon name (spec §3 `url`). */
  url: string | null;
  associate_key: string | null;
  sort_order: Generated<number>;
  page_definition_id: string | null;
  is_jump: Generated<boolean>;
  permission_code: string;
  concurrency_stamp: string;
  creation_time: Timestamp;
  creator_id: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
}

export interface DictionariesTable {
  id: string;
  code: string;
  title: Json<LocalizedText>;
  description: Generated<string>;
  is_tree: Generated<boolean>;
  concurrency_stamp: string;
  creation_time: Timestamp;
  creator_id: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
}

export interface DictionaryItemsTable {
  id: string;
  dictionary_id: string;
  /** The value records store; never changes. */
  code: string;
  label: Json<LocalizedText>;
  parent_code: string | null;
  sort_order: Generated<number>;
  is_enabled: Generated<boolean>;
  color: string | null;
}

export interface DocumentNumberRulesTable {
  id: string;
  code: string;
  name: string;
  description: Generated<string>;
  reset_period: 'never' | 'yearly' | 'monthly' | 'daily';
  time_zone: string | null;
  /** Ordered segments (packages/core/src/document-number-format.ts). */
  segments: Json<unknown[]>;
  concurrency_stamp: string;
  creation_time: Timestamp;
  creator_id: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
}

export interface DocumentNumberCountersTable {
  rule_id: string;
  period_key: string;
  /** Numbers issued in the period (committed ones: the row lock makes them gap-free). */
  value: number;
}

export interface DocumentNumberReservationsTable {
  id: string;
  rule_id: string;
  period_key: string;
  serial: number;
  doc_no: string;
  status: 'reserved' | 'used' | 'void';
  reserved_at: Timestamp;
  reserved_by: string | null;
  used_at: Timestamp | null;
  voided_at: Timestamp | null;
}

export interface NotificationsTable {
  id: string;
  user_id: string;
  type: 'notice' | 'message' | 'todo';
  title: string;
  content: Generated<string>;
  link: string | null;
  is_read: Generated<boolean>;
  read_time: Timestamp | null;
  creation_time: Timestamp;
  creator_id: string | null;
  creator_name: string | null;
}

/** Uploads of attachment and image controls (module files); bytes on disk under `storage_key`. */
export interface FilesTable {
  id: string;
  page_id: string;
  page_code: string;
  control_code: string;
  original_name: string;
  content_type: string;
  size: number;
  sha256: string;
  storage_key: string;
  created_by: string | null;
  created_at: Timestamp;
  record_id: string | null;
  is_deleted: Generated<boolean>;
}

export interface PageDefinitionsTable {
  id: string;
  /** Page code (`^[A-Za-z][A-Za-z0-9_]{0,39}$`), unique case-insensitively. */
  code: string;
  name: Json<LocalizedText>;
  description: string | null;
  /** The draft design (packages/core/src/page-definition.ts). */
  draft: Json<unknown>;
  concurrency_stamp: string;
  status: Generated<'draft' | 'published' | 'modified'>;
  published_version: number | null;
  published_time: Timestamp | null;
  creation_time: Timestamp;
  creator_id: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
}

export interface PageDefinitionVersionsTable {
  page_id: string;
  version: number;
  definition: Json<unknown>;
  published_by: string | null;
  published_time: Timestamp;
  /** The schema changes the publish applied (contracts/pages.ts ZPublishChange[]). */
  change_summary: Json<unknown[]>;
  /** Columns and tables kept with their data after their control/view was removed (ZHiddenColumn[]). */
  hidden_columns: Json<unknown[]>;
  rolled_back_from: number | null;
}

export interface WorkflowDefinitionsTable {
  id: string;
  name: string;
  description: string | null;
  page_id: string;
  /** Formula choosing among the page's enabled definitions (null: always applies). */
  condition: string | null;
  is_enabled: Generated<boolean>;
  /** The draft graph (packages/core/src/contracts/workflow.ts ZWorkflowGraph). */
  draft: Json<unknown>;
  published_version: number | null;
  published_time: Timestamp | null;
  concurrency_stamp: string;
  creation_time: Timestamp;
  creator_id: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
  is_deleted: Generated<boolean>;
  deletion_time: Timestamp | null;
  deleter_id: string | null;
}

export interface WorkflowDefinitionVersionsTable {
  definition_id: string;
  version: number;
  /** The page and condition as published (the draft may rebind later). */
  page_id: string;
  condition: string | null;
  graph: Json<unknown>;
  published_time: Timestamp;
  published_by: string | null;
}

/** A running or ended workflow on one record (contracts/workflow-runtime.ts ZWorkflowInstance). */
export interface WorkflowInstancesTable {
  id: string;
  definition_id: string;
  version: number;
  page_id: string;
  record_id: string;
  record_title: string;
  initiator_id: string;
  initiator_unit_id: string | null;
  status: 'running' | 'approved' | 'rejected' | 'withdrawn' | 'terminated';
  /** node id → user ids the initiator chose at submit. */
  chosen_assignees: Json<Record<string, string[]>>;
  started_time: Timestamp;
  ended_time: Timestamp | null;
}

/** One visit of a node; a join's visit lists the incoming edges that arrived. */
export interface WorkflowNodeStatesTable {
  id: string;
  instance_id: string;
  node_id: string;
  node_type: string;
  status: 'active' | 'completed' | 'cancelled' | 'skipped';
  arrived_from: ColumnType<string[], string[] | string | undefined, string[] | string>;
  entered_time: Timestamp;
  completed_time: Timestamp | null;
  /** The task whose completion entered this visit (reclaim). */
  caused_by_task_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface WorkflowTasksTable {
  id: string;
  instance_id: string;
  node_state_id: string;
  node_id: string;
  kind: 'approve' | 'cc';
  assignee_id: string;
  status: 'pending' | 'waiting' | 'suspended' | 'approved' | 'rejected' | 'returned' | 'transferred' | 'cancelled' | 'withdrawn';
  seq: Generated<number>;
  is_read: Generated<boolean>;
  comment: string | null;
  transferred_from: string | null;
  /** Not one of the node's own assignees: a delegate, or a signer added before / after `parent_task_id`. */
  origin: ColumnType<'delegate' | 'addBefore' | 'addAfter' | null, 'delegate' | 'addBefore' | 'addAfter' | null | undefined, never>;
  parent_task_id: ColumnType<string | null, string | null | undefined, never>;
  creation_time: Timestamp;
  completed_time: Timestamp | null;
  due_time: Timestamp | null;
}

export interface WorkflowActionsTable {
  id: string;
  instance_id: string;
  task_id: string | null;
  node_id: string | null;
  actor_id: string | null;
  action: string;
  comment: string | null;
  target_user_id: string | null;
  target_node_id: string | null;
  client_request_id: string | null;
  result: Json<unknown> | null;
  creation_time: Timestamp;
}

export interface WorkflowOutboxTable {
  id: string;
  instance_id: string;
  event: 'instance.started' | 'node.entered' | 'task.completed' | 'instance.ended';
  payload: Json<Record<string, unknown>>;
  creation_time: Timestamp;
  published_at: Timestamp | null;
}

export interface LanguagePacksTable {
  id: string;
  culture: string;
  title: string;
  is_enabled: Generated<boolean>;
  flag: string | null;
  sort_order: Generated<number>;
  is_default: Generated<boolean>;
  is_built_in: Generated<boolean>;
  concurrency_stamp: string;
  creation_time: Timestamp;
  creator_id: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
}

export interface LocalizationTextsTable {
  id: string;
  culture: string;
  /** The i18next namespace. */
  resource_name: string;
  key: string;
  value: string;
  creation_time: Timestamp;
  creator_id: string | null;
  last_modification_time: Timestamp | null;
  last_modifier_id: string | null;
  last_modifier_name: string | null;
}

export interface LocalizationVersionTable {
  id: number;
  version: number;
}

export type HelpTranslations = Record<string, { markdown: string; html: string; renderVersion: number }>;

export interface HelpDocumentsTable {
  id: string;
  parent_id: string | null;
  key: string;
  /** A plain title or a multilingual one. */
  title: Json<string | LocalizedText>;
  sort_order: Generated<number>;
  markdown: string;
  /** Sanitised HTML rendered from the Markdown by renderer `render_version`. */
  html: string;
  render_version: number;
  /** The body in other languages: culture → its Markdown and sanitised HTML (as `markdown` / `html`). */
  translations: ColumnType<HelpTranslations, HelpTranslations | string | undefined, HelpTranslations | string>;
  concurrency_stamp: string;
  creation_time: Timestamp;
  creator_id: string | null;
  updated_at: Timestamp;
  updated_by: string | null;
  updated_by_name: string | null;
}

/** 0700: one row per saved business record (issue 8). */
export interface BusinessDataHistoryTable {
  id: string;
  page_id: string;
  master_record_id: string;
  action: 'Created' | 'Updated' | 'Deleted';
  user_id: string | null;
  user_name: string | null;
  time: Timestamp;
  changes: ColumnType<unknown[], string, string>;
}

/** 0700: a user's list settings per page view (saved filters, columns, widths). */
export interface BusinessDataPreferencesTable {
  user_id: string;
  page_id: string;
  view_id: string;
  value: ColumnType<unknown, string, string>;
  last_modification_time: Timestamp;
}

export interface Database {
  users: UsersTable;
  roles: RolesTable;
  user_roles: UserRolesTable;
  organization_units: OrganizationUnitsTable;
  user_organization_units: UserOrganizationUnitsTable;
  permission_definitions: PermissionDefinitionsTable;
  permission_grants: PermissionGrantsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  print_templates: PrintTemplatesTable;
  data_sources: DataSourcesTable;
  data_source_methods: DataSourceMethodsTable;
  data_factory_procedures: DataFactoryProceduresTable;
  data_factory_versions: DataFactoryVersionsTable;
  data_factory_runs: DataFactoryRunsTable;
  data_factory_schedules: DataFactorySchedulesTable;
  print_template_versions: PrintTemplateVersionsTable;
  print_counts: PrintCountsTable;
  audit_logs: AuditLogsTable;
  settings: SettingsTable;
  captcha_uses: CaptchaUsesTable;
  data_scopes: DataScopesTable;
  business_menus: BusinessMenusTable;
  notifications: NotificationsTable;
  dictionaries: DictionariesTable;
  dictionary_items: DictionaryItemsTable;
  document_number_rules: DocumentNumberRulesTable;
  document_number_counters: DocumentNumberCountersTable;
  document_number_reservations: DocumentNumberReservationsTable;
  page_definitions: PageDefinitionsTable;
  page_definition_versions: PageDefinitionVersionsTable;
  language_packs: LanguagePacksTable;
  localization_texts: LocalizationTextsTable;
  localization_version: LocalizationVersionTable;
  help_documents: HelpDocumentsTable;
  business_data_history: BusinessDataHistoryTable;
  business_data_preferences: BusinessDataPreferencesTable;
  files: FilesTable;
  jobs: JobsTable;
  workflow_definitions: WorkflowDefinitionsTable;
  workflow_definition_versions: WorkflowDefinitionVersionsTable;
  workflow_instances: WorkflowInstancesTable;
  workflow_node_states: WorkflowNodeStatesTable;
  workflow_tasks: WorkflowTasksTable;
  workflow_actions: WorkflowActionsTable;
  workflow_outbox: WorkflowOutboxTable;
}

/** The durable job queue (platform/jobs.ts). */
export interface JobsTable {
  id: string;
  queue: string;
  key: string | null;
  payload: Json<Record<string, unknown>>;
  run_at: Timestamp;
  state: ColumnType<'pending' | 'done' | 'failed', 'pending' | 'done' | 'failed' | undefined, 'pending' | 'done' | 'failed'>;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Generated<Timestamp>;
  finished_at: Timestamp | null;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
