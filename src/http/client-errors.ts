import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Duplex } from 'node:stream';

import type { Logger } from 'pino';

/** A request Node refuses before Express sees it: its status and the code of our error body. */
interface Refusal {
  status: number;
  code: string;
  message: string;
}

/** Node's parser error codes (llhttp `HPE_*`) and timeouts, as the answer a client gets. */
function refusalFor(code: string | undefined): Refusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'REQUEST-002', message: 'The request headers are larger than 16 KB' };
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 400, code: 'REQUEST-001', message: 'The request body is not valid chunked transfer coding' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, code: 'REQUEST-004', message: 'The request was not received in time' };
    default:
      return {
        status: 400,
        code: 'REQUEST-001',
        message:
          'The request line or a header is not valid HTTP/1.1 (a NUL or control character, a malformed header or method)',
      };
  }
}

/** A complete HTTP/1.1 response with a JSON error body, for a socket no response object exists for. */
export function rawJsonResponse({ status, code, message }: Refusal): string {
  const body = JSON.stringify({ code, message });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

const EXPECTATION_FAILED: Refusal = {
  status: 417,
  code: 'REQUEST-003',
  message: 'The only Expect this service meets is 100-continue',
};

/**
 * The HTTP server of the API role. Requests Node itself refuses (headers over 16 KB, a NUL in a
 * header, a malformed request line, an `Expect` other than `100-continue`) get the same
 * `{code, message}` JSON body as every other error, instead of Node's bare status line.
 */
export function createHttpServer(app: RequestListener, logger?: Logger): Server {
  const server = createServer(app);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // Nothing to answer on a connection the client already dropped, or one a response is being
    // written on. A request whose body breaks (an invalid chunk size) has a response object that
    // wrote nothing yet: it is answered here, as Node's own handler would.
    const inFlight = (socket as { _httpMessage?: { headersSent: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = refusalFor(error.code);
    logger?.info(
      { code: refusal.code, status: refusal.status, reason: error.code },
      'request refused by the HTTP parser',
    );
    socket.end(rawJsonResponse(refusal));
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({ code: EXPECTATION_FAILED.code, message: EXPECTATION_FAILED.message });
    res.writeHead(417, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    res.end(body);
  });
  return server;
}
