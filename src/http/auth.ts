import type { RequestHandler } from 'express';

import type { Clock } from '../core/clock.js';
import { ConflictingCredentials, MissingCredentials } from '../core/errors.js';
import type { Database } from '../db/client.js';
import type { Tenant } from '../tenants/credentials.js';
import type { KeyCache } from '../tenants/key-cache.js';
import { findTenantByKey } from '../tenants/key-lookup.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The authenticated institution or partner; set by the API's authentication middleware. */
    tenant?: Tenant;
  }
}

export function authenticateInstitution(db: Database, keys: KeyCache, clock: Clock): RequestHandler {
  return async (req, _res, next) => {
    const key = req.get('apikey');
    const tenant = key ? await findTenantByKey(db, keys, 'institution', key, clock.now()) : undefined;
    if (!tenant) return next(new MissingCredentials('apikey'));
    req.tenant = tenant;
    next();
  };
}

export function authenticatePartner(db: Database, keys: KeyCache, clock: Clock): RequestHandler {
  return async (req, _res, next) => {
    const token = req.get('api-token');
    // The spec gives Authorization priority over Api-Token and refuses the request outright.
    if (token !== undefined && req.get('authorization') !== undefined) return next(new ConflictingCredentials());
    const tenant = token ? await findTenantByKey(db, keys, 'partner', token, clock.now()) : undefined;
    if (!tenant) return next(new MissingCredentials('Api-Token'));
    req.tenant = tenant;
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
    const tenant = token
      ? await findTenantByKey(db, keys, 'partner', token, clock.now())
      : key
        ? await findTenantByKey(db, keys, 'institution', key, clock.now())
        : undefined;
    if (!tenant) return next(new MissingCredentials('Api-Token (or apikey)'));
    req.tenant = tenant;
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
