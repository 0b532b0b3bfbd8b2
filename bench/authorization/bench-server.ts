/**
 * The real server with a seeded administration load: 100,000 audit entries, 200 business menus
 * (a role granted 50 of them) and a user with that role. Adds the bare baseline route like
 * bench/lib/bench-server.ts. Prints `READY <url> <userId>`.
 */
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { bizPermission } from '@tessera/core/contracts/permissions';
import { ARGON2_PRODUCTION } from '../../server/src/config.ts';
import { hashPassword } from '../../server/src/platform/passwords.ts';
import { startBenchApp } from '../lib/bench-app.ts';
import { BENCH_ADMIN_PASSWORD as BENCH_PASSWORD } from '../lib/constants.ts';

const AUDIT_ROWS = 100_000;
const MENUS = 200;
const GRANTED = 50;

const { db, ready } = await startBenchApp({
  adminPassword: BENCH_PASSWORD,
  createDatabaseOn: process.env.DATABASE_URL,
  bare: { items: [] as string[], totalCount: 0 },
});

// Audit: sign-ins, failures, denials and changes by 500 users over 30 days.
await sql`
  insert into audit_logs (time, user_id, user_name, action, entity_type, entity_id, ip, details)
  select now() - (i || ' seconds')::interval * 26, null, 'user' || (i % 500),
         (array['LoginSucceeded','LoginFailed','PermissionDenied','Created','Updated','Deleted'])[1 + i % 6],
         case when i % 6 >= 3 then 'BusinessMenu' end, i::text, '10.0.0.' || (i % 250),
         jsonb_build_object('before', jsonb_build_object('n', i), 'after', jsonb_build_object('n', i + 1))
  from generate_series(1, ${AUDIT_ROWS}) as s(i)
`.execute(db);

// Menus: 20 top-level with 9 sub-menus each; a role holds the first 50 codes.
const roleId = uuidv7();
const userId = uuidv7();
await db.insertInto('roles').values({ id: roleId, name: 'bench-role', concurrency_stamp: uuidv7() }).execute();
const menus: { id: string; parent: string | null }[] = [];
for (let i = 0; i < MENUS; i++) menus.push({ id: uuidv7(), parent: i % 10 === 0 ? null : menus[i - (i % 10)]!.id });
await db
  .insertInto('business_menus')
  .values(menus.map((m, i) => ({ id: m.id, parent_id: m.parent, title: JSON.stringify({ 'zh-CN': `菜单${i}`, 'en-US': `Menu ${i}` }), url: 'AppstoreOutlined', associate_key: null, sort_order: i, page_definition_id: null, is_jump: false, permission_code: bizPermission.menu(m.id), concurrency_stamp: uuidv7(), creator_id: null, last_modification_time: null, last_modifier_id: null })))
  .execute();
await db
  .insertInto('permission_definitions')
  .values(menus.map((m, i) => ({ name: bizPermission.menu(m.id), group_name: 'Biz.Menu', group_display_name: '{"zh-CN":"业务菜单"}', parent_name: m.parent ? bizPermission.menu(m.parent) : null, display_name: JSON.stringify({ 'zh-CN': `菜单${i}` }), is_system: false })))
  .execute();
await db.insertInto('permission_grants').values(menus.slice(0, GRANTED).map((m) => ({ name: bizPermission.menu(m.id), provider_name: 'R' as const, provider_key: roleId }))).execute();
await db
  .insertInto('users')
  .values({ id: userId, user_name: 'bench.user', name: 'Bench', surname: '', email: 'bench@example.test', phone_number: '', password_hash: await hashPassword(BENCH_PASSWORD, ARGON2_PRODUCTION), avatar: null, concurrency_stamp: uuidv7(), creator_id: null, last_modification_time: null, last_modifier_id: null, lockout_end: null })
  .execute();
await db.insertInto('user_roles').values({ user_id: userId, role_id: roleId }).execute();
await sql`analyze`.execute(db);

await ready(userId);
