import { sql, type Kysely } from 'kysely';

// Data sources (issue 16): HTTP/REST APIs as a kind. An HTTP source keeps its base URL, default
// headers, authentication (none / basic / bearer / API key in a header or the query string) and
// test path in `http_settings`, its request timeout in milliseconds in `timeout_ms`; its secret
// (basic password, bearer token or API key) is sealed in `sealed_password` like a database
// password. host / port are its base URL's. A saved query of an HTTP source keeps its request
// (method, path, query, headers, JSON body, rows path) in `request` and an empty `sql`.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table data_sources drop constraint data_sources_kind_check;
    alter table data_sources add constraint data_sources_kind_check check (kind in ('postgres', 'mysql', 'mssql', 'http'));
    alter table data_sources add column http_settings jsonb;
    alter table data_sources add column timeout_ms integer check (timeout_ms between 100 and 300000);
    alter table data_sources add constraint data_sources_http_check check ((kind = 'http') = (http_settings is not null and timeout_ms is not null));
    alter table data_source_methods add column request jsonb;
  `.execute(db);
}
