/**
 * The boundaries of docs/architecture.md ("Boundaries"), checked by `npm run lint:boundaries`
 * (part of `npm test`).
 */
module.exports = {
  forbidden: [
    {
      name: 'web-imports-server',
      comment: 'The web talks to the server over HTTP only; shared code lives in packages/core.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-imports-web',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^web/' },
    },
    {
      name: 'core-is-pure',
      comment: 'packages/core runs in the browser and on the server: no I/O, no framework, no app code.',
      severity: 'error',
      from: { path: '^packages/core/src/', pathNot: '\\.test\\.ts$' },
      to: {
        path: [
          '^server/',
          '^web/',
          '^(node:)?(fs|fs/promises|net|http|https|http2|child_process|worker_threads|dgram|tls|cluster)$',
          'node_modules/(fastify|@fastify/[^/]+|kysely|pg|@electric-sql/pglite|react|react-dom|antd|exceljs)/',
        ],
      },
    },
    {
      name: 'platform-below-modules',
      comment: 'The platform kernel serves every module and depends on none.',
      severity: 'error',
      from: { path: '^server/src/platform/' },
      to: { path: '^server/src/modules/' },
    },
    {
      name: 'module-internals',
      comment: "A module uses another module only through that module's index.ts.",
      severity: 'error',
      from: { path: '^server/src/modules/([^/]+)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/src/modules/[^/]+/', pathNot: ['^server/src/modules/$1/', '^server/src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'app-uses-module-entries',
      comment: "app.ts registers each module's routes from its index.ts.",
      severity: 'error',
      from: { path: '^server/src/app\\.ts$' },
      to: { path: '^server/src/modules/', pathNot: '^server/src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'web-module-internals',
      comment: "A web module uses another web module's screens only through the shell (web/src/app).",
      severity: 'error',
      from: { path: '^web/src/shared/' },
      to: { path: '^web/src/(modules|app)/' },
    },
    {
      name: 'no-cycles',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js'] },
  },
};
