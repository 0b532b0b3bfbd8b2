import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { P } from '@tessera/core/contracts/permissions';
import { ZSystemSettings, ZSystemSettingsView } from '@tessera/core/contracts/settings';
import { requirePermission } from '../../platform/route-access.ts';
import './settings.permissions.ts';
import { getSystemSettings, updateSystemSettings } from './settings.service.ts';

export async function settingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/app/system-settings', {
    config: requirePermission(P.Settings),
    schema: { summary: 'System settings: registration (on/off, default roles) and the password policy', response: { 200: ZSystemSettingsView } },
    handler: (req) => getSystemSettings(req.ctx),
  });

  app.put('/app/system-settings', {
    config: requirePermission(P.SettingsManage),
    schema: { summary: 'Save the system settings (one transaction)', body: ZSystemSettings, response: { 200: ZSystemSettingsView } },
    handler: (req) => updateSystemSettings(req.ctx, req.body),
  });
}
