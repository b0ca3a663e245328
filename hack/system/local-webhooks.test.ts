import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWebhookConfigurations, toLocalUrl } from './local-webhooks.ts';

const configDir = join(import.meta.dirname, '..', '..', 'config');

describe('local webhook registration', () => {
  it('points every webhook of config/webhook at the loopback server, keeping its path', () => {
    const configs = readWebhookConfigurations(configDir);
    expect(configs.map((c) => c.kind).sort()).toEqual([
      'MutatingWebhookConfiguration',
      'ValidatingWebhookConfiguration',
    ]);
    for (const config of configs) {
      const local = toLocalUrl(config, '127.0.0.1', 9443);
      for (const [i, hook] of local.webhooks.entries()) {
        const path = config.webhooks[i]?.clientConfig.service?.path;
        expect(path).toMatch(/^\/(mutate|validate)/);
        expect(hook.clientConfig).toEqual({ url: `https://127.0.0.1:9443${path}` });
      }
      // The source is left untouched.
      expect(config.webhooks[0]?.clientConfig.service).toBeDefined();
    }
  });
});
