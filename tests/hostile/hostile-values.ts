/** Values that break a field: wrong types, extremes, impossible dates and documents, hostile text. */

export const IMPOSSIBLE_DATES = [
  '0000-01-01',
  '2025-02-30',
  '2025-02-29',
  '10000-01-01',
  '2025-13-01',
  '2025-00-10',
  '2016-12-31T23:59:60Z',
  '2025-02-30T00:00:00',
  '2026-02-01T24:00:00',
  '+002026-02-01',
  '2026-2-1',
  '01/02/2026',
];

export const INVALID_DOCUMENTS = [
  '00000000000',
  '11111111111',
  '12345678900',
  '5299822472',
  '529982247250',
  '529.982.247-25',
  '11111111111111',
  '12345678000100',
  '12.345.678/0001-95',
  'ABCDEFGHIJK',
];

export const HOSTILE_TEXT = [
  '',
  ' ',
  'x'.repeat(256),
  'x'.repeat(10_001),
  '\ud800',
  'a\udfffb',
  'a\u0000b',
  '\u202eRTL\u202c',
  '😀'.repeat(300),
  'e\u0301\u0301\u0301',
  '\ufeffBOM',
  "'; drop table students; --",
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '%00%zz%',
  'NOT_AN_ENUM_VALUE',
  '../../etc/passwd',
  '${jndi:ldap://x}',
];

// eslint-disable-next-line no-loss-of-precision -- a literal beyond double precision is itself one of the hostile values
export const HOSTILE_NUMBERS = [0, -1, -0.5, 1.5, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, 1e-320, 99999999999999999999999];

export const HOSTILE_STRUCTURES: unknown[] = [
  null,
  true,
  false,
  {},
  [],
  [null],
  { a: 1 },
  [[[[[[[[[[]]]]]]]]]],
  { $gt: '' },
  Array.from({ length: 2000 }, () => 'x'),
];

export const HOSTILE_VALUES: unknown[] = [
  ...HOSTILE_TEXT,
  ...HOSTILE_NUMBERS,
  ...HOSTILE_STRUCTURES,
  ...IMPOSSIBLE_DATES,
  ...INVALID_DOCUMENTS,
];

/** Raw path segments and query values as sent on the wire (not encoded again). */
export const HOSTILE_URL_VALUES = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%ED%A0%80',
  '%00',
  '..%2F..%2F',
  '%2e%2e',
  '+',
  '%20',
  '-1',
  '0',
  '99999999999999999999999',
  '1e999',
  '0x10',
  '1e2',
  '%2B1',
  '1.0',
  'NaN',
  'null',
  'x'.repeat(8000),
  '%F0%9F%98%80',
  '%E2%80%AE',
  "'%20OR%201=1--",
  '%3Cscript%3E',
  '0000-01-01',
  '2025-02-30',
  '10000-01-01',
  '2016-12-31T23:59:60Z',
  "a:b@c/d,e$f;g=h!i'j(k)*l?m[n]",
  '2026-11-01T00:00:00-03:00',
  '2026-11-01T00:00:00+03:00',
];

/** Bodies that are not the JSON of a request, as bytes. */
export const BROKEN_BODIES: Buffer[] = [
  '',
  '{',
  '{"a":}',
  '[1,]',
  "{'a':1}",
  'NaN',
  'null',
  '[]',
  '"text"',
  '12',
  '{"a":1}{"b":2}',
  '\ufeff{}',
  '['.repeat(5000) + ']'.repeat(5000),
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"polluted":true}}',
]
  .map((text) => Buffer.from(text, 'utf8'))
  .concat([
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]), // {"a":"<lone surrogate as UTF-8>"}
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), // invalid UTF-8
    Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), // UTF-16 LE with BOM
  ]);

export const HOSTILE_CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=bogus',
  'application/json; charset="utf-8"',
  'APPLICATION/JSON',
  'application/json;;;',
  'application/merge-patch+json',
  '*/*',
  'application',
  '',
];

export const HOSTILE_ENCODINGS = ['gzip', 'br', 'deflate', 'bogus', 'identity', 'gzip, gzip', 'x-gzip', 'compress'];

export const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '$where',
  'unknownField',
  '',
  'a'.repeat(1000),
  '\u0000',
  '\ud800',
];
