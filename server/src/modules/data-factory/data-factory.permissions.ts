import { P } from '@tessera/core/contracts/permissions';
import { definePermissionGroup } from '../../platform/permission-registry.ts';

// The data factory: managing its functions (write PL/pgSQL that runs in the product's database:
// an administrator's right) and running them (typed values only, never SQL) — a runner's right of
// its own, not under managing (the grant screen checks a code's parents with it), and under it
// each procedure's own code (made, renamed and removed with the procedure: data-factory.service.ts).
definePermissionGroup('Tessera.DataFactory', { 'zh-CN': '数据工厂', 'en-US': 'Data factory' }, [
  { name: P.DataFactory, displayName: { 'zh-CN': '数据工厂管理', 'en-US': 'Manage the data factory' } },
  { name: P.DataFactoryRun, displayName: { 'zh-CN': '运行数据工厂的过程', 'en-US': 'Run data factory procedures' } },
]);
