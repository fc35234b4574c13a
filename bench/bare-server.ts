/**
 * The bare endpoint of `bench:lists`: Express + postgres.js and nothing else (no validator, no
 * logger, no mapping), answering `GET /q/:name` with the rows of the same statements the service
 * runs for that query. The statements come as JSON in the file named by QUERIES_FILE.
 */
import fs from 'node:fs';

import express from 'express';
import postgres from 'postgres';

const queries = JSON.parse(fs.readFileSync(process.env.QUERIES_FILE!, 'utf8')) as Record<
  string,
  { sql: string; params: unknown[] }[]
>;
const sql = postgres(process.env.DATABASE_URL!, { max: 10 });
const app = express();
app.get('/ready', (_req, res) => res.json({ ready: true }));
app.get('/q/:name', async (req, res) => {
  const statements = queries[req.params.name]!;
  const results = await Promise.all(statements.map((s) => sql.unsafe(s.sql, s.params as never[])));
  res.json({ data: results[0], metadata: results.slice(1) });
});
app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('bare ready'));
