/** The timed changes of the catalogue: a campaign starting or ending, a class expiring. */
export type ScheduleKind = 'campaign-start' | 'campaign-end' | 'class-expiry';

/** The timed changes of a sale: its deadline, its invoices' due times, an abandoned cart. */
export type SaleScheduleKind = 'sale-expiry' | 'invoice-expiry' | 'cart-abandonment';

/** The mail the service sends: the two links, and the notices of a changed password and a locked sign-in. */
export type MailKind = 'invitation' | 'password-reset' | 'password-changed' | 'account-locked';

// graphile-worker types task payloads by declaration merging into its global namespace.
declare global {
  namespace GraphileWorker {
    /**
     * Payload of every task; a task file checks its payload with an assertion too. While tracing is
     * on, a payload also carries the `traceparent` of the span that added the job (`enqueue.ts`).
     */
    interface Tasks {
      'process-student-batch': { batchId: string };
      'process-installment-batch': { batchId: string };
      /** Attempt `attempt` (1 to 4) of one webhook delivery; `booked` once its send was booked in its partner's budget. */
      'webhook-attempt': { deliveryId: string; attempt: number; booked?: boolean };
      /** Send `send` (1 for the automatic one, then one per manual retry) of a legacy dispatch. */
      'legacy-webhook-dispatch': { dispatchId: string; send: number; bookedFor?: string };
      /** From the crontab: `_cron` only. By hand: a month (`YYYY-MM-01`) and optionally one institution. */
      'close-statement-month': { month?: string; institutionId?: string; _cron?: unknown };
      /** Applies every catalogue schedule due by the service clock; `at` is the instant this job was for. */
      'apply-catalogue-schedules': { kind: ScheduleKind; id: string; at: string };
      /** Applies one sale schedule (`id` is a sale id, or a charge id for invoices); `at` is its instant. */
      'apply-sale-schedule': { kind: SaleScheduleKind; id: string; at: string };
      /** From the crontab only: folds the installment counter rows into one per group. */
      'compact-installment-counts': { _cron?: unknown };
      /** From the crontab only: reads the pending charges not heard of for a while from the payment provider. */
      'reconcile-payments': { _cron?: unknown };
      /** Asks the payment provider for one refund of `payment_refunds` (keyed by its id), then records its answer. */
      'refund-payment': { refundId: string };
      /** Cancels one charge at the payment provider: a sibling of a paid charge, a card session past its day. */
      'cancel-charge': { chargeId: string };
      /** One message to one person; `sealed` is the whole message (recipient, subject, bodies) sealed with SECRETS_KEY. */
      'send-mail': { kind: MailKind; sealed: string };
      /** From the crontab only: forgets the panel's one-time forms' secrets past their window, and expired forms. */
      'sweep-sent-forms': { _cron?: unknown };
      /** From the crontab: `_cron` only. By hand: one institution. Tells the installments late unpaid. */
      'tell-overdue-installments': { institutionId?: string; _cron?: unknown };
      /** From the crontab: `_cron` only. By hand: one institution. Books the card installments the acquirer paid by today. */
      'book-due-records': { institutionId?: string; _cron?: unknown };
    }
  }
}

export type TaskName = keyof GraphileWorker.Tasks;
