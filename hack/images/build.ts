// `npm run images:build -- [--import] [--address <socket>] [--only platform,agent-runtime,pause] [--out <dir>]`
// Builds the images as an OCI layout without Docker and, with --import, loads
// them into containerd's k8s.io namespace so the kubelet can run them at once.
// A missing prerequisite (gcc, ctr, a reachable socket) exits 2 with one line.
import { parseArgs } from 'node:util';
import { buildImages } from './build-images.ts';
import { connect, DEFAULT_ADDRESS, importImages } from './containerd.ts';
import { parseImageIds, type ImageId } from './definitions.ts';
import { MissingPrerequisite } from './host.ts';

interface Cli {
  import: boolean;
  address: string;
  only?: ImageId[];
  out?: string;
}

function parseCli(argv: string[]): Cli {
  const { values } = parseArgs({
    args: argv,
    options: {
      import: { type: 'boolean', default: false },
      address: { type: 'string', default: DEFAULT_ADDRESS },
      only: { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
  });
  return {
    import: values.import,
    address: values.address,
    ...(values.only === undefined ? {} : { only: parseImageIds(values.only) }),
    ...(values.out === undefined ? {} : { out: values.out }),
  };
}

async function main(argv: string[]): Promise<number> {
  let cli: Cli;
  try {
    cli = parseCli(argv);
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  try {
    // Before a build that may take a minute, not after it.
    if (cli.import) await connect({ address: cli.address });
    const result = await buildImages({
      ...(cli.only ? { only: cli.only } : {}),
      ...(cli.out ? { outDir: cli.out } : {}),
      log: (line) => console.log(line),
    });
    console.log(
      `built ${result.images.length} images in ${result.seconds.toFixed(1)} s into ${result.layoutDir}`,
    );
    if (!cli.import) return 0;
    const imported = await importImages(result, { address: cli.address, log: (line) => console.log(line) });
    const fresh = imported.filter((i) => i.imported);
    console.log(
      `imported ${fresh.length} of ${imported.length} images in ${(fresh[0]?.seconds ?? 0).toFixed(1)} s`,
    );
    return 0;
  } catch (err) {
    if (err instanceof MissingPrerequisite) {
      console.error(`images: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

process.exitCode = await main(process.argv.slice(2));
