import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressAssets } from './vite-precompress.ts';

export default defineConfig({
  plugins: [react(), precompressAssets()],
  // Relative asset URLs: the same build serves at the root or under any BASE_PATH (a proxy's
  // sub-path); the app takes its base from the address it was loaded from (shared/base-path.ts).
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
});
