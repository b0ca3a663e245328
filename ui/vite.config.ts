// The management UI's build: Preact through esbuild's automatic JSX runtime
// (no plugin needed), served by the api role under /ui/ (decisions 235-237).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/ui/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The facade's CSP allows no inline script or style: every byte comes from a file.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
