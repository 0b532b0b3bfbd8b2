/**
 * The lexical guard of a function body (README "Data factory"). Functions run as the restricted
 * role `tessera_factory` under `SET LOCAL ROLE`; but the session's own user is the product's, and
 * PostgreSQL lets a body go back to it (`RESET ROLE`, `set_config('role', …)`, `SET SESSION
 * AUTHORIZATION`), or run text it builds at run time, where no word of it can be checked. So a body
 * may not contain — anywhere, in code, strings or comments, in any letter case — a word that does
 * that, that changes the database's structure or rights, reaches files or other sessions, or changes
 * the run's timeout. This is a word list, not a parser: it refuses some harmless bodies (a string
 * mentioning a role) rather than letting a dangerous one through; it is not a proof that nothing
 * else can.
 */
const FORBIDDEN_WORDS = [
  // Who the body runs as.
  'role', 'authorization', 'set_config', 'reset', 'session_user',
  // Text run as SQL at run time (its words cannot be checked here).
  'execute', 'prepare', 'deallocate', 'query_to_xml', 'query_to_xmlschema', 'query_to_xml_and_xmlschema',
  'cursor_to_xml', 'cursor_to_xmlschema', 'table_to_xml', 'table_to_xmlschema', 'table_to_xml_and_xmlschema',
  'schema_to_xml', 'database_to_xml', 'ts_stat', 'ts_rewrite', 'dblink', 'dblink_exec',
  // Structure, rights, files, other sessions, the server.
  'create', 'alter', 'drop', 'grant', 'revoke', 'truncate', 'copy', 'security', 'definer', 'pg_temp',
  'lo_import', 'lo_export', 'lo_from_bytea', 'pg_read_file', 'pg_read_binary_file', 'pg_ls_dir', 'pg_stat_file',
  'pg_terminate_backend', 'pg_cancel_backend', 'pg_reload_conf', 'pg_rotate_logfile', 'listen', 'notify', 'pg_notify',
  'vacuum', 'checkpoint', 'load', 'discard', 'lock',
  // The run's limits.
  'statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout', 'transaction_timeout',
];

const WORDS = new RegExp(`(?<![A-Za-z0-9_$])(${FORBIDDEN_WORDS.join('|')})(?![A-Za-z0-9_$])`, 'i');
/** `DO` runs a block of text; `ON CONFLICT DO …` is a clause of an insert. */
const DO_BLOCK = /(?<![A-Za-z0-9_$])(?<!conflict\s+)do(?![A-Za-z0-9_$])/i;

/**
 * Escapes that spell a letter by its number (U&"\0072ole", E'\x72ole', E'\162ole'): a function's
 * name or a setting could hide behind them.
 */
const NUMBERED_ESCAPE = /u&|\\(x[0-9a-f]|[0-7]|u[0-9a-f])/i;

/** The first forbidden word of a body, as written there; null when there is none. */
export function forbiddenWordOf(body: string): string | null {
  const escape = NUMBERED_ESCAPE.exec(body)?.[0];
  if (escape) return escape;
  // A quoted identifier can spell a word in pieces ("ro""le"): checked as written and unquoted too.
  for (const text of [body, body.replace(/["']/g, '')]) {
    const word = WORDS.exec(text)?.[1] ?? DO_BLOCK.exec(text)?.[0];
    if (word) return word;
  }
  return null;
}
