// How a failed command ends: one line on stderr (the stack first with
// --verbose) and the exit code of its kind.
import { CommanderError } from 'commander';
import { apiErrorLine } from '../../base/api-errors.ts';
import { ConfigError } from '../../base/config.ts';
import { CliError, EXIT } from './errors.ts';

const HELP_CODES = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

/** The exit code for an error, after writing its one line (and, with --verbose, its stack). */
export function reportError(err: unknown, verbose: boolean, write: (s: string) => void): number {
  if (err instanceof CommanderError) {
    if (HELP_CODES.has(err.code) || err.exitCode === 0) return 0;
    return EXIT.usage; // commander has written its one line already
  }
  if (verbose && err instanceof Error && err.stack) write(`${err.stack}\n`);
  return reportOther(err, verbose, write);
}

function reportOther(err: unknown, verbose: boolean, write: (s: string) => void): number {
  if (err instanceof CliError) {
    write(`platform: ${err.line()}\n`);
    return err.exitCode;
  }
  if (err instanceof ConfigError) {
    write(`platform: ${err.message}\n`);
    return EXIT.usage;
  }
  // A Kubernetes API error keeps its status code and the apiserver's message.
  const message = apiErrorLine(err);
  write(`platform: ${message.split('\n')[0]}${verbose ? '' : ' (run with --verbose for details)'}\n`);
  return EXIT.failed;
}
