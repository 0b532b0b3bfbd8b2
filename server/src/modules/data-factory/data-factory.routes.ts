import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ZFactorySourceList,
  ZFactorySourceParams,
  ZSourceRoutineList,
  ZProcedure,
  ZProcedureDiff,
  ZProcedureDiffQuery,
  ZProcedureInput,
  ZProcedureList,
  ZProcedureParams,
  ZProcedureQuery,
  ZProcedureRunList,
  ZProcedureRunQuery,
  ZProcedureRunResult,
  ZRunnableProcedureList,
  ZProcedureSchedule,
  ZProcedureScheduleList,
  ZProcedureScheduleParams,
  ZScheduleInput,
  ZUpdateScheduleInput,
  ZProcedureVersionList,
  ZProcedureVersionParams,
  ZRollbackProcedureInput,
  ZRunProcedureInput,
  ZUpdateProcedureInput,
} from '@tessera/core/contracts/data-factory';
import { P } from '@tessera/core/contracts/permissions';
import { requirePermission } from '../../platform/route-access.ts';
import { listRoutineSources, listSourceRoutines } from '../data-sources/index.ts';
import './data-factory.permissions.ts';
import {
  createProcedure,
  deleteProcedure,
  diffProcedureVersions,
  getProcedure,
  listProcedures,
  listProcedureVersions,
  rollbackProcedure,
  updateProcedure,
} from './data-factory.service.ts';
import { listProcedureRuns, listRunnableProcedures, runProcedure } from './run.service.ts';
import { createSchedule, deleteSchedule, listSchedules, updateSchedule } from './schedules.service.ts';

export async function dataFactoryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = '/app/data-factory';
  const manage = requirePermission(P.DataFactory);
  const run = requirePermission(P.DataFactoryRun);

  app.get(base, {
    config: manage,
    schema: { summary: 'Data factory functions, paged: Filter (code, name, description); Sorting code|name|version|creationTime|lastModificationTime', querystring: ZProcedureQuery, response: { 200: ZProcedureList } },
    handler: (req) => listProcedures(req.ctx, req.query),
  });

  app.get(`${base}/runnable`, {
    config: run,
    schema: { summary: 'The procedures the caller may run, with their IN parameters (the page designer picks one for a "run procedure" button)', response: { 200: ZRunnableProcedureList } },
    handler: (req) => listRunnableProcedures(req.ctx),
  });

  app.get(`${base}/sources`, {
    config: manage,
    schema: { summary: 'The database sources (not HTTP) a procedure may call a stored routine of', response: { 200: ZFactorySourceList } },
    handler: async (req) => ({ items: await listRoutineSources(req.ctx) }),
  });

  app.get(`${base}/sources/:sourceId/routines`, {
    config: manage,
    schema: { summary: "A database source's stored procedures and functions with their parameters (502/504 when the source is down or slow)", params: ZFactorySourceParams, response: { 200: ZSourceRoutineList } },
    handler: (req) => listSourceRoutines(req.ctx, req.params.sourceId),
  });

  app.get(`${base}/:id`, {
    config: manage,
    schema: { summary: 'One function with its body', params: ZProcedureParams, response: { 200: ZProcedure } },
    handler: (req) => getProcedure(req.ctx, req.params.id),
  });

  app.post(base, {
    config: manage,
    schema: { summary: "Create a PL/pgSQL function in schema factory, or register a stored routine of a database source (version 1); PostgreSQL's refusal of the body is a 400 and nothing is saved", body: ZProcedureInput, response: { 200: ZProcedure } },
    handler: (req) => createProcedure(req.ctx, req.body),
  });

  app.put(`${base}/:id`, {
    config: manage,
    schema: { summary: 'Save a function as its next version, re-created in the database (409 on a stale stamp)', params: ZProcedureParams, body: ZUpdateProcedureInput, response: { 200: ZProcedure } },
    handler: (req) => updateProcedure(req.ctx, req.params.id, req.body),
  });

  app.delete(`${base}/:id`, {
    config: manage,
    schema: { summary: 'Delete a function: its definition, versions and run log, and the function itself', params: ZProcedureParams },
    handler: async (req, reply) => {
      await deleteProcedure(req.ctx, req.params.id);
      return reply.code(204).send();
    },
  });

  app.get(`${base}/:id/versions`, {
    config: manage,
    schema: { summary: "A function's versions, newest first", params: ZProcedureParams, response: { 200: ZProcedureVersionList } },
    handler: (req) => listProcedureVersions(req.ctx, req.params.id),
  });

  app.get(`${base}/:id/versions/diff`, {
    config: manage,
    schema: { summary: 'A line diff of two versions (signature and body)', params: ZProcedureParams, querystring: ZProcedureDiffQuery, response: { 200: ZProcedureDiff } },
    handler: (req) => diffProcedureVersions(req.ctx, req.params.id, req.query.from, req.query.to),
  });

  app.post(`${base}/:id/versions/:version/rollback`, {
    config: manage,
    schema: { summary: "Save a version's content as the next version and re-create the function with it", params: ZProcedureVersionParams, body: ZRollbackProcedureInput, response: { 200: ZProcedure } },
    handler: (req) => rollbackProcedure(req.ctx, req.params.id, req.params.version, req.body.concurrencyStamp),
  });

  app.post(`${base}/:id/run`, {
    config: run,
    schema: { summary: 'Run a function with typed IN values (defaults for the rest): its rows (capped) and OUT values; logged and audited; 504 past its timeout', params: ZProcedureParams, body: ZRunProcedureInput, response: { 200: ZProcedureRunResult } },
    handler: (req) => runProcedure(req.ctx, req.params.id, req.body),
  });

  app.get(`${base}/:id/runs`, {
    config: run,
    schema: { summary: "A function's run log, newest first", params: ZProcedureParams, querystring: ZProcedureRunQuery, response: { 200: ZProcedureRunList } },
    handler: (req) => listProcedureRuns(req.ctx, req.params.id, req.query),
  });

  app.get(`${base}/:id/schedules`, {
    config: manage,
    schema: { summary: "A procedure's schedules with their next and last run", params: ZProcedureParams, response: { 200: ZProcedureScheduleList } },
    handler: (req) => listSchedules(req.ctx, req.params.id),
  });

  app.post(`${base}/:id/schedules`, {
    config: manage,
    schema: { summary: 'Add a schedule (cron of five fields in a time zone, IN values checked against the parameters); its next run is queued', params: ZProcedureParams, body: ZScheduleInput, response: { 200: ZProcedureSchedule } },
    handler: (req) => createSchedule(req.ctx, req.params.id, req.body),
  });

  app.put(`${base}/:id/schedules/:scheduleId`, {
    config: manage,
    schema: { summary: 'Change a schedule (409 on a stale stamp); its next run is queued again, or removed when disabled', params: ZProcedureScheduleParams, body: ZUpdateScheduleInput, response: { 200: ZProcedureSchedule } },
    handler: (req) => updateSchedule(req.ctx, req.params.id, req.params.scheduleId, req.body),
  });

  app.delete(`${base}/:id/schedules/:scheduleId`, {
    config: manage,
    schema: { summary: 'Delete a schedule and its queued run (its runs stay in the log)', params: ZProcedureScheduleParams },
    handler: async (req, reply) => {
      await deleteSchedule(req.ctx, req.params.id, req.params.scheduleId);
      return reply.code(204).send();
    },
  });
}
