import type { Request, RequestHandler } from 'express';

import type { Clock } from '../core/clock.js';
import { ConflictingCredentials, MissingCredentials } from '../core/errors.js';
import type { Database } from '../db/client.js';
import type { Tenant } from '../tenants/credentials.js';
import type { CachedKey, KeyCache } from '../tenants/key-cache.js';
import { findKey } from '../tenants/key-lookup.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The authenticated institution or partner; set by the API's authentication middleware. */
    tenant?: Tenant;
    /** The id of the key that authenticated the request (what the institution sees as who sent a batch). */
    keyId?: string;
  }
}

/** The request authenticated by `key`. */
function authenticated(req: Request, key: CachedKey): void {
  req.tenant = key.tenant;
  req.keyId = key.keyId;
}

export function authenticateInstitution(db: Database, keys: KeyCache, clock: Clock): RequestHandler {
  return async (req, _res, next) => {
    const secret = req.get('apikey');
    const key = secret ? await findKey(db, keys, 'institution', secret, clock.now()) : undefined;
    if (!key) return next(new MissingCredentials('apikey'));
    authenticated(req, key);
    next();
  };
}

export function authenticatePartner(db: Database, keys: KeyCache, clock: Clock): RequestHandler {
  return async (req, _res, next) => {
    const token = req.get('api-token');
    // The spec gives Authorization priority over Api-Token and refuses the request outright.
    if (token !== undefined && req.get('authorization') !== undefined) return next(new ConflictingCredentials());
    const key = token ? await findKey(db, keys, 'partner', token, clock.now()) : undefined;
    if (!key) return next(new MissingCredentials('Api-Token'));
    authenticated(req, key);
    next();
  };
}

/**
 * The sandbox's operator routes: the partner's `Api-Token`, or the institution's `apikey` for the
 * charges of its installments. Each route then answers only what belongs to that tenant.
 */
export function authenticateAnyTenant(db: Database, keys: KeyCache, clock: Clock): RequestHandler {
  return async (req, _res, next) => {
    const token = req.get('api-token');
    const key = req.get('apikey');
    const found = token
      ? await findKey(db, keys, 'partner', token, clock.now())
      : key
        ? await findKey(db, keys, 'institution', key, clock.now())
        : undefined;
    if (!found) return next(new MissingCredentials('Api-Token (or apikey)'));
    authenticated(req, found);
    next();
  };
}

/** The authenticated tenant's id; routes are only reachable after authentication. */
export function institutionId(req: { tenant?: Tenant }): string {
  if (req.tenant?.kind !== 'institution') throw new Error('route reached without institution authentication');
  return req.tenant.id;
}

export function partnerId(req: { tenant?: Tenant }): string {
  if (req.tenant?.kind !== 'partner') throw new Error('route reached without partner authentication');
  return req.tenant.id;
}
