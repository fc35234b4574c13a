import { loadDocument } from '../../contract/documents.js';
import { localDateTime } from '../../core/local-date.js';
import type { SamplePayload } from '../../webhooks/test-deliveries.js';
import { INSTITUTION_EVENT_NAMES } from '../events/vocabulary.js';

interface WebhookItem {
  post?: { requestBody?: { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> } };
}

let examples: Promise<Map<string, Record<string, unknown>>> | undefined;

/**
 * The example of each event of the `webhooks` section of the Institution API document: the
 * document is the one source of what a test delivery carries.
 */
function eventExamples(): Promise<Map<string, Record<string, unknown>>> {
  examples ??= loadDocument('institution').then((doc) => {
    const webhooks = (doc.webhooks ?? {}) as Record<string, WebhookItem>;
    return new Map(
      INSTITUTION_EVENT_NAMES.map((name) => {
        const example = Object.values(
          webhooks[name]?.post?.requestBody?.content?.['application/json']?.examples ?? {},
        )[0];
        if (example?.value === undefined)
          throw new Error(`the webhooks section of the Institution API document has no example of ${name}`);
        return [name, example.value as Record<string, unknown>];
      }),
    );
  });
  return examples;
}

/** Test deliveries carry the document's example of their event, with their own id and instant, sequence 0. */
export async function institutionSamples(institutionId: string): Promise<SamplePayload> {
  const byName = await eventExamples();
  return (event, at, eventId) => ({
    ...byName.get(event),
    id: eventId,
    sequencia: 0,
    instituicaoId: institutionId,
    ocorridoEm: at.toISOString(),
    ocorridoEmBrasilia: localDateTime(at),
  });
}

/** Every event with the document's example, as indented JSON (the panel's catalogue of events). */
export async function institutionCatalogue(): Promise<{ name: string; example: string }[]> {
  const byName = await eventExamples();
  return INSTITUTION_EVENT_NAMES.map((name) => ({ name, example: JSON.stringify(byName.get(name), null, 2) }));
}
