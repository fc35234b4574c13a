import type { AppContext } from '../../src/context.js';
import { createInstitution, createPartner } from '../../src/tenants/tenants.js';

export async function givenInstitution(ctx: AppContext, name = 'Universidade Federal de Teste') {
  const created = await createInstitution(ctx.db, name);
  return { id: created.id, headers: { apikey: created.apikey } };
}

export async function givenPartner(ctx: AppContext, name = 'Escola de Cursos Teste') {
  const created = await createPartner(ctx.db, name);
  return { id: created.id, headers: { 'Api-Token': created.apiToken } };
}
