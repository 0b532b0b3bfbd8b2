/** Passwords of the benchmark servers' administrators (kept apart from the server scripts, which start a server when imported). */
export const BENCH_ADMIN_PASSWORD = 'Bench#Admin2026';
export const BD_BENCH_PASSWORD = 'Bench#Business2026';
export const DOCNO_BENCH_PASSWORD = 'Bench#Docno2026';
export const WF_BENCH_PASSWORD = 'Bench#Workflow2026';
