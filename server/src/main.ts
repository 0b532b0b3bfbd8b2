import { loadConfig } from './config.ts';
import { prepareServer } from './server.ts';

const config = await loadConfig();
const server = await prepareServer(config);
const { app, seedResult, database } = server;

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    app.log.info({ signal }, 'shutting down');
    server.stop().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.port, host: config.host });
const where = database.kind === 'pglite' ? `embedded PostgreSQL (PGlite) in ${config.pgliteDataDir}` : 'PostgreSQL server (DATABASE_URL)';
const url = `http://localhost:${config.port}`;
const lines = [`Tessera is running at ${url}  (API ${url}/api, OpenAPI ${url}/api/docs)`, `Database: ${where}`];
if (seedResult.createdAdmin) {
  const { userName, password, generated } = seedResult.createdAdmin;
  lines.push(
    `Administrator account created: user name "${userName}", password "${password}"${generated ? ' (generated; shown only this once)' : ' (from ADMIN_PASSWORD)'}.`,
    'Change it after signing in: user menu → reset password.',
  );
}
console.log(`\n${lines.join('\n')}\n`);
