// Named parameters in a data source's SQL: `:name` (letters, digits, _), as in JDBC and most SQL
// tools. They are found outside string literals, quoted names, comments and PostgreSQL's
// dollar-quoted bodies and SQL Server's [bracketed] names; `::` (a cast) and `:=` are not
// parameters. Binding turns each into the dialect's placeholder ($1 for PostgreSQL, ? for MySQL,
// @p1 for SQL Server) with its value in the list — the value never becomes SQL text.

export type SqlDialect = 'postgres' | 'mysql' | 'mssql';

interface Found {
  name: string;
  start: number;
  end: number;
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/** The parameters, and the SQL with its texts, quoted names and comments blanked out (for reading its keywords). */
function scan(sql: string, dialect: SqlDialect): { found: Found[]; code: string } {
  const found: Found[] = [];
  const code = sql.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < Math.min(to, sql.length); k++) code[k] = ' ';
  };
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i]!;
    const next = sql[i + 1];
    const from = i;
    if ((c === '-' && next === '-') || (c === '#' && dialect === 'mysql')) {
      const eol = sql.indexOf('\n', i);
      i = eol === -1 ? n : eol + 1;
      blank(from, i);
    } else if (c === '/' && next === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close === -1 ? n : close + 2;
      blank(from, i);
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
      blank(from, i);
    } else if (c === '[' && dialect === 'mssql') {
      // A bracketed name: `]]` inside is a bracket.
      i++;
      while (i < n && !(sql[i] === ']' && sql[i + 1] !== ']')) i += sql[i] === ']' ? 2 : 1;
      i++;
      blank(from, i);
    } else if (c === '$' && dialect === 'postgres') {
      const tag = /\$[A-Za-z_]?[A-Za-z0-9_]*\$/y;
      tag.lastIndex = i;
      const m = tag.exec(sql);
      if (m) {
        const close = sql.indexOf(m[0], i + m[0].length);
        i = close === -1 ? n : close + m[0].length;
        blank(from, i);
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
  return { found, code: code.join('') };
}

/** The parameter names an SQL text uses, each once, in order of first use. */
export function sqlParameterNames(sql: string, dialect: SqlDialect = 'postgres'): string[] {
  return [...new Set(scan(sql, dialect).found.map((f) => f.name))];
}

/**
 * The SQL with placeholders and the values in their order. A name without a value is an error
 * (`missing` lists them); values nobody uses are ignored.
 */
export function bindSqlParameters<V>(sql: string, dialect: SqlDialect, values: Record<string, V>): { sql: string; parameters: V[]; missing: string[] } {
  const { found } = scan(sql, dialect);
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
    if (dialect === 'postgres' || dialect === 'mssql') {
      // PostgreSQL and SQL Server number their placeholders: one number per name, however often it appears.
      let position = positions.get(f.name);
      if (position === undefined) {
        parameters.push(values[f.name]!);
        position = parameters.length;
        positions.set(f.name, position);
      }
      out += dialect === 'postgres' ? `$${position}` : `@p${position}`;
    } else {
      parameters.push(values[f.name]!);
      out += '?';
    }
  }
  out += sql.slice(at);
  return { sql: out, parameters, missing: [...missing] };
}

/**
 * What an SQL text is, read past comments and texts: its statements (split at `;`, empty ones
 * dropped) and the first keyword of each, lower-case (`select`, `with`, `insert`, …; '' for none).
 */
export function sqlStatements(sql: string, dialect: SqlDialect): { keywords: string[]; count: number } {
  const parts = scan(sql, dialect).code.split(';').filter((part) => part.trim() !== '');
  return { keywords: parts.map((part) => /^[\s(]*([A-Za-z]+)/.exec(part)?.[1]?.toLowerCase() ?? ''), count: parts.length };
}
