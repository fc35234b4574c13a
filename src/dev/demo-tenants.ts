import type { Queryable } from '../db/client.js';
import { createInstitution, createPartner, hasAnyTenant } from '../tenants/tenants.js';

export interface DemoKeys {
  institution: { id: string; apikey: string };
  partner: { id: string; apiToken: string };
}

/** On an empty database, one demo institution and one demo partner, so a first start is usable at once. */
export async function seedDemoTenants(db: Queryable): Promise<DemoKeys | undefined> {
  if (await hasAnyTenant(db)) return undefined;
  const institution = await createInstitution(db, 'Universidade Demonstração');
  const partner = await createPartner(db, 'Cursos Livres Demonstração');
  return {
    institution: { id: institution.id, apikey: institution.apikey },
    partner: { id: partner.id, apiToken: partner.apiToken },
  };
}
