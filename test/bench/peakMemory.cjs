// Preloaded (`node --require`, CommonJS: an ESM preload would start the ESM loader, some 20 MB of its own) into a process whose memory a bench measures: at exit it writes the
// kernel's high-water mark of the process's resident set (getrusage ru_maxrss: every byte the process
// held at its peak, Node itself included), and the highest figures a 10 ms sampler saw of the V8 heap in
// use, the heap V8 held (in use, free and young generation), and memory outside it (buffers, native), to the
// file named by $PEAK_MEMORY_FILE.
'use strict';
const fs = require('node:fs');

const file = process.env.PEAK_MEMORY_FILE;
if (file) {
  const peak = { heapPeak: 0, heapTotalPeak: 0, externalPeak: 0 };
  const sample = () => {
    const m = process.memoryUsage();
    peak.heapPeak = Math.max(peak.heapPeak, m.heapUsed);
    peak.heapTotalPeak = Math.max(peak.heapTotalPeak, m.heapTotal);
    peak.externalPeak = Math.max(peak.externalPeak, m.external);
  };
  setInterval(sample, 10).unref();
  process.on('exit', () => {
    sample();
    fs.writeFileSync(file, JSON.stringify({ maxRss: process.resourceUsage().maxRSS * 1024, ...peak }));
  });
}
