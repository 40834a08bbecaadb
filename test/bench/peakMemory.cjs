// Preloaded (`node --require`, CommonJS: an ESM preload would start the ESM loader, some 20 MB of its own) into a process whose memory a bench measures: at exit it writes the
// kernel's high-water mark of the process's resident set (getrusage ru_maxrss: every byte the process
// held at its peak, Node itself included) and the highest V8 heap seen by a 10 ms sampler to the file
// named by $PEAK_MEMORY_FILE.
'use strict';
const fs = require('node:fs');

const file = process.env.PEAK_MEMORY_FILE;
if (file) {
  let heapPeak = 0;
  const sample = () => {
    const used = process.memoryUsage().heapUsed;
    if (used > heapPeak) heapPeak = used;
  };
  setInterval(sample, 10).unref();
  process.on('exit', () => {
    sample();
    fs.writeFileSync(file, JSON.stringify({ maxRss: process.resourceUsage().maxRSS * 1024, heapPeak }));
  });
}
