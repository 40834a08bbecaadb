/** `node test/bench/run.mjs --smoke` (CI): one short iteration on small inputs, so the benches cannot rot. */
export const SMOKE = process.env.BENCH_SMOKE === '1';
