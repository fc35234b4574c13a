import type { Recipient } from './recipients.js';

/** What one API calls the things of its webhooks: the events it sends and the request fields errors name. */
export interface WebhookVocabulary {
  /** Every event of the API, in the order of its documentation. */
  events: readonly string[];
  fields: {
    /** The configuration's URL (`webhookUrl`, `url`). */
    url: string;
    /** The list of events (`enabledEvents`, `eventos`). */
    events: string;
    /** Where the name of the list's `index`-th event is, under the body. */
    eventName: (index: number) => string;
  };
}

/** A tenant and the vocabulary of the API it uses. */
export interface Audience {
  recipient: Recipient;
  vocabulary: WebhookVocabulary;
}
