// Run by `npm install`/`npm ci` (postinstall): mends a dependency whose fix is not released yet.
// Plain JavaScript: it runs before anything else is installed or built.
//
// postgres.js 3.4.9 (the latest release) batches a connection's small writes behind a
// `setImmediate`, and schedules one only while none is pending. When the socket closes with a
// write still pending, the connection cancels the timer but keeps it (and the unsent bytes): from
// then on nothing it writes is ever flushed, so its next connection attempts send no startup
// message and each waits `connect_timeout` (30 s) in vain. A database restart under load leaves
// such connections behind, and the work that needs them stalls that long after the database is
// back. The mend forgets the timer and the bytes of the closed socket, as a flush would.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const postgres = path.join(root, 'node_modules', 'postgres');
const CANCEL = /^( +)clearImmediate\(nextWriteTimer\)$/gm;
const MENDED = 'chunk = nextWriteTimer = null';

function mendPostgres() {
  const manifest = path.join(postgres, 'package.json');
  if (!fs.existsSync(manifest)) return;
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  if (version !== '3.4.9') {
    console.warn(`patch-dependencies: postgres ${version} is not 3.4.9; its connection.js is left as it is`);
    return;
  }
  for (const build of ['src', 'cjs/src', 'cf/src']) {
    const file = path.join(postgres, build, 'connection.js');
    const text = fs.readFileSync(file, 'utf8');
    // Once as released (the flush), three times mended (terminate() and closed() as well).
    const resets = (t) => t.split(MENDED).length - 1;
    if (resets(text) === 3) continue;
    const mended = text.replace(CANCEL, (line, indent) => `${line}\n${indent}${MENDED}`);
    if (resets(text) !== 1 || resets(mended) !== 3) throw new Error(`patch-dependencies: ${file} is not as expected`);
    fs.writeFileSync(file, mended);
  }
}

mendPostgres();
