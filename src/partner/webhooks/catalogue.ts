import { loadDocument } from '../../contract/documents.js';
import { EVENT_NAMES, type WebhookEventName } from './events.js';

/** One event of the catalogue, with the example payload of the document's `webhooks` section. */
export interface CatalogueEvent {
  name: WebhookEventName;
  /** The example payload, as indented JSON. */
  example: string;
}

interface WebhookItem {
  post?: { requestBody?: { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> } };
}

let catalogue: Promise<CatalogueEvent[]> | undefined;

/**
 * Every event a configuration can receive, in the order of `EVENT_NAMES`, with the first example
 * payload of its entry in the `webhooks` section of the Partner API document: the document is the
 * one source, so the catalogue shows what the contract promises.
 */
export function webhookEventCatalogue(): Promise<CatalogueEvent[]> {
  catalogue ??= loadDocument('partner').then((doc) => {
    const webhooks = (doc.webhooks ?? {}) as Record<string, WebhookItem>;
    return EVENT_NAMES.map((name) => {
      const example = Object.values(
        webhooks[name]?.post?.requestBody?.content?.['application/json']?.examples ?? {},
      )[0];
      if (example?.value === undefined)
        throw new Error(`the webhooks section of the Partner API document has no example payload of ${name}`);
      return { name, example: JSON.stringify(example.value, null, 2) };
    });
  });
  return catalogue;
}
