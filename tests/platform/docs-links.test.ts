import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { projectRoot } from '../../src/config.js';

/** Where the checks read files: the disk, or a few files in memory for the tests of the checks themselves. */
interface Files {
  /** The text of a file, or undefined when there is no such file. */
  read(file: string): string | undefined;
  /** Whether a file or a folder is there. */
  exists(file: string): boolean;
}

const disk: Files = {
  read: (file) => (fs.existsSync(file) && fs.statSync(file).isFile() ? fs.readFileSync(file, 'utf8') : undefined),
  exists: (file) => fs.existsSync(file),
};

/** The README and every guide under docs/. */
function markdownFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(projectRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(projectRoot, 'docs', name));
  return [path.join(projectRoot, 'README.md'), ...docs];
}

/** The text with its fenced code blocks blanked out (lines kept), so that a `# comment` in a shell block is no heading. */
function withoutFences(markdown: string): string {
  let fence: string | undefined;
  const lines = markdown.split('\n').map((line) => {
    const opening = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (opening && opening[0] === fence[0] && opening.length >= fence.length && !line.trim().slice(opening.length))
        fence = undefined;
      return '';
    }
    if (opening) {
      fence = opening;
      return '';
    }
    return line;
  });
  return lines.join('\n');
}

/** The text without code, fenced or inline (lines and lengths kept), so that a `[x](y)` in code is no link. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (code) => code.replace(/[^\n]/g, ' '));
}

/** GitHub's id of a heading: its text as shown, lower case, punctuation dropped, spaces as hyphens. */
export function githubSlug(heading: string): string {
  const shown = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link shows its text
    .replace(/<[^>]+>/g, '')
    .replace(/[*`]/g, '')
    .replace(/(^|\s)_+|_+(?=\s|$)/g, '$1'); // emphasis, not the underscores inside a word
  return shown
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The ids of a document's headings, a repeated one numbered as GitHub numbers it (`-1`, `-2`…). */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    ids.add(count ? `${slug}-${count}` : slug);
  }
  return ids;
}

interface Link {
  line: number;
  target: string;
}

/** Inline links and images (their text may wrap over lines) and reference definitions. */
function linksOf(markdown: string): Link[] {
  const text = withoutCode(markdown);
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  const links: Link[] = [];
  for (const match of text.matchAll(/!?\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g))
    links.push({ line: lineAt(match.index), target: match[1] ?? '' });
  for (const match of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm))
    links.push({ line: lineAt(match.index), target: match[1] ?? '' });
  return links;
}

/**
 * Every relative link of the files that leads nowhere: a file or folder that is not there, or an
 * `#anchor` that no heading of the Markdown file it points to has. Links with a scheme
 * (`https:`, `mailto:`) are left to the reader.
 */
export function brokenLinks(files: string[], source: Files, root = projectRoot): string[] {
  const broken: string[] = [];
  for (const file of files) {
    const markdown = source.read(file);
    if (markdown === undefined) {
      broken.push(`${path.relative(root, file)}: missing`);
      continue;
    }
    for (const { line, target } of linksOf(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const where = `${path.relative(root, file)}:${line} → ${target}`;
      const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
      const linkPath = decodeURI(rawPath);
      const resolved = !linkPath
        ? file
        : linkPath.startsWith('/')
          ? path.join(root, linkPath)
          : path.resolve(path.dirname(file), linkPath);
      if (!source.exists(resolved)) {
        broken.push(`${where}: no such file`);
        continue;
      }
      if (anchor === undefined || !resolved.endsWith('.md')) continue;
      const ids = headingIds(source.read(resolved) ?? '');
      if (!ids.has(decodeURIComponent(anchor).toLowerCase())) broken.push(`${where}: no such heading`);
    }
  }
  return broken;
}

/**
 * The variables `src/config.ts` reads: `env.X` and `process.env.X`, `env['X']`, and a name handed
 * with the environment to a helper that reads it (`stripeKey(env, 'STRIPE_SECRET_KEY')`).
 */
export function configVariables(source: string): string[] {
  const names = new Set<string>();
  const patterns = [
    /\benv\??\.([A-Z][A-Z0-9_]*)\b/g,
    /\benv\??\.?\[\s*(['"`])([A-Z][A-Z0-9_]*)\1\s*\]/g,
    /\(\s*env\s*,\s*(['"`])([A-Z][A-Z0-9_]*)\1/g,
  ];
  for (const pattern of patterns)
    for (const match of source.matchAll(pattern)) {
      const name = match[match.length - 1];
      if (name) names.add(name);
    }
  return [...names].sort();
}

/** The variables named in the first cell of a table row: `| \`NAME\` | default | meaning |`. */
export function documentedVariables(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdown.split('\n')) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const [, name] of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) if (name) names.add(name);
  }
  return names;
}

/** Variables added by work on its way (mail, traces): documented before `src/config.ts` reads them. */
const ANNOUNCED = ['SMTP_URL', 'MAIL_FROM', 'OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_SERVICE_NAME'];

describe('README.md and docs/*.md', () => {
  it('lead only to files and headings that exist', () => {
    expect(brokenLinks(markdownFiles(), disk)).toEqual([]);
  });

  it('document in docs/configuration.md every variable src/config.ts reads', () => {
    const read = configVariables(fs.readFileSync(path.join(projectRoot, 'src', 'config.ts'), 'utf8'));
    expect(read).toEqual(expect.arrayContaining(['NODE_ENV', 'PORT', 'STRIPE_SECRET_KEY', 'SECRETS_KEY_PREVIOUS']));
    const documented = documentedVariables(fs.readFileSync(path.join(projectRoot, 'docs', 'configuration.md'), 'utf8'));
    expect([...read, ...ANNOUNCED].filter((name) => !documented.has(name))).toEqual([]);
  });
});

describe('the checks themselves', () => {
  const root = '/repo';
  const memory = (files: Record<string, string>, folders: string[] = []): Files => ({
    read: (file) => files[file],
    exists: (file) => file in files || folders.includes(file),
  });

  it('report a missing file, a missing heading and a missing heading of the same file', () => {
    const source = memory(
      {
        '/repo/README.md': [
          '# Service',
          'See [the guide](docs/guide.md#set-up-the-keys), [gone](docs/gone.md),',
          '[a wrapped',
          'link](docs/guide.md#nowhere), [here](#service) and [there](#elsewhere).',
          '![shot](readme/shot.png) [code](src/) `[not a link](nowhere.md)` <https://example.com>',
          '```sh',
          '# not a heading',
          '```',
          '[ref]: docs/missing.md',
        ].join('\n'),
        '/repo/docs/guide.md': '# Guide\n\n## Set up the `keys`\n',
        '/repo/readme/shot.png': '',
      },
      ['/repo/src'],
    );
    expect(brokenLinks(['/repo/README.md'], source, root)).toEqual([
      'README.md:2 → docs/gone.md: no such file',
      'README.md:3 → docs/guide.md#nowhere: no such heading',
      'README.md:4 → #elsewhere: no such heading',
      'README.md:9 → docs/missing.md: no such file',
    ]);
  });

  it('slug headings as GitHub does', () => {
    expect(githubSlug('Going live with Stripe: keys, webhooks & checks')).toBe(
      'going-live-with-stripe-keys-webhooks--checks',
    );
    expect(githubSlug('`SECRETS_KEY`: rotate it')).toBe('secrets_key-rotate-it');
    expect(githubSlug('Catálogo and **Campanhas**')).toBe('catálogo-and-campanhas');
    expect(githubSlug('See [the API](https://example.com)')).toBe('see-the-api');
    expect([...headingIds('# A\n## A\n### A')]).toEqual(['a', 'a-1', 'a-2']);
  });

  it('find every form of reading a variable, and the names of a table', () => {
    const source = [
      "const a = env.PORT ?? process.env.HOST; const b = env['LOG_LEVEL'];",
      "const c = stripeKey(env, 'STRIPE_SECRET_KEY'); const d = env.SMTP_URL?.trim();",
    ].join('\n');
    expect(configVariables(source)).toEqual(['HOST', 'LOG_LEVEL', 'PORT', 'SMTP_URL', 'STRIPE_SECRET_KEY']);
    const table = '| Variable | Default |\n| --- | --- |\n| `PORT` | `3000` |\n| `HOST` | `127.0.0.1`, see `PORT` |';
    expect([...documentedVariables(table)]).toEqual(['PORT', 'HOST']);
  });
});
