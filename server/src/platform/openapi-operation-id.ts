/**
 * An operation's `operationId`, derived from its method and path (verbNoun, camelCase) so that
 * generated clients get stable names without every route naming itself:
 *
 *   GET    /api/identity/users                  → listUsers            (a collection)
 *   GET    /api/app/page-definition             → listPageDefinitions  (a collection: …/{id} exists)
 *   POST   /api/identity/users                  → createUser
 *   GET    /api/identity/users/{id}             → getUser
 *   PUT    /api/identity/users/{id}             → updateUser
 *   DELETE /api/identity/users/{id}             → deleteUser
 *   POST   /api/identity/users/{id}/lock        → lockUser             (an action on one)
 *   GET    /api/identity/roles/{id}/members     → listRoleMembers      (a collection under one)
 *   DELETE /api/identity/roles/{id}/members/{userId} → deleteRoleMember
 *   POST   /api/app/business-data/save-page     → savePage             (an action named verb-noun)
 *   GET    /api/app/sys-function/system-date    → getSystemDate
 *
 * The leading `api`, the ABP-style `app` and the namespaces below are not part of the noun. A route
 * whose derived name reads badly, or collides with another's, declares `schema.operationId`.
 */

const NAMESPACES = new Set(['api', 'app', 'identity', 'system', 'account', 'permission-management', 'sys-function']);

/** Words an action segment starts with (`save-page`, `reset-password`, `lock`). */
const VERBS = new Set([
  'add', 'approve', 'batch', 'check', 'copy', 'delegate', 'delete', 'disable', 'enable', 'export', 'import', 'jump', 'lock', 'move',
  'preview', 'publish', 'query', 'read', 'reassign', 'reclaim', 'reject', 'remind', 'remove', 'rename', 'reserve', 'reset', 'return',
  'revoke', 'rollback', 'save', 'terminate', 'transfer', 'unlock', 'urge', 'void', 'withdraw', 'change',
]);

const pascal = (segment: string) =>
  segment
    .split(/[-_]/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

const camel = (segment: string) => {
  const text = pascal(segment);
  return text[0]!.toLowerCase() + text.slice(1);
};

const isPlural = (word: string) => /[^su]s$/.test(word);
const singular = (word: string) => (word.endsWith('ies') ? `${word.slice(0, -3)}y` : isPlural(word) ? word.slice(0, -1) : word);
const plural = (word: string) => (isPlural(word) ? word : word.endsWith('y') ? `${word.slice(0, -1)}ies` : `${word}s`);
const isParam = (segment: string) => segment.startsWith('{') || segment.startsWith(':');

/** An action segment (`save-page` → save + page); a GET only exports, the rest of its words are nouns. */
function actionOf(segment: string, method: string): { verb: string; rest: string } | null {
  const [first = '', ...rest] = segment.toLowerCase().split('-');
  if (method === 'GET' ? first !== 'export' : !VERBS.has(first)) return null;
  return { verb: first, rest: rest.join('-') };
}

/**
 * @param path the documented path (`/api/identity/users/{id}`)
 * @param isCollection whether a path is a collection (one of its items has a path of its own)
 */
export function deriveOperationId(method: string, path: string, isCollection: (path: string) => boolean): string {
  const m = method.toUpperCase();
  const segments = path.split('/').filter(Boolean);
  while (segments.length > 1 && NAMESPACES.has(segments[0]!.toLowerCase())) segments.shift();
  const statics = segments.filter((s) => !isParam(s));
  const last = segments.at(-1)!;

  if (isParam(last)) {
    // One item: /users/{id} → User; /roles/{id}/members/{userId} → RoleMember; /help-documents/by-key/{key} → HelpDocumentByKey.
    const action = actionOf(statics.at(-1)!, m);
    if (action && statics.length > 1) return `${action.verb}${statics.slice(0, -1).map((s) => pascal(singular(s))).join('')}`;
    const verb = ({ GET: 'get', PUT: 'update', PATCH: 'update', DELETE: 'delete', POST: 'create' } as Record<string, string>)[m] ?? m.toLowerCase();
    return `${verb}${statics.map((s) => pascal(s === 'by-key' ? s : singular(s))).join('')}`;
  }

  const firstParam = segments.findIndex(isParam);
  // The thing the last segment acts on or belongs to: the item of a path with a param, else the collection before it.
  const owner = firstParam > 0 ? segments[firstParam - 1]! : statics.length > 1 ? statics.at(-2)! : '';
  const middle = firstParam > 0 ? segments.slice(firstParam + 1, -1).filter((s) => !isParam(s)) : [];
  const ownerNoun = pascal(singular(owner)) + middle.map(pascal).join('');
  const action = actionOf(last, m);

  if (!owner) {
    // /identity/users, /app/page-definition, /app/sys-function/system-date
    if (m === 'GET') return isPlural(last) || isCollection(path) ? `list${pascal(plural(last))}` : `get${pascal(last)}`;
    if (m === 'POST') return action ? camel(last) : `create${pascal(singular(last))}`;
    return `${m === 'DELETE' ? 'delete' : 'update'}${pascal(last)}`;
  }
  if (last === 'all') return `listAll${pascal(plural(owner))}`;
  if (action) {
    // /business-data/save-page → savePage; /users/export → exportUsers; /users/{id}/reset-password → resetUserPassword
    if (firstParam < 0 && action.rest) return camel(last);
    const noun = firstParam < 0 && (action.verb === 'import' || action.verb === 'export') ? pascal(owner) : ownerNoun;
    return `${action.verb}${noun}${pascal(action.rest)}`;
  }
  const lastNoun = pascal(last === owner ? '' : last);
  if (m === 'GET') return `${isPlural(last) ? 'list' : 'get'}${ownerNoun}${lastNoun}`;
  if (m === 'POST') return isPlural(last) && firstParam > 0 ? `add${ownerNoun}${lastNoun}` : firstParam > 0 ? `${camel(last)}${ownerNoun}` : `create${ownerNoun}${pascal(singular(last))}`;
  return `${m === 'DELETE' ? 'delete' : 'update'}${ownerNoun}${lastNoun}`;
}
