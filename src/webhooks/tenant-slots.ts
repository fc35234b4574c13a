/**
 * The webhook sends of each tenant (a partner or an institution) in flight in one worker process.
 * The rate bound spaces a tenant's sends out, but a receiver that answers slowly (or not at all,
 * until the timeout) keeps each send's slot for that long: at 20 sends a second and 10 s each, one
 * tenant would hold every slot of the process and the others' deliveries would wait behind its
 * own. So a tenant takes slots beyond its share (a quarter) only while a share's worth stays free
 * for the others.
 *
 * An attempt turned away waits, booking nothing, for its tenant's next turn: its sends finish
 * about every `duration / held` ms (their average duration, or the age of the oldest still in
 * flight if longer), and its waiting attempts are spaced at that pace, so that a long queue of them
 * neither runs again and again nor sleeps while its slots are free.
 */
export class TenantSlots {
  private readonly tenants = new Map<string, TenantState>();
  private inFlight = 0;

  /** `total`: the process's webhook slots (`WEBHOOK_WORKER_CONCURRENCY`). */
  constructor(
    readonly total: number,
    readonly share = Math.max(1, Math.floor(total / 4)),
  ) {}

  /** Takes a slot for one of the tenant's sends, started at `now` (ms); false when it holds its share and the others' is not free. */
  take(tenantId: string, now: number): boolean {
    const state = this.tenants.get(tenantId) ?? { started: [], averageMs: undefined, nextTurn: 0 };
    if (state.started.length >= this.share && this.inFlight + this.share >= this.total) return false;
    state.started.push(now);
    this.tenants.set(tenantId, state);
    this.inFlight++;
    return true;
  }

  /** Gives back the slot of a send started at `startedAt`, ended at `now`. */
  release(tenantId: string, startedAt: number, now: number): void {
    const state = this.tenants.get(tenantId);
    const at = state?.started.indexOf(startedAt) ?? -1;
    if (!state || at < 0) return;
    state.started.splice(at, 1);
    this.inFlight--;
    const duration = now - startedAt;
    state.averageMs = state.averageMs === undefined ? duration : 0.8 * state.averageMs + 0.2 * duration;
    if (state.started.length === 0 && state.nextTurn <= now) this.tenants.delete(tenantId);
  }

  /** Seconds until the next turn of a tenant whose attempt was turned away at `now`: 0.1 at least. */
  nextTurn(tenantId: string, now: number): number {
    const state = this.tenants.get(tenantId);
    if (!state) return MIN_WAIT_MS / 1000;
    const oldest = state.started.length ? now - Math.min(...state.started) : 0;
    const pace = Math.max(state.averageMs ?? 0, oldest) / Math.max(1, state.started.length);
    state.nextTurn = Math.max(now, state.nextTurn) + pace;
    return Math.max(MIN_WAIT_MS, state.nextTurn - now) / 1000;
  }
}

/** The shortest wait of an attempt turned away: graphile-worker's poll interval. */
const MIN_WAIT_MS = 100;

interface TenantState {
  /** When each of its sends in flight started (ms). */
  started: number[];
  averageMs: number | undefined;
  /** The instant (ms) given to its last attempt turned away. */
  nextTurn: number;
}
