// The console's own metrics: open streams, events handed to them, clients
// dropped for not reading, and events the sources could not publish.
import { Counter, Gauge, type Registry } from 'prom-client';

export class ConsoleMetrics {
  readonly clients: Gauge;
  readonly delivered: Counter;
  readonly dropped: Counter<'reason'>;
  readonly published: Counter<'type'>;
  readonly publishFailures: Counter;

  constructor(registry: Registry) {
    this.clients = new Gauge({
      name: 'platform_console_clients',
      help: 'Console streams open on this replica',
      registers: [registry],
    });
    this.delivered = new Counter({
      name: 'platform_console_events_delivered_total',
      help: 'Console events handed to open streams (one per stream of the agent)',
      registers: [registry],
    });
    this.dropped = new Counter({
      name: 'platform_console_clients_dropped_total',
      help: 'Console streams closed by the server, by reason (slow_client: its unread queue filled)',
      labelNames: ['reason'],
      registers: [registry],
    });
    this.published = new Counter({
      name: 'platform_console_events_published_total',
      help: 'Console events this replica stored in the event log, by type',
      labelNames: ['type'],
      registers: [registry],
    });
    this.publishFailures = new Counter({
      name: 'platform_console_publish_failures_total',
      help: 'Console events this replica could not store (the event log was unavailable)',
      registers: [registry],
    });
  }
}
