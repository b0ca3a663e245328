// For `npm start` and the e2e setup: build the three images (cached layers;
// a code change rebuilds only the app layer) and hand back the step that
// imports them into the local node's containerd once it answers.
import { buildImages } from './build-images.ts';
import { importImages } from './containerd.ts';

export async function prepareLocalImages(
  log: (line: string) => void,
): Promise<(containerdSocket: string) => Promise<void>> {
  const built = await buildImages({ log: (line) => log(`images: ${line}`) });
  log(`images built in ${built.seconds.toFixed(1)} s: ${built.images.map((i) => i.name).join(', ')}`);
  return async (address) => {
    const started = Date.now();
    await importImages(built, { address, log: (line) => log(`images: ${line}`) });
    log(`images imported in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };
}
