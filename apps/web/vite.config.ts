import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The API server (apps/server) listens on 8080; in development Vite proxies the three paths it owns.
const API_TARGET = 'http://localhost:8080';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: true },
      '/ws': { target: API_TARGET, ws: true, changeOrigin: true },
      '/rpc': { target: API_TARGET, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The code editor (CodeMirror with its JavaScript and Python modes, ~190 kB gzipped) is one lazy
    // chunk, loaded only when a bot's code is edited; every other chunk stays far below this.
    chunkSizeWarningLimit: 600,
  },
});
