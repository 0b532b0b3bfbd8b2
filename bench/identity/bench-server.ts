/**
 * The real server with 10,000 users spread over 20 organisation units (5 regions × 4 branches)
 * and 8 roles, plus the bare baseline route like bench/lib/bench-server.ts. Prints
 * `READY <url> <regionId> <roleName>` when listening.
 */
import { sql } from 'kysely';
import { v7 as uuidv7 } from 'uuid';
import { ARGON2_PRODUCTION } from '../../server/src/config.ts';
import { hashPassword } from '../../server/src/platform/passwords.ts';
import { startBenchApp } from '../lib/bench-app.ts';
import { BENCH_PASSWORD, USERS } from './constants.ts';

const REGIONS = 5;
const BRANCHES = 4;
const ROLES = 8;

const { db, ready } = await startBenchApp({
  adminPassword: BENCH_PASSWORD,
  createDatabaseOn: process.env.DATABASE_URL,
  bare: { items: [] as string[], totalCount: 0 },
});

// Units: regions 00002…, each with branches 0000r.00001…
const regions: string[] = [];
const branches: string[] = [];
for (let r = 0; r < REGIONS; r++) {
  const id = uuidv7();
  const code = String(r + 2).padStart(5, '0');
  regions.push(id);
  await db.insertInto('organization_units').values({ id, parent_id: null, code, display_name: `大区${r + 1}`, leader_user_id: null, concurrency_stamp: uuidv7(), creation_time: new Date() }).execute();
  for (let b = 0; b < BRANCHES; b++) {
    const branchId = uuidv7();
    branches.push(branchId);
    await db
      .insertInto('organization_units')
      .values({ id: branchId, parent_id: id, code: `${code}.${String(b + 1).padStart(5, '0')}`, display_name: `大区${r + 1}分部${b + 1}`, leader_user_id: null, concurrency_stamp: uuidv7(), creation_time: new Date() })
      .execute();
  }
}
const roles: string[] = [];
for (let i = 0; i < ROLES; i++) {
  const id = uuidv7();
  roles.push(id);
  await db.insertInto('roles').values({ id, name: `role-${i + 1}`, concurrency_stamp: uuidv7(), creation_time: new Date() }).execute();
}

// Users: one shared hash (the list never touches it), every tenth inactive, each in one branch
// with one or two roles.
const passwordHash = await hashPassword('Bench#User2026', ARGON2_PRODUCTION);
await sql`
  insert into users (id, user_name, name, surname, email, phone_number, password_hash, is_active, concurrency_stamp, creation_time)
  select gen_random_uuid(), 'user-' || lpad(i::text, 5, '0'), '用户' || i, (array['张','王','李','赵','陈','刘'])[1 + i % 6],
         'user' || i || '@example.com', '138' || lpad(i::text, 8, '0'), ${passwordHash}, i % 10 <> 0,
         gen_random_uuid()::text, now() - (i || ' seconds')::interval
  from generate_series(1, ${USERS}) as s(i)
`.execute(db);
await sql`
  with numbered as (select id, row_number() over (order by user_name) as n from users where user_name like 'user-%')
  insert into user_organization_units (user_id, organization_unit_id)
  select id, (${sql.val(branches)}::uuid[])[1 + n % ${branches.length}] from numbered
`.execute(db);
await sql`
  with numbered as (select id, row_number() over (order by user_name) as n from users where user_name like 'user-%')
  insert into user_roles (user_id, role_id)
  select id, (${sql.val(roles)}::uuid[])[1 + n % ${ROLES}] from numbered
  union
  select id, (${sql.val(roles)}::uuid[])[1 + (n / 3) % ${ROLES}] from numbered where n % 3 = 0
`.execute(db);
// Steady state: statistics and the visibility map as autovacuum would leave them.
await sql`vacuum analyze`.execute(db);

await ready(regions[0]!, 'role-3');
