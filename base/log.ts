// Structured JSON logging for every role. Secret-bearing fields are redacted
// by path so a careless `log.info({ headers })` cannot leak a credential.
import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

const REDACT_PATHS = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'clientSecret',
  '*.clientSecret',
  'privateKey',
  '*.privateKey',
];

export interface LoggerOptions {
  level?: string;
  /** Where to write; defaults to stdout. Tests pass a stream to capture output. */
  destination?: NodeJS.WritableStream;
}

export function createLogger(component: string, options: LoggerOptions = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  const base = { component, pid: process.pid };
  const opts = {
    level,
    base,
    messageKey: 'msg',
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (options.destination) return pino(opts, options.destination);
  // Synchronous stdout: a line is out before the next step (a crash loses
  // nothing), and no exit-time flush is registered — that flush loops forever
  // when the reader of stdout has gone away (EPIPE), so SIGTERM never ended the process.
  return pino(opts, pino.destination({ dest: 1, sync: true }));
}
