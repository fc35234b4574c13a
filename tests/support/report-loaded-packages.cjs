// Preloaded (NODE_OPTIONS=--require) into a service process by tests/platform/tracing-export.test.ts:
// when the process exits, one line on stdout names the @opentelemetry packages it loaded. They ship
// CommonJS builds only (no "exports" map), so even imported from ESM every one of them is in
// require.cache.
process.on('exit', () => {
  const packages = Object.keys(require.cache)
    .map((file) => /node_modules\/(@opentelemetry\/[^/]+)\//.exec(file)?.[1])
    .filter(Boolean);
  process.stdout.write(`opentelemetry packages loaded: ${JSON.stringify([...new Set(packages)].sort())}\n`);
});
