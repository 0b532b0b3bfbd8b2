export const BENCH_PASSWORD = 'Bench#Admin2026';
export const USERS = 10_000;
