import suite from '/work/main/test/bench/storage.bench';
suite().then((r) => console.log(JSON.stringify(r, null, 1))).catch((e) => { console.error(e); process.exit(1); });
