import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/*.ts',
  out: './migrations',
  casing: 'snake_case',
  // graphile-worker owns its own schema; drizzle-kit must never touch it.
  schemaFilter: ['public'],
});
