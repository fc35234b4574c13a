import http from 'node:http';

/**
 * POSTs a JSON body whose last bytes are held back until `release` resolves: a request still in
 * flight across whatever the test does meanwhile (a stop, a signal).
 */
export function postHeld(
  url: string,
  headers: Record<string, string>,
  body: string,
  release: Promise<unknown>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.write(body.slice(0, -10));
    void release.then(() => req.end(body.slice(-10)));
  });
}
