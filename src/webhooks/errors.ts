import { ApiError, type ErrorDetail } from '../core/errors.js';

export class WebhookConfigurationNotFound extends ApiError {
  constructor() {
    super(400, 'WEBHOOK-001', 'Webhook configuration not found');
  }
}

/** `field`: the request's name of the URL, in the API's vocabulary. */
export class WebhookTargetRefused extends ApiError {
  constructor(url: string, why: string, field = 'webhookUrl') {
    super(400, 'WEBHOOK-002', `${field} ${url} ${why}`, [{ path: `body.${field}`, message: why }]);
  }
}

export class WebhookEventsInvalid extends ApiError {
  constructor(field = 'enabledEvents') {
    super(400, 'WEBHOOK-003', `${field} lists all together with other events, or an event more than once`, [
      { path: `body.${field}`, message: 'all must be alone, and each event listed once' },
    ]);
  }
}

export class WebhookNotTestable extends ApiError {
  constructor(message = 'Only an active configuration with enabled events can be tested', details?: ErrorDetail[]) {
    super(400, 'WEBHOOK-004', message, details);
  }
}

export class LegacyDispatchNotFound extends ApiError {
  constructor(message: string) {
    super(400, 'WEBHOOK-005', message);
  }
}

export class LegacyDispatchDelivered extends ApiError {
  constructor(message: string) {
    super(400, 'WEBHOOK-006', message);
  }
}

export class LegacyRetriesExhausted extends ApiError {
  constructor(message: string) {
    super(400, 'WEBHOOK-007', message);
  }
}

export class WebhookEventUnknown extends ApiError {
  constructor(
    unknown: { index: number; name: string }[],
    known: readonly string[],
    field = 'enabledEvents',
    pathOf: (index: number) => string = (index) => `${field}[${index}].name`,
  ) {
    const names = unknown.map((u) => u.name).join(', ');
    super(
      400,
      'WEBHOOK-008',
      `${field}: unknown event${unknown.length > 1 ? 's' : ''} ${names}; known events: ${known.join(', ')}`,
      unknown.map((u) => ({ path: `body.${pathOf(u.index)}`, message: `unknown event ${u.name}` })),
    );
  }
}

export class WebhookDeliveryNotFound extends ApiError {
  constructor() {
    super(400, 'WEBHOOK-009', 'Webhook delivery not found');
  }
}

export class WebhookDeliveryPending extends ApiError {
  constructor() {
    super(
      400,
      'WEBHOOK-010',
      'The delivery is still pending (or paused with its configuration); it can be repeated once it succeeded or failed',
    );
  }
}

export class WebhookNotSigned extends ApiError {
  constructor() {
    super(400, 'WEBHOOK-011', 'The configuration is not signed; turn signing on with PATCH {"signed":true}');
  }
}

/**
 * Configurations one tenant may keep, of each kind (a partner's `POST /webhooks` and legacy
 * `POST /webhook/configurations`, an institution's `POST /v1/webhooks`).
 */
export const MAX_CONFIGURATIONS = 20;

export class WebhookConfigurationsFull extends ApiError {
  constructor(tenant: 'partner' | 'institution' = 'partner') {
    super(
      400,
      'WEBHOOK-012',
      tenant === 'partner'
        ? `A partner keeps at most ${MAX_CONFIGURATIONS} webhook configurations of each kind; delete one before adding another`
        : `An institution keeps at most ${MAX_CONFIGURATIONS} webhook configurations; delete one before adding another`,
    );
  }
}
