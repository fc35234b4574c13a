import type { RequestHandler } from 'express';

/** The encodings the service reads a body in on every supported Node.js (Express's body parsers). */
const READ_ENCODINGS = new Set(['identity', 'gzip', 'deflate', 'br']);

/**
 * Refuses a body in an encoding outside `READ_ENCODINGS` before any parser sees it, exactly as
 * Express's parsers refuse one they cannot read (`encoding.unsupported`, 415 `MEDIA-TYPE-001`, or
 * each hosted page's own answer to it). A newer zlib reads more (Node 24's zstd), and the answer to
 * a header any client can send must not depend on the Node.js the service runs on.
 */
export const refuseUnreadEncoding: RequestHandler = (req, _res, next) => {
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if (!encoding || READ_ENCODINGS.has(encoding)) return next();
  next(
    Object.assign(new Error(`unsupported content encoding "${encoding}"`), {
      type: 'encoding.unsupported',
      status: 415,
      statusCode: 415,
      expose: true,
    }),
  );
};
