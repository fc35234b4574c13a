import type { ApiError } from '../../core/errors.js';
import type { FieldErrors } from '../../pages/form-fields.js';
import { MAX_CONFIGURATIONS } from '../../webhooks/errors.js';
import { errorsOf } from '../forms.js';
import type { Notice } from '../layout.js';

/** What each field of the webhook forms must be, by the name the API's `details` give it. */
const FIELD_RULES: Record<string, [field: string, text: string]> = {
  'body.configurationName': ['configurationName', 'Informe um nome de 1 a 100 caracteres.'],
  'body.webhookUrl': [
    'webhookUrl',
    'Informe um endereço completo, começando com https:// ou http://, de até 2.048 caracteres.',
  ],
  'body.authorizationToken': [
    'authorizationToken',
    'O token deve ter de 1 a 1.024 caracteres aceitos num cabeçalho HTTP: sem quebras de linha, outros caracteres de controle ou emojis.',
  ],
  'body.enabledEvents': ['enabledEvents', 'Escolha os eventos da lista.'],
  'body.gracePeriodSeconds': ['gracePeriodSeconds', 'Escolha um dos prazos da lista.'],
  events: ['events', 'Escolha pelo menos um dos eventos deste webhook.'],
};

/** The Institution API's names of the same fields: a university's forms are checked against its contract. */
const INSTITUTION_FIELDS: Record<string, string> = {
  'body.nome': 'body.configurationName',
  'body.url': 'body.webhookUrl',
  'body.tokenAutorizacao': 'body.authorizationToken',
  'body.eventos': 'body.enabledEvents',
  'body.periodoGracaSegundos': 'body.gracePeriodSeconds',
};

/** The refusals of the webhook services that are no one field's, by code. */
const RULES: Record<string, [field: string, text: string]> = {
  'WEBHOOK-002': [
    'webhookUrl',
    'Este endereço não é aceito: os webhooks vão só para endereços públicos, http ou https (endereços privados, locais e de metadados são recusados).',
  ],
  'WEBHOOK-003': ['enabledEvents', '"Todos os eventos" não se combina com outros eventos.'],
  'WEBHOOK-004': ['form', 'Para isso o webhook precisa estar ativo e receber algum evento.'],
  'WEBHOOK-008': ['enabledEvents', 'Escolha os eventos da lista.'],
  'WEBHOOK-010': [
    'form',
    'Esta entrega ainda está pendente (ou pausada com o webhook): ela pode ser reenviada depois de entregue ou de falhar.',
  ],
  'WEBHOOK-011': ['form', 'Este webhook não assina as entregas: ative a assinatura em Editar.'],
};

/** The cap, said of the tenant that reached it (`holder`: "A empresa", "A instituição"). */
const fullText = (holder: string) =>
  `${holder} já tem ${MAX_CONFIGURATIONS} webhooks, o máximo: exclua um antes de criar outro.`;

/** The field of a `details` path: `body.enabledEvents[0].name` is the events' field. */
const fieldRule = (path: string) => {
  const field = path.replace(/\[.*$/, '');
  return FIELD_RULES[INSTITUTION_FIELDS[field] ?? field];
};

/**
 * The refusal of a webhook service (the rules and codes of both APIs) as the panel's form shows
 * it: each message in pt-BR next to its field, ending with the API's code; undefined for an error
 * that is no refusal of a webhook form.
 */
export function webhookRefusal(error: ApiError, holder = 'A empresa'): FieldErrors | undefined {
  const tagged = (text: string) => `${text} (${error.code})`;
  // The contract's check and the test's selection name the fields; the other rules are one each.
  const detailed = error.code === 'VALIDATION-001' || error.code === 'WEBHOOK-004';
  const byField = detailed ? (error.details ?? []).map((d) => fieldRule(d.path)).filter((r) => r !== undefined) : [];
  if (byField.length > 0) return Object.fromEntries(byField.map(([field, text]) => [field, tagged(text)]));
  const rule: [string, string] | undefined =
    error.code === 'WEBHOOK-012'
      ? ['form', fullText(holder)]
      : (RULES[error.code] ?? (error.code === 'VALIDATION-001' ? ['form', error.message] : undefined));
  return rule ? { [rule[0]]: tagged(rule[1]) } : undefined;
}

/**
 * Runs what a webhook form asked for; a refusal by the service's rules goes to `refused` with its
 * messages (to show the form again; `holder` names the tenant in them), anything else is thrown on to the panel's error pages.
 */
export async function unlessRefused(
  run: () => Promise<void>,
  refused: (errors: FieldErrors) => void,
  holder?: string,
): Promise<void> {
  try {
    await run();
  } catch (error) {
    const errors = errorsOf(error, (e) => webhookRefusal(e, holder));
    if (!errors) throw error;
    refused(errors);
  }
}

/** A refusal of a form with no field of its own, as the notice of the page shown again. */
export const refusalNotice = (errors: FieldErrors): Notice => ({ text: Object.values(errors)[0]!, error: true });
