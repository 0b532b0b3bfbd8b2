// Named parameters in a data source's SQL: `:name` (letters, digits, _), as in JDBC and most SQL
// tools. They are found outside string literals, quoted names, comments and PostgreSQL's
// dollar-quoted bodies; `::` (a cast) and `:=` are not parameters. Binding turns each into the
// dialect's placeholder ($1 for PostgreSQL, ? for MySQL) with its value in the list — the value never
// becomes SQL text.

export type SqlDialect = 'postgres' | 'mysql';

interface Found {
  name: string;
  start: number;
  end: number;
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

function scan(sql: string, dialect: SqlDialect): Found[] {
  const found: Found[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === '-' && next === '-') {
      const eol = sql.indexOf('\n', i);
      i = eol === -1 ? n : eol + 1;
    } else if (c === '#' && dialect === 'mysql') {
      const eol = sql.indexOf('\n', i);
      i = eol === -1 ? n : eol + 1;
    } else if (c === '/' && next === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close === -1 ? n : close + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      // A quoted text or name: doubled quotes inside; MySQL strings also take backslash escapes.
      i++;
      while (i < n) {
        if (sql[i] === '\\' && dialect === 'mysql' && c !== '`') i += 2;
        else if (sql[i] === c && sql[i + 1] === c) i += 2;
        else if (sql[i] === c) break;
        else i++;
      }
      i++;
    } else if (c === '$' && dialect === 'postgres') {
      const tag = /\$[A-Za-z_]?[A-Za-z0-9_]*\$/y;
      tag.lastIndex = i;
      const m = tag.exec(sql);
      if (m) {
        const close = sql.indexOf(m[0], i + m[0].length);
        i = close === -1 ? n : close + m[0].length;
      } else i++;
    } else if (c === ':' && next === ':') {
      i += 2;
    } else if (c === ':') {
      NAME.lastIndex = i + 1;
      const m = NAME.exec(sql);
      if (m && sql[i - 1] !== ':') {
        found.push({ name: m[0], start: i, end: i + 1 + m[0].length });
        i += 1 + m[0].length;
      } else i++;
    } else i++;
  }
  return found;
}

/** The parameter names an SQL text uses, each once, in order of first use. */
export function sqlParameterNames(sql: string, dialect: SqlDialect = 'postgres'): string[] {
  return [...new Set(scan(sql, dialect).map((f) => f.name))];
}

/**
 * The SQL with placeholders and the values in their order. A name without a value is an error
 * (`missing` lists them); values nobody uses are ignored.
 */
export function bindSqlParameters<V>(sql: string, dialect: SqlDialect, values: Record<string, V>): { sql: string; parameters: V[]; missing: string[] } {
  const found = scan(sql, dialect);
  const parameters: V[] = [];
  const missing = new Set<string>();
  const positions = new Map<string, number>();
  let out = '';
  let at = 0;
  for (const f of found) {
    out += sql.slice(at, f.start);
    at = f.end;
    if (!Object.hasOwn(values, f.name)) {
      missing.add(f.name);
      continue;
    }
    if (dialect === 'postgres') {
      // PostgreSQL numbers its placeholders: one number per name, however often it appears.
      let position = positions.get(f.name);
      if (position === undefined) {
        parameters.push(values[f.name]!);
        position = parameters.length;
        positions.set(f.name, position);
      }
      out += `$${position}`;
    } else {
      parameters.push(values[f.name]!);
      out += '?';
    }
  }
  out += sql.slice(at);
  return { sql: out, parameters, missing: [...missing] };
}
