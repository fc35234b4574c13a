import { ApiError, type ErrorDetail } from '../../core/errors.js';

export class WebhookConfigurationNotFound extends ApiError {
  constructor() {
    super(400, 'WEBHOOK-001', 'Webhook configuration not found');
  }
}

export class WebhookTargetRefused extends ApiError {
  constructor(url: string, why: string) {
    super(400, 'WEBHOOK-002', `webhookUrl ${url} ${why}`, [{ path: 'body.webhookUrl', message: why }]);
  }
}

export class WebhookEventsInvalid extends ApiError {
  constructor() {
    super(400, 'WEBHOOK-003', 'enabledEvents lists all together with other events, or an event more than once', [
      { path: 'body.enabledEvents', message: 'all must be alone, and each event listed once' },
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
  constructor(unknown: { index: number; name: string }[], known: readonly string[]) {
    const names = unknown.map((u) => u.name).join(', ');
    super(
      400,
      'WEBHOOK-008',
      `enabledEvents: unknown event${unknown.length > 1 ? 's' : ''} ${names}; known events: ${known.join(', ')}`,
      unknown.map((u) => ({ path: `body.enabledEvents[${u.index}].name`, message: `unknown event ${u.name}` })),
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

/** Configurations one partner may keep, of each kind (`POST /webhooks`, legacy `POST /webhook/configurations`). */
export const MAX_CONFIGURATIONS = 20;

export class WebhookConfigurationsFull extends ApiError {
  constructor() {
    super(
      400,
      'WEBHOOK-012',
      `A partner keeps at most ${MAX_CONFIGURATIONS} webhook configurations of each kind; delete one before adding another`,
    );
  }
}
